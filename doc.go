// Package toolnexus is a typed, reflection-driven tool registry for LLM
// applications.
//
// A tool is a name, a description, an input schema (a JSON Schema object)
// and a handler. Write a plain function over an argument struct, register
// it, and toolnexus reflects the schema, checks and validates every call's
// arguments before the function runs, and turns every failure into a
// [Result] the model can read.
//
// # Registering tools
//
//	type WeatherArgs struct {
//		City string `json:"city" jsonschema:"description=City name" validate:"required"`
//		Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
//		Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=14"`
//	}
//
//	reg := toolnexus.NewRegistry()
//	err := toolnexus.Register(reg, "get_weather", "Current weather for a city.",
//		func(ctx context.Context, a WeatherArgs) (string, error) { ... })
//
// Registration fails with a Go error, never a later panic: an invalid name
// ([ErrInvalidName]), a taken name ([ErrDuplicateTool]), a description over
// 1024 characters, or an argument type that cannot be a JSON object schema
// ([ErrInvalidSchema]: not a struct, a chan/func/complex field, a jsonschema
// tag written as prose). Raw tools with a hand-written schema go through
// [Registry.Add].
//
// # Schemas and tags
//
// WeatherArgs above reflects to
//
//	{"type":"object","properties":{
//	  "city":{"type":"string","description":"City name"},
//	  "unit":{"type":"string","enum":["celsius","fahrenheit"]},
//	  "days":{"type":"integer","maximum":14,"minimum":1}},
//	 "required":["city"],"additionalProperties":false}
//
// Tags: json (names; omitempty/omitzero make a property optional),
// invopop/jsonschema's jsonschema and jsonschema_description, and
// go-playground/validator's validate, whose rules also become schema
// keywords (oneof → enum, min/max/len → bounds, email/url/uuid → format) so
// the model sees the rules it is held to. A property is required unless its
// json tag has omitempty or omitzero; the schema and Execute agree on it.
// Recursive types use $defs/$ref. Schemas are computed once per type.
//
// # Executing tool calls
//
// [Registry.Execute] runs one call and always returns a Result. Arguments
// "", whitespace and null mean {}; otherwise they must be one JSON object.
// Keys match exactly (a key differing only in case is refused with a
// did-you-mean), unknown keys are refused, every missing required property
// is named, JSON types are checked with their paths, null is accepted for
// optional properties (as absent), and the schema's keywords (enum, bounds,
// lengths, pattern, item counts, the common formats) are enforced — also
// those that come only from a jsonschema tag — in one allocation-free pass
// over the bytes. The validator then runs only for rules that pass does not
// mirror exactly (formats, cross-field rules, ...). All problems come back
// in one message such as
//
//	invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]; "days" must be at most 14
//
// # Rich results
//
// Besides Output, a Result may carry content parts (Result.Content: text,
// images, audio, files, resource links, embedded resources; see [Part] and
// its helpers such as [ImagePart]) and a structured value
// (Result.Structured). [NewOutputTool] and [RegisterOutput] make tools
// whose function returns a typed value: its schema is Tool.OutputSchema
// and each value is checked against it before it leaves. A running handler
// reports progress and log lines with [ReportProgress] and [Log]; the
// caller receives them through [WithEvents] (the MCP server and exec do).
//
// # Errors
//
// Result.Output is for the model; Result.Err is for the Go caller: an
// *[ArgumentError] (several joined with errors.Join; all match
// [ErrInvalidArguments]), a *[PanicError] with the stack, [ErrUnknownTool],
// context.DeadlineExceeded for timeouts, or the handler's own error.
//
// # Rendering
//
// Package render turns Registry.Tools() into provider JSON: render.OpenAI
// gives the Chat Completions "tools" array. Package exec turns a model's
// tool calls into the provider's tool-result messages.
package toolnexus
