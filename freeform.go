package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Format is the input format of a freeform tool, rendered as the OpenAI
// custom tool's "format": {"type":"text"}, or {"type":"grammar",
// "syntax":"lark"|"regex","definition":…}. The grammar is enforced by the
// provider while the model writes; it is not checked again locally.
type Format struct {
	// Type is "text" (any text; also what "" means) or "grammar".
	Type string
	// Syntax is "lark" or "regex"; only with Type "grammar".
	Syntax string
	// Definition is the grammar in Syntax, not empty; only with Type
	// "grammar".
	Definition string
}

// FreeformSchema is the InputSchema of every freeform tool: the raw text
// the model wrote, as the one string property "input".
var FreeformSchema = json.RawMessage(`{"type":"object","properties":{"input":{"type":"string"}},"required":["input"],"additionalProperties":false}`)

// FreeformFunc is the function behind a freeform tool: it gets the raw
// text the model wrote and returns the output for the model; a non-nil
// error is an error result whose Output is err.Error().
type FreeformFunc func(ctx context.Context, input string) (string, error)

// NewFreeform returns a freeform tool (Source "native") that runs fn on
// the raw text the model writes in format. The errors name the rule
// broken: a Type other than "", "text" or "grammar"; a grammar whose
// Syntax is not "lark" or "regex" or whose Definition is empty; Syntax or
// Definition set for a text format; a nil fn. The name is checked when the
// tool is added to a Registry.
func NewFreeform(name, description string, format Format, fn FreeformFunc) (Tool, error) {
	if err := format.check(); err != nil {
		return Tool{}, fmt.Errorf("toolnexus: freeform tool %q: %w", name, err)
	}
	if fn == nil {
		return Tool{}, fmt.Errorf("toolnexus: freeform tool %q: nil function", name)
	}
	if format.Type == "" {
		format.Type = "text"
	}
	return Tool{Name: name, Description: description, InputSchema: FreeformSchema, Freeform: &format,
		Source: "native", Handler: freeformHandler(fn)}, nil
}

func (f Format) check() error {
	switch f.Type {
	case "", "text":
		if f.Syntax != "" || f.Definition != "" {
			return errors.New(`format: syntax and definition are only for type "grammar"`)
		}
	case "grammar":
		if f.Syntax != "lark" && f.Syntax != "regex" {
			return fmt.Errorf(`format.syntax: must be "lark" or "regex", got %q`, f.Syntax)
		}
		if f.Definition == "" {
			return errors.New("format.definition: must not be empty for a grammar")
		}
	default:
		return fmt.Errorf(`format.type: must be "text" or "grammar", got %q`, f.Type)
	}
	return nil
}

type freeformHandler FreeformFunc

// Call implements Handler: args must be {"input":"<text>"}.
func (h freeformHandler) Call(ctx context.Context, args json.RawMessage) Result {
	var in struct {
		Input *string `json:"input"`
	}
	if err := json.Unmarshal(args, &in); err != nil || in.Input == nil {
		err := errors.New(`arguments: "input" must be a string (the freeform text)`)
		return ErrorResult(err)
	}
	out, err := h(ctx, *in.Input)
	if err != nil {
		return ErrorResult(err)
	}
	return Result{Output: out}
}
