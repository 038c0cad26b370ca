package toolnexus

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestNewFreeformFormats(t *testing.T) {
	echo := func(_ context.Context, s string) (string, error) { return "got " + s, nil }
	bad := []struct {
		f    Format
		want string
	}{
		{Format{Type: "json"}, `format.type: must be "text" or "grammar", got "json"`},
		{Format{Type: "grammar", Syntax: "ebnf", Definition: "x"}, `format.syntax: must be "lark" or "regex", got "ebnf"`},
		{Format{Type: "grammar", Syntax: "regex"}, "format.definition: must not be empty"},
		{Format{Type: "text", Syntax: "regex"}, `only for type "grammar"`},
	}
	for _, c := range bad {
		_, err := NewFreeform("f", "", c.f, echo)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want %q", c.f, err, c.want)
		}
	}
	tool, err := NewFreeform("f", "d", Format{}, echo)
	if err != nil {
		t.Fatal(err)
	}
	if tool.Freeform == nil || tool.Freeform.Type != "text" {
		t.Fatalf("Freeform = %+v, want type text", tool.Freeform)
	}
	r := NewRegistry()
	if err := r.Add(tool); err != nil {
		t.Fatal(err)
	}
	res := r.Execute(context.Background(), "f", json.RawMessage(`{"input":"a\nb"}`))
	if res.IsError || res.Output != "got a\nb" {
		t.Fatalf("result %+v", res)
	}
	res = r.Execute(context.Background(), "f", json.RawMessage(`{"input":5}`))
	if !res.IsError || !strings.Contains(res.Output, `"input"`) {
		t.Fatalf("wrong type: %+v", res)
	}
}
