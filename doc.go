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
// the runtime enforces ([ErrInvalidSchema]: not a struct, a chan/func/complex
// field, a jsonschema tag written as prose, a type that decodes JSON its own
// way without a JSONSchema method, time.Duration, url.URL, validate
// "required" on a bool or number, a keyword the schema engine cannot
// enforce). Raw tools with a hand-written schema go through [Registry.Add];
// [CheckArguments] opts them in to the same checking.
//
// # Schemas and tags
//
// WeatherArgs above reflects to
//
//	{"type":"object","properties":{
//	  "city":{"type":"string","description":"City name","minLength":1},
//	  "unit":{"type":"string","enum":["celsius","fahrenheit"]},
//	  "days":{"type":"integer","maximum":14,"minimum":1}},
//	 "required":["city"],"additionalProperties":false}
//
// Tags: json (names; omitempty/omitzero make a property optional),
// invopop/jsonschema's jsonschema, jsonschema_description and
// jsonschema_extras, and go-playground/validator's validate, whose rules
// also become schema keywords (oneof → enum, min/max/len → bounds,
// email/url/uuid → format, required on a string → minLength 1) so the model
// sees the rules it is held to. A property is required unless its json tag
// has omitempty or omitzero; the schema and Execute agree on it. Types with
// a JSONSchema method keep their schema; the standard types that decode
// themselves get the schema of the JSON they accept (time.Time, json.Number,
// netip.Addr, big.Int, ...). Recursive types use $defs/$ref. Schemas are
// computed once per type, and compiled once by package schema.
//
// # Executing tool calls
//
// [Registry.Execute] runs one call and always returns a Result. Arguments
// "", whitespace and null mean {}; otherwise they must be one JSON object.
// A typed tool then applies the schema's defaults (to absent or null
// optional properties), checks the arguments against its compiled schema
// (exact keys, unknown and repeated keys, required properties, JSON types
// with their paths, and every keyword shown), decodes them, and runs the
// validator for the rules the schema cannot say (cross-field, ...). All
// problems come back in one message such as
//
//	invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]; "days" must be at most 14
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
