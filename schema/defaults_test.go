package schema

import (
	"testing"
)

func TestApplyDefaults(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{
		"unit":{"type":"string","default":"celsius"},
		"days":{"$ref":"#/$defs/days"},
		"opts":{"type":"object","properties":{"lang":{"default":"en"}}},
		"stops":{"type":"array","items":{"properties":{"n":{"default":1}}}},
		"city":{"type":"string","default":"Paris"}},
		"required":["city"],
		"$defs":{"days":{"type":"integer","default":3}}}`, &Options{NullAsAbsent: true, Strict: true})
	tests := []struct{ in, want string }{
		{`{"city":"Rome","unit":"kelvin","days":1,"opts":{"lang":"fr"},"stops":[]}`, ``},
		{`{"city":"Rome"}`, `{"city":"Rome","unit":"celsius","days":3}`},
		{`{"city":null,"unit":null,"opts":{},"stops":[{},{"n":2}]}`, `{"city":null,"unit":"celsius","opts":{"lang":"en"},"stops":[{"n":1},{"n":2}],"days":3}`},
	}
	for _, tc := range tests {
		out, changed, err := v.ApplyDefaults([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if tc.want == "" {
			if changed || string(out) != tc.in {
				t.Errorf("ApplyDefaults(%s) = %s, %v; want unchanged", tc.in, out, changed)
			}
			continue
		}
		if !changed || string(out) != tc.want {
			t.Errorf("ApplyDefaults(%s)\n got %s, %v\nwant %s", tc.in, out, changed, tc.want)
		}
	}
	if _, _, err := v.ApplyDefaults([]byte(`{`)); err == nil {
		t.Error("no error for invalid JSON")
	}
	plain := mustCompile(t, weather, nil)
	in := []byte(`{"city":"Paris"}`)
	if n := testing.AllocsPerRun(100, func() {
		out, changed, err := plain.ApplyDefaults(in)
		if err != nil || changed || &out[0] != &in[0] {
			t.Fatal("changed")
		}
	}); n != 0 {
		t.Errorf("ApplyDefaults without defaults: %v allocs", n)
	}
	// A default only under a combinator is not applied.
	v = mustCompile(t, `{"anyOf":[{"properties":{"a":{"default":1}}}]}`, nil)
	if out, changed, _ := v.ApplyDefaults([]byte(`{}`)); changed || string(out) != `{}` {
		t.Errorf("combinator default applied: %s", out)
	}
}
