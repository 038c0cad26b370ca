// Package schema is toolnexus's JSON Schema (draft 2020-12) engine: Compile
// a schema once, then Validate instances against it. Validation scans the
// instance bytes once with its own lexer, allocates nothing on valid
// input, reports every problem with its instance path in the registry's
// words, never panics, and a *Validator is safe for concurrent use.
package schema
