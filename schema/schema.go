package schema

import (
	"strings"
)

// Options configure Compile. A nil *Options means the zero value: the
// specification's defaults (format is only an annotation, unknown keywords
// are ignored, duplicate keys are allowed, nesting is limited to
// DefaultMaxDepth levels).
type Options struct {
	// AssertFormat makes "format" an assertion for the formats listed in the
	// package doc (date-time, date, time, duration, email, hostname, ipv4,
	// ipv6, uri, uuid). Other format values stay annotations.
	AssertFormat bool

	// Strict makes Compile refuse, with a *SchemaError, every keyword the
	// engine does not enforce or does not know ($dynamicRef, draft-07
	// "dependencies", x-... extensions), instead of ignoring it; with
	// AssertFormat, also a format value it does not check; and a
	// "default" that its own schema rejects (the model would be shown a
	// value Validate refuses). Annotations (title, description, default,
	// examples, deprecated, readOnly, writeOnly, $comment, $schema,
	// contentEncoding, contentMediaType, contentSchema) are always
	// allowed.
	Strict bool

	// RejectDuplicateKeys makes an object that repeats a key a Problem
	// (Keyword "duplicateKey"), at any depth of the instance.
	RejectDuplicateKeys bool

	// MaxDepth limits the nesting of objects and arrays in an instance; a
	// deeper instance gives one Problem with Keyword "depth" and nothing is
	// validated past it. Zero means DefaultMaxDepth.
	MaxDepth int

	// NullAsAbsent makes an explicit null in place of an optional property
	// count as absent: it is not validated, not counted by
	// minProperties/maxProperties and does not trigger
	// dependentRequired/dependentSchemas. ApplyDefaults then replaces it
	// with the property's default. (OpenAI strict mode sends null for an
	// absent optional property.) The subschemas applied to one object
	// ($ref, allOf, anyOf, oneOf, not, if/then/else, dependentSchemas) all
	// judge the same object: the null counts as absent only when one of
	// them lists the property in "properties" and not in "required", and
	// each other one that could look at the property lists it the same way.
	// One that requires it (required, a dependentRequired target), forbids
	// it (properties: false) or sees it otherwise (additionalProperties,
	// patternProperties, propertyNames, minProperties/maxProperties,
	// unevaluatedProperties, a dependentRequired or dependentSchemas key)
	// makes the null an ordinary value, validated as such by all of them.
	NullAsAbsent bool
}

// DefaultMaxDepth is the instance nesting limit when Options.MaxDepth is 0.
const DefaultMaxDepth = 10000

// Problem is one reason an instance is invalid.
type Problem struct {
	// Path is the instance location in the registry's style: "" for the
	// root, "days", "stops[2].city". For a missing required property it
	// names the missing property.
	Path string
	// Keyword is the JSON Schema keyword that failed ("type", "required",
	// "enum", "maximum", ...), or "syntax" for malformed JSON,
	// "additionalProperties" for an unknown key, "duplicateKey" for a
	// repeated key, "false" for a value where the schema is false (e.g.
	// properties {"a": false}), "depth" for nesting beyond MaxDepth, and
	// "complexity" when a schema needs more evaluation steps than the
	// instance size allows (reported alone), a string is too long to
	// match against a large pattern or a number too long to check against
	// a multipleOf of more than 19 digits (see the package doc's Limits).
	Keyword string
	// Param is the keyword's value as short text: "14" for maximum,
	// "celsius fahrenheit" for enum, the property name for required.
	Param string
	// Message is the model-facing text, e.g. `"days" must be at most 14`.
	// Every value it quotes is cut to at most 64 bytes plus "…".
	Message string
}

// ValidationError is the error Validate returns for an invalid instance.
// It holds every problem found, in instance order (at most MaxProblems;
// a syntax or depth problem is reported alone).
type ValidationError struct {
	// Problems are the problems found, never empty.
	Problems []Problem
}

// MaxProblems bounds the number of Problems in one ValidationError.
const MaxProblems = 100

// Error joins the problems' messages with "; ".
func (e *ValidationError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.Message)
	}
	return b.String()
}

// SchemaError is the error Compile returns for a schema it refuses.
type SchemaError struct {
	Path    string // JSON pointer into the schema, e.g. "/properties/unit/pattern"; "" for the root
	Keyword string // the keyword at fault, e.g. "pattern"; "" when the schema itself is malformed
	Msg     string // what is wrong
}

// Error formats the error as `schema /properties/unit: keyword "pattern": msg`.
func (e *SchemaError) Error() string {
	var b strings.Builder
	b.WriteString("schema ")
	if e.Path == "" {
		b.WriteString("root")
	} else {
		b.WriteString(e.Path)
	}
	if e.Keyword != "" {
		b.WriteString(": keyword ")
		b.WriteString(quote(e.Keyword))
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}
