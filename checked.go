package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolnexus/toolnexus/internal/argtype"
	jschema "github.com/toolnexus/toolnexus/schema"
)

// rawOptions compile the schema of a raw or upstream tool for local
// checking: as for typed tools, but keywords the engine does not enforce
// are skipped (and reported by CheckArguments) rather than refused.
var rawOptions = &jschema.Options{AssertFormat: true, RejectDuplicateKeys: true, NullAsAbsent: true, MaxDepth: argtype.MaxDepth}

// CheckArguments returns a Handler that checks the arguments of the raw
// tool name against schema, with the same engine and the same messages as
// typed tools, before h runs. Raw tools added with [Registry.Add] are not
// checked unless their Handler is wrapped this way (opt-in); tools loaded
// from MCP servers (package mcp) are wrapped by default, so the model gets
// every problem in one message without a round trip to the server.
//
// The wrapped handler refuses, as an error result listing every problem
// (Result.Err an *ArgumentError or several joined), arguments the schema
// refuses: JSON types, required and unknown properties, enum, const,
// bounds, lengths, patterns, formats (date-time, date, time, duration,
// email, hostname, ipv4, ipv6, uri, uuid), combinators, $ref, and a key
// given twice. null for an optional property counts as absent, as it does
// for typed tools (OpenAI strict mode sends it), and is passed on
// unchanged. Valid arguments reach h byte for byte; defaults are not
// inserted.
//
// A schema is never refused: keywords the engine does not enforce are left
// to h, and unchecked says which (the first one found, as
// `schema /path: keyword "k": ...`); a schema the engine cannot compile at
// all (for example a pattern RE2 cannot run) leaves every check to h:
// checked is h itself and unchecked says why. unchecked is "" when the
// whole schema is enforced locally. A nil schema means {"type":"object"}.
func CheckArguments(name string, schema json.RawMessage, h Handler) (checked Handler, unchecked string) {
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	v, err := jschema.Compile(schema, rawOptions)
	if err != nil {
		return h, "arguments are not checked locally: " + err.Error()
	}
	if _, err := jschema.Compile(schema, &jschema.Options{AssertFormat: true, Strict: true}); err != nil {
		var se *jschema.SchemaError
		if errors.As(err, &se) {
			unchecked = "not checked locally: " + se.Error()
		} else {
			unchecked = "not checked locally: " + err.Error()
		}
	}
	return &checkedHandler{name: name, check: v, next: h}, unchecked
}

type checkedHandler struct {
	name  string
	check *jschema.Validator
	next  Handler
}

// Call implements Handler.
func (c *checkedHandler) Call(ctx context.Context, args json.RawMessage) Result {
	if err := c.check.Validate(normalizeArgs(args)); err != nil {
		ps, _ := engineProblems(err, args)
		return problemsResult(c.name, ps)
	}
	if c.next == nil {
		return Result{Output: fmt.Sprintf("tool %q has no handler", c.name), IsError: true,
			Err: fmt.Errorf("tool %q has no handler", c.name)}
	}
	return c.next.Call(ctx, args)
}
