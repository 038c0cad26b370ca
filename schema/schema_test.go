package schema

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

const weather = `{"type":"object","properties":{
	"city":{"type":"string","minLength":2,"maxLength":40},
	"days":{"type":"integer","minimum":1,"maximum":14},
	"unit":{"type":"string","enum":["celsius","fahrenheit"]}},
	"required":["city"],"additionalProperties":false}`

func mustCompile(t testing.TB, schema string, opts *Options) *Validator {
	t.Helper()
	v, err := Compile([]byte(schema), opts)
	if err != nil {
		t.Fatalf("Compile(%s): %v", schema, err)
	}
	return v
}

// messages returns Validate's problems as "keyword@path: message" lines.
func problems(t testing.TB, v *Validator, instance string) []Problem {
	t.Helper()
	err := v.Validate([]byte(instance))
	if err == nil {
		return nil
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Validate(%s) = %T %v, want *ValidationError", instance, err, err)
	}
	if ve.Error() == "" {
		t.Fatalf("empty error text")
	}
	return ve.Problems
}

func TestMessages(t *testing.T) {
	v := mustCompile(t, weather, nil)
	tests := []struct {
		in   string
		want string // messages joined with "; "
	}{
		{`{"city":"Paris"}`, ""},
		{`{"city":"Paris","days":14,"unit":"celsius"}`, ""},
		{`{"city":"Paris","days":15}`, `"days" must be at most 14`},
		{`{"city":"Paris","days":0}`, `"days" must be at least 1`},
		{`{"city":"Paris","days":1.5}`, `"days" must be an integer, got 1.5`},
		{`{"city":"Paris","days":"3"}`, `"days" must be an integer, got a string`},
		{`{"city":"Paris","days":30.0}`, `"days" must be at most 14`},
		{`{"city":"Paris","days":1e1}`, ``},
		{`{"city":"Paris","unit":"kelvin"}`, `"unit" must be one of [celsius fahrenheit]`},
		{`{"city":"P"}`, `"city" must have at least 2 characters`},
		{`{}`, `"city" is required`},
		{`{"City":"Paris"}`, `unknown property "City"; property names are case-sensitive: did you mean "city"?; "city" is required`},
		{`{"city":"Paris","x":1}`, `unknown property "x"; allowed: city, days, unit`},
		{`[1]`, `arguments must be a JSON object, got an array`},
		{`42`, `arguments must be a JSON object, got a number`},
		{``, `arguments are empty`},
		{`hello`, `arguments are not valid JSON (send one JSON object)`},
		{`{"city":"Pa`, `arguments are not valid JSON: unexpected end of input (truncated?)`},
		{`{"city":"Paris"} x`, `arguments have data after the JSON object at byte 17 (send exactly one JSON object)`},
		{`{"city" "Paris"}`, `arguments are not valid JSON: expected ':' after a property name at byte 8`},
		{`{"city":"Paris",}`, `arguments are not valid JSON: expected a property name at byte 16`},
		{`{"city":"Paris","days":015}`, `arguments are not valid JSON: expected ',' or '}' after a property value at byte 24`},
		{`{"city":"Paris","days":15,"unit":"k","extra":true}`, `"days" must be at most 14; "unit" must be one of [celsius fahrenheit]; unknown property "extra"; allowed: city, days, unit`},
	}
	for _, tc := range tests {
		var msgs []string
		for _, p := range problems(t, v, tc.in) {
			msgs = append(msgs, p.Message)
		}
		if got := strings.Join(msgs, "; "); got != tc.want {
			t.Errorf("Validate(%s)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestProblemFields(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{"stops":{"type":"array","items":{"type":"object",
		"properties":{"city":{"type":"string"}},"required":["city"]}}}}`, nil)
	ps := problems(t, v, `{"stops":[{"city":"a"},{"city":"b"},{"town":"c"},{"city":7}]}`)
	want := []Problem{
		{Path: "stops[2].city", Keyword: "required", Param: "city", Message: `"stops[2].city" is required`},
		{Path: "stops[3].city", Keyword: "type", Param: "string", Message: `"stops[3].city" must be a string, got a number`},
	}
	if len(ps) != len(want) {
		t.Fatalf("got %+v", ps)
	}
	for i := range want {
		if ps[i] != want[i] {
			t.Errorf("problem %d = %+v, want %+v", i, ps[i], want[i])
		}
	}
	v = mustCompile(t, weather, nil)
	ps = problems(t, v, `{"city":"Paris","days":15,"unit":"x"}`)
	if ps[0].Keyword != "maximum" || ps[0].Param != "14" || ps[1].Keyword != "enum" || ps[1].Param != "celsius fahrenheit" {
		t.Errorf("got %+v", ps)
	}
}

func TestNewKeywordMessages(t *testing.T) {
	tests := []struct{ schema, in, want string }{
		{`{"const":"x"}`, `"y"`, `arguments must be "x"`},
		{`{"properties":{"a":{"const":{"k":[1,2]}}}}`, `{"a":{"k":[1,2.0]}}`, ``},
		{`{"uniqueItems":true}`, `[1,2,{"a":1,"b":2},1.0]`, `arguments must not contain duplicates (items 0 and 3 are equal)`},
		{`{"uniqueItems":true}`, `[{"a":1,"b":2},{"b":2,"a":1}]`, `arguments must not contain duplicates (items 0 and 1 are equal)`},
		{`{"uniqueItems":true}`, `[1,"1",true,null,[1],{"1":1}]`, ``},
		{`{"contains":{"type":"integer"}}`, `["a"]`, `arguments must contain at least 1 item matching the schema in "contains", has 0`},
		{`{"contains":{"type":"integer"},"maxContains":1}`, `[1,2]`, `arguments must contain at most 1 item matching the schema in "contains", has 2`},
		{`{"oneOf":[{"type":"integer"},{"minimum":2}]}`, `3`, `arguments must match exactly one of 2 alternatives (oneOf), matches alternatives 1 and 2`},
		{`{"anyOf":[{"type":"integer"},{"type":"null"}]}`, `"a"`, `arguments must match at least one of 2 alternatives (anyOf), matches none`},
		{`{"not":{"type":"string"}}`, `"a"`, `arguments must not match the schema in "not"`},
		{`{"if":{"minimum":10},"then":{"multipleOf":5},"else":{"maximum":3}}`, `12`, `arguments must be a multiple of 5`},
		{`{"if":{"minimum":10},"then":{"multipleOf":5},"else":{"maximum":3}}`, `4`, `arguments must be at most 3`},
		{`{"properties":{"code":{"pattern":"^[A-Z]{3}$"}}}`, `{"code":"abc"}`, `"code" must match the pattern ^[A-Z]{3}$`},
		{`{"properties":{"a":false}}`, `{"a":1}`, `"a" is not allowed`},
		{`{"prefixItems":[{"type":"string"}],"items":false}`, `["a",1,2]`, `arguments must have at most 1 item`},
		{`{"minItems":2,"maxItems":2}`, `[1]`, `arguments must have exactly 2 items`},
		{`{"minProperties":1}`, `{}`, `arguments must have at least 1 property`},
		{`{"dependentRequired":{"a":["b"]}}`, `{"a":1}`, `"b" is required when "a" is present`},
		{`{"propertyNames":{"maxLength":2}}`, `{"abc":1}`, `property name "abc" is not allowed by the schema in "propertyNames"`},
		{`{"type":["string","null"]}`, `1`, `arguments must be a string or null, got a number`},
		{`{"type":"string","nullable":true,"enum":["a"]}`, `null`, ``},
		{`{"type":"string","nullable":true}`, `1`, `arguments must be a string or null, got a number`},
		{`{"exclusiveMaximum":1}`, `1`, `arguments must be less than 1`},
		{`{"exclusiveMinimum":1}`, `1.0`, `arguments must be greater than 1`},
		{`{"maxLength":2}`, `"\u00e9\u00e9"`, ``},
		{`{"maxLength":1}`, `"\ud83d\ude00"`, ``},
		{`{"maxLength":1}`, `"😀😀"`, `arguments must have at most 1 character`},
	}
	for _, tc := range tests {
		v := mustCompile(t, tc.schema, nil)
		var msgs []string
		for _, p := range problems(t, v, tc.in) {
			msgs = append(msgs, p.Message)
		}
		if got := strings.Join(msgs, "; "); got != tc.want {
			t.Errorf("%s on %s\n got %q\nwant %q", tc.schema, tc.in, got, tc.want)
		}
	}
}

func TestNumbersExact(t *testing.T) {
	tests := []struct {
		schema, in string
		valid      bool
	}{
		{`{"maximum":9007199254740993}`, `9007199254740993`, true},
		{`{"maximum":9007199254740992}`, `9007199254740993`, false},
		{`{"minimum":0.1}`, `0.1`, true},
		{`{"minimum":0.1}`, `0.09999999999999999999`, false},
		{`{"maximum":1e400}`, `1e401`, false},
		{`{"maximum":1e400}`, `9e399`, true},
		{`{"type":"integer"}`, `1e400`, true},
		{`{"type":"integer"}`, `1.0000000000000000000001`, false},
		{`{"type":"integer"}`, `-0.0`, true},
		{`{"multipleOf":0.01}`, `19.99`, true},
		{`{"multipleOf":0.01}`, `19.991`, false},
		{`{"multipleOf":3}`, `1e308`, false},
		{`{"multipleOf":5}`, `1e308`, true},
		{`{"multipleOf":0.0001}`, `123456789012345678901234567890.1234`, true},
		{`{"multipleOf":7}`, `123456789012345678901234567891`, false},
		{`{"const":1}`, `1.0`, true},
		{`{"enum":[100]}`, `1e2`, true},
	}
	for _, tc := range tests {
		v := mustCompile(t, tc.schema, nil)
		if err := v.Validate([]byte(tc.in)); (err == nil) != tc.valid {
			t.Errorf("%s on %s: valid=%v, got %v", tc.schema, tc.in, tc.valid, err)
		}
	}
}

func TestMessagesAreBounded(t *testing.T) {
	big := strings.Repeat("9", 512<<10)
	v := mustCompile(t, `{"properties":{"n":{"type":"integer","maximum":1},"s":{"format":"email"},"k":{"const":"`+strings.Repeat("x", 1000)+`"}},"additionalProperties":false}`, &Options{AssertFormat: true})
	err := v.Validate([]byte(`{"n":` + big + `.5,"s":"` + big + `","k":"y","` + big + `":1}`))
	if err == nil {
		t.Fatal("no error")
	}
	for _, p := range err.(*ValidationError).Problems {
		if len(p.Message) > 1000 {
			t.Errorf("%s message is %d bytes: %.100s", p.Keyword, len(p.Message), p.Message)
		}
	}
	if n := len(err.(*ValidationError).Problems); n != 4 {
		t.Errorf("got %d problems: %v", n, err)
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		schema string
		opts   *Options
		want   string
	}{
		{`{"properties":{"unit":{"pattern":"(?=x)"}}}`, nil, `schema /properties/unit: keyword "pattern": pattern "(?=x)" is not supported by Go's regexp (RE2)`},
		{`{"$ref":"#"}`, nil, `schema root: keyword "$ref": references loop back`},
		{`{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, nil, `references loop back`},
		{`{"$ref":"#/$defs/missing"}`, nil, `schema root: keyword "$ref": cannot resolve "#/$defs/missing"`},
		{`{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, nil, `only references within the document are supported`},
		{`{"$ref":"other.json"}`, &Options{Strict: true}, `only references within the document are supported`},
		{`{"type":"strin"}`, nil, `schema root: keyword "type": unknown type "strin"`},
		{`{"minLength":-1}`, nil, `must be a non-negative integer`},
		{`{"multipleOf":0}`, nil, `must be greater than 0`},
		{`{"properties":{"a":{"x-custom":1}}}`, &Options{Strict: true}, `schema /properties/a: keyword "x-custom": is not a known keyword`},
		{`{"unevaluatedProperties":false}`, &Options{Strict: true}, `keyword "unevaluatedProperties": is not enforced by the validator`},
		{`{"format":"int32"}`, &Options{Strict: true, AssertFormat: true}, `format "int32" is not checked by the validator`},
		{`{"properties":{"d":{"type":"integer","maximum":14,"default":20}}}`, &Options{Strict: true}, `schema /properties/d: keyword "default": default 20 does not match its own schema: arguments must be at most 14`},
		{`{"items":[{"type":"string"}]}`, nil, `use prefixItems for a tuple`},
		{`{"pattern":"` + strings.Repeat("a", 5000) + `"}`, nil, `pattern is longer than 4096 bytes`},
		{`{`, nil, `schema root: not valid JSON`},
		{`[]`, nil, `a schema must be an object or a boolean`},
	}
	for _, tc := range tests {
		_, err := Compile([]byte(tc.schema), tc.opts)
		var se *SchemaError
		if !errors.As(err, &se) {
			t.Errorf("Compile(%.60s) = %v, want a *SchemaError", tc.schema, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compile(%.60s)\n got %q\nwant it to contain %q", tc.schema, err, tc.want)
		}
	}
	// Non-strict: unknown keywords and annotations are fine.
	mustCompile(t, `{"x-custom":1,"title":"t","description":"d","examples":[1],"deprecated":true,"$comment":"c","properties":{"d":{"type":"integer","maximum":14,"default":20}}}`, nil)
	mustCompile(t, `{"title":"t","description":"d","default":{},"examples":[1],"deprecated":true,"readOnly":true,"writeOnly":false,"$comment":"c","$schema":"https://json-schema.org/draft/2020-12/schema","contentMediaType":"text/plain","contentEncoding":"base64"}`, &Options{Strict: true})
}

func TestOptions(t *testing.T) {
	v := mustCompile(t, `{"type":"object"}`, &Options{RejectDuplicateKeys: true})
	ps := problems(t, v, `{"a":1,"b":{"c":1,"c":2},"a":3}`)
	if len(ps) != 2 || ps[0].Message != `"b.c" is given more than once` || ps[1].Message != `"a" is given more than once` || ps[1].Keyword != "duplicateKey" {
		t.Errorf("duplicates: %+v", ps)
	}
	if ps := problems(t, mustCompile(t, `{}`, nil), `{"a":1,"a":2}`); ps != nil {
		t.Errorf("duplicates allowed by default, got %+v", ps)
	}

	v = mustCompile(t, `{"items":{"$ref":"#"}}`, &Options{MaxDepth: 5})
	if ps := problems(t, v, `[[[[[]]]]]`); ps != nil {
		t.Errorf("depth 5: %+v", ps)
	}
	ps = problems(t, v, `[[[[[[]]]]]]`)
	if len(ps) != 1 || ps[0].Keyword != "depth" || ps[0].Message != "arguments are nested more than 5 levels deep" {
		t.Errorf("depth 6: %+v", ps)
	}
	deep := strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20)
	if ps := problems(t, mustCompile(t, `{}`, nil), deep); len(ps) != 1 || ps[0].Keyword != "depth" {
		t.Errorf("1M levels: %+v", ps)
	}

	s := `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["b"],"minProperties":2}`
	v = mustCompile(t, s, &Options{NullAsAbsent: true})
	ps = problems(t, v, `{"a":null,"b":null}`)
	if len(ps) != 2 || ps[0].Message != `"b" must be a string, got null` || ps[1].Keyword != "minProperties" {
		t.Errorf("NullAsAbsent: %+v", ps)
	}
	if ps := problems(t, mustCompile(t, s, nil), `{"a":null,"b":"x"}`); len(ps) != 1 || ps[0].Message != `"a" must be a string, got null` {
		t.Errorf("without NullAsAbsent: %+v", ps)
	}
}

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

func TestNoAllocOnValid(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	v := mustCompile(t, weather, &Options{RejectDuplicateKeys: true, AssertFormat: true})
	in := []byte(`{"city":"Par\u00eds","days":3,"unit":"celsius"}`)
	if n := testing.AllocsPerRun(200, func() {
		if err := v.Validate(in); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Validate(valid) allocates %v times", n)
	}
	bv := mustCompile(t, bulkSchema, &Options{AssertFormat: true})
	bin := bulkInstance()
	if n := testing.AllocsPerRun(50, func() {
		if err := bv.Validate(bin); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Validate(bulk) allocates %v times", n)
	}
}

func TestConcurrent(t *testing.T) {
	v := mustCompile(t, weather, nil)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				if err := v.Validate([]byte(`{"city":"Paris","days":3}`)); err != nil {
					t.Error(err)
					return
				}
				ps := problems(t, v, `{"days":15}`)
				if len(ps) != 2 {
					t.Errorf("got %+v", ps)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestComplexityBudget(t *testing.T) {
	// Each level doubles the work: without a budget, 40 levels never end.
	v := mustCompile(t, `{"items":{"allOf":[{"$ref":"#"},{"$ref":"#"}]}}`, nil)
	in := strings.Repeat("[", 40) + strings.Repeat("]", 40)
	ps := problems(t, v, in)
	if len(ps) != 1 || ps[0].Keyword != "complexity" {
		t.Errorf("got %+v", ps)
	}
}
