package rendertest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/toolnexus/toolnexus"
)

// Case is one tool of the shared case list. Name is also the golden file
// name (testdata/golden/<provider>/<Name>.json).
type Case struct {
	Name string         // the case's name, also its golden file's
	Tool toolnexus.Tool // the tool to render
}

type weatherArgs struct {
	City string `json:"city" jsonschema:"description=City name\\, e.g. Paris"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
	Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=7" jsonschema:"description=Forecast days"`
}

type address struct {
	Street string `json:"street"`
	Zip    string `json:"zip,omitempty" validate:"omitempty,len=5"`
	Note   string `json:"note,omitempty"`
}

type shipArgs struct {
	From address `json:"from" jsonschema:"description=Sender"`
	To   address `json:"to" jsonschema:"description=Recipient"`
}

type lineItem struct {
	SKU  string `json:"sku"`
	Qty  int    `json:"qty" jsonschema:"minimum=1"`
	Gift bool   `json:"gift,omitempty"`
}

type orderArgs struct {
	Items []lineItem `json:"items" validate:"min=1"`
	Notes []string   `json:"notes,omitempty"`
}

type pointerArgs struct {
	Name *string  `json:"name"`
	Age  *int     `json:"age,omitempty"`
	Nick *string  `json:"nick,omitempty"`
	Tags []string `json:"tags,omitempty"`
}

type enumArgs struct {
	Level    int     `json:"level" validate:"oneof=1 2 3" jsonschema:"description=Verbosity level"`
	Mode     string  `json:"mode" validate:"oneof=fast slow"`
	Priority *int    `json:"priority,omitempty" jsonschema:"enum=10,enum=20"`
	Ratio    float64 `json:"ratio,omitempty" jsonschema:"enum=0.5,enum=1.5"`
}

type mapArgs struct {
	Labels map[string]string `json:"labels"`
	Meta   any               `json:"meta,omitempty"`
}

type timeArgs struct {
	At    time.Time  `json:"at"`
	Until *time.Time `json:"until,omitempty"`
}

type node struct {
	Name string `json:"name"`
	Kids []node `json:"kids,omitempty"`
}

type keywordArgs struct {
	Pattern     string   `json:"pattern" validate:"min=1"`
	Format      string   `json:"format,omitempty"`
	Default     string   `json:"default,omitempty"`
	Type        string   `json:"type,omitempty"`
	Items       []string `json:"items,omitempty"`
	Properties  string   `json:"properties,omitempty"`
	Required    bool     `json:"required,omitempty"`
	Enum        string   `json:"enum,omitempty"`
	Description string   `json:"description,omitempty"`
}

// RawSchema is the hand-written schema of the "raw" case: JSON Schema
// features a reflected schema never has ($schema, const, a type array, a
// nullable enum, oneOf, format email, exclusiveMinimum, multipleOf,
// uniqueItems, default).
const RawSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{` +
	`"query":{"type":"string","minLength":1,"description":"Search text"},` +
	`"limit":{"type":"integer","minimum":1,"maximum":50,"default":10},` +
	`"lang":{"type":["string","null"],"enum":["en","de",null]},` +
	`"kind":{"const":"web"},` +
	`"email":{"type":"string","format":"email"},` +
	`"score":{"type":"number","exclusiveMinimum":0,"multipleOf":0.5},` +
	`"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true},` +
	`"id":{"oneOf":[{"type":"string"},{"type":"integer"}]}` +
	`},"required":["query"],"additionalProperties":false}`

func echo[A any](_ context.Context, a A) (string, error) {
	b, err := json.Marshal(a)
	return string(b), err
}

func must(t toolnexus.Tool, err error) toolnexus.Tool {
	if err != nil {
		panic(fmt.Sprintf("rendertest: building case tool: %v", err))
	}
	return t
}

// Cases returns the shared case list, a fresh copy each call (tools and
// schema bytes are new values the caller may keep). Every renderer must
// render every case; golden files exist per provider per case:
//
//	weather           flat object: description, optional string enum, bounds; Title and Annotations set
//	no_args           struct{} arguments, empty description ""
//	nil_schema        raw tool with a nil InputSchema
//	nested_twice      one struct type used by two properties
//	slice_of_structs  array of objects with minItems
//	nullable          pointer fields, required and optional
//	enums             string, integer and number enums
//	map_field         map[string]string and an any field
//	time              time.Time and *time.Time
//	recursive         a tree type ($defs/$ref)
//	raw               a hand-written schema (RawSchema)
//	pattern_property  properties NAMED pattern, format, default, type, items, properties, required, enum, description
func Cases() []Case {
	weather := must(toolnexus.NewTool("get_weather", "Get the current weather for a city", echo[weatherArgs]))
	weather.Title = "Weather"
	yes := true
	weather.Annotations = &toolnexus.Annotations{ReadOnlyHint: true, OpenWorldHint: &yes}
	ok := toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "ok", nil })
	return []Case{
		{"weather", weather},
		{"no_args", must(toolnexus.NewTool("get_time", "", echo[struct{}]))},
		{"nil_schema", toolnexus.Tool{Name: "ping", Description: "Ping the server", Source: "native", Handler: ok}},
		{"nested_twice", must(toolnexus.NewTool("ship", "Ship a parcel", echo[shipArgs]))},
		{"slice_of_structs", must(toolnexus.NewTool("place_order", "Place an order", echo[orderArgs]))},
		{"nullable", must(toolnexus.NewTool("update_person", "Update a person", echo[pointerArgs]))},
		{"enums", must(toolnexus.NewTool("set_mode", "Set the mode", echo[enumArgs]))},
		{"map_field", must(toolnexus.NewTool("tag", "Attach labels", echo[mapArgs]))},
		{"time", must(toolnexus.NewTool("schedule", "Schedule a job", echo[timeArgs]))},
		{"recursive", must(toolnexus.NewTool("make_tree", "Build a tree", echo[node]))},
		{"raw", toolnexus.Tool{Name: "search", Description: "Search the web <fast> & \"safe\"",
			InputSchema: json.RawMessage(RawSchema), Source: "native", Handler: ok}},
		{"pattern_property", must(toolnexus.NewTool("make_schema", "Describe a schema field", echo[keywordArgs]))},
	}
}

// Tools returns the tools of [Cases], in case order.
func Tools() []toolnexus.Tool {
	cs := Cases()
	out := make([]toolnexus.Tool, len(cs))
	for i, c := range cs {
		out[i] = c.Tool
	}
	return out
}
