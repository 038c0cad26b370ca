package einotool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/frameworks/einotool"
)

// rich uses keywords eino's jsonschema.Schema has fields for and keywords
// it has none for (kept in Extras), at the top and in subschemas.
const rich = `{"type":"object","title":"Order","x-owner":"billing",
 "properties":{
  "id":{"type":"string","pattern":"^o_[0-9]+$","x-example":"o_1"},
  "total":{"type":"number","minimum":0.5,"exclusiveMaximum":1e6,"multipleOf":0.01},
  "lines":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/line"}},
  "note":{"anyOf":[{"type":"string","maxLength":200},{"type":"null"}],"default":"none"},
  "tags":{"type":"array","items":{"enum":["a",1,true,null]},"uniqueItems":true},
  "meta":{"type":"object","unevaluatedProperties":false,"dependencies":{"a":["b"]}}},
 "required":["id","lines"],
 "additionalProperties":false,
 "$defs":{"line":{"type":"object","properties":{"sku":{"type":"string","format":"uuid"},"qty":{"type":"integer","minimum":1}},
   "required":["sku"],"additionalProperties":{"type":"string"},"x-deep":{"k":[1,2]}}}}`

func sameJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	g, w := decodeNumbers(t, got), decodeNumbers(t, want)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, got, want)
	}
}

func decodeNumbers(t *testing.T, data []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return v
}

func rawTool(name, inputSchema string) toolnexus.Tool {
	return toolnexus.Tool{
		Name:        name,
		Description: "A raw tool.",
		InputSchema: json.RawMessage(inputSchema),
		Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) {
			return "ok", nil
		}),
	}
}

// The schema the model gets (eino's chat models marshal ToJSONSchema of
// the ToolInfo bound with WithTools) is the registry's input schema.
func TestModelSeesRegistrySchema(t *testing.T) {
	reg := weatherRegistry(t)
	if err := reg.Add(rawTool("order", rich), rawTool("empty", `{"type":"object","properties":{"any":{}}}`)); err != nil {
		t.Fatal(err)
	}
	m := &scripted{replies: []*schema.Message{schema.AssistantMessage("hi", nil)}}
	drain(t, chatAgent(t, m, registryTools(t, reg, nil), nil).Query(context.Background(), "hi"))
	if len(m.tools) != 3 {
		t.Fatalf("model bound %d tools, want 3", len(m.tools))
	}
	for _, info := range m.tools {
		want, _ := reg.Get(info.Name)
		if info.Desc != want.Description {
			t.Errorf("%s: description %q, want %q", info.Name, info.Desc, want.Description)
		}
		js, err := info.ToJSONSchema()
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(js)
		if err != nil {
			t.Fatal(err)
		}
		if info.Name == "empty" {
			// eino's type writes the empty subschema {} as true.
			if string(got) != `{"properties":{"any":true},"type":"object"}` {
				t.Errorf("empty: model sees %s", got)
			}
			continue
		}
		sameJSON(t, info.Name, got, want.InputSchema)
	}
}

// A keyword whose value eino's schema type cannot hold as written fails
// Tools, naming the tool and the place; Options.Names leaves it out.
func TestToolsRefusesWhatEinoCannotCarry(t *testing.T) {
	for _, c := range []struct{ schema, err string }{
		{`{"type":"object","properties":{"x":{"const":null}}}`,
			`einotool: tool "bad": eino's jsonschema.Schema cannot carry the input schema at "/properties/x/const"`},
		{`{"type":"object","properties":{"x":{"type":"string","default":null}}}`,
			`einotool: tool "bad": eino's jsonschema.Schema cannot carry the input schema at "/properties/x/default"`},
		{`{"type":"object","properties":{"x":{"type":"array","items":[{"type":"string"}]}}}`,
			`einotool: tool "bad": eino's jsonschema.Schema cannot decode the input schema: json: cannot unmarshal array`},
		{`{"type":"object","properties":{"x":{"type":"integer","enum":[1e2]}}}`,
			`einotool: tool "bad": eino's jsonschema.Schema cannot carry the input schema at "/properties/x/enum/0"`},
		{`{"type":"object","properties":{"x":{"type":"number","minimum":0,"exclusiveMinimum":true}}}`,
			`einotool: tool "bad": eino's jsonschema.Schema cannot decode the input schema: json: cannot unmarshal bool`},
	} {
		reg := weatherRegistry(t)
		if err := reg.Add(rawTool("bad", c.schema)); err != nil {
			t.Fatal(err)
		}
		_, err := einotool.Tools(reg, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("Tools with %s: error %v, want %s", c.schema, err, c.err)
		}
		tools, err := einotool.Tools(reg, &einotool.Options{Names: []string{"get_weather"}})
		if err != nil || len(tools) != 1 {
			t.Errorf("Tools with Names: %d tools, error %v", len(tools), err)
		}
	}
	_, err := einotool.Tools(weatherRegistry(t), &einotool.Options{Names: []string{"nope"}})
	if err == nil || err.Error() != `einotool: the registry has no tool "nope"` {
		t.Errorf("unknown name: error %v", err)
	}
}
