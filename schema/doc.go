// Package schema is toolnexus's JSON Schema (draft 2020-12) engine.
// Compile a schema once, then Validate instances against it:
//
//	v, err := schema.Compile(raw, &schema.Options{AssertFormat: true})
//	...
//	if err := v.Validate(args); err != nil {
//		// err is a *ValidationError: every problem, with its path and text
//	}
//
// Validation scans the instance bytes once with the package's own lexer
// (no encoding/json, no map[string]any), allocates nothing on valid input,
// reports every problem (not just the first) with its instance path in the
// words the registry shows a model (`"days" must be at most 14`), and never
// panics on any schema or instance. A *Validator is immutable and safe for
// concurrent use.
//
// # Coverage
//
// Boolean schemas; type (also arrays of types; "integer" is any number with
// a zero fractional part, so 30.0 and 1e2 are integers); enum and const
// (JSON equality: 1 == 1.0, key order ignored); multipleOf, minimum,
// maximum, exclusiveMinimum, exclusiveMaximum; minLength and maxLength in
// code points; pattern; format (see below); items, prefixItems, minItems,
// maxItems, uniqueItems, contains, minContains, maxContains; properties,
// required, additionalProperties, patternProperties, propertyNames,
// minProperties, maxProperties, dependentRequired, dependentSchemas,
// unevaluatedProperties, unevaluatedItems; allOf, anyOf, oneOf, not,
// if/then/else; $ref, $defs, $anchor, $id, $dynamicRef and $dynamicAnchor
// within the document, with relative resolution, recursion and the dynamic
// scope; OpenAPI's
// "nullable": true. Annotations (title, description, default, examples,
// deprecated, readOnly, writeOnly, $comment, $schema, content*) are
// accepted and ignored.
//
// Numbers are compared exactly, in decimal, whatever their size or
// precision (1e400, 0.1, 9007199254740993): nothing goes through float64.
//
// With Options.AssertFormat, format is asserted for date-time, date, time,
// duration (RFC 3339), email, hostname (with IDNA A-labels), ipv4, ipv6, uri
// (RFC 3986, absolute) and uuid; other formats stay annotations.
//
// # Deviations from the specification
//
//   - pattern and patternProperties use Go's regexp (RE2). What RE2 cannot
//     compile (lookaround, backreferences) is a *SchemaError, never
//     ignored. \d and \w are ASCII, as in ECMA-262; \s is ASCII only.
//   - $ref to a document other than the one compiled (including the
//     metaschema URL) is a *SchemaError: there is no loader.
//   - With "nullable": true, null is valid whatever type, enum and const
//     say.
//   - A $ref loop that never reaches into the instance (such as
//     {"$ref":"#"}) is a *SchemaError at Compile.
//
// # Limits
//
// Instances nested deeper than Options.MaxDepth (default 10000) get one
// "depth" problem; recursion never overflows the stack. A schema whose
// evaluation needs more than about 2^20 + 64 steps per instance byte (only
// pathological ones: each nesting level doubling the work) gets one
// "complexity" problem. At most MaxProblems problems are reported. Every
// value quoted in a message is cut to 64 bytes plus "…". Schemas are
// limited to 8 MiB, patterns to 4096 bytes and 5000 RE2 instructions, and
// one match to 2^25 (input bytes × instructions): a longer string gets a
// "complexity" problem instead of a match that could take seconds.
// multipleOf is exact and linear in the instance's digits; a multipleOf of
// more than 19 significant digits (m of them) is checked against at most
// (2^30 - 64m²)/m digits, a longer number gets a "complexity" problem.
//
// # Options
//
// A nil *Options means the specification's defaults. Strict refuses at
// Compile every keyword the engine does not enforce or know (and, with
// AssertFormat, every format it does not check), and a default that is not
// valid against its own schema; RejectDuplicateKeys makes a repeated key a
// problem; MaxDepth bounds nesting; NullAsAbsent treats an explicit null
// for an optional property as absent (OpenAI strict mode sends null for
// "absent"). ApplyDefaults inserts defaults for absent properties.
package schema
