package toolnexus

import (
	"errors"
	"fmt"
	"strings"
)

// Registration errors. Test for them with errors.Is.
var (
	// ErrInvalidName reports a tool name outside ^[a-zA-Z0-9_-]{1,64}$.
	ErrInvalidName = errors.New("toolnexus: invalid tool name")
	// ErrDuplicateTool reports a second tool with a name already taken.
	ErrDuplicateTool = errors.New("toolnexus: duplicate tool")
	// ErrInvalidSchema reports a raw tool whose InputSchema is not a JSON
	// object schema, or an argument type that cannot be reflected.
	ErrInvalidSchema = errors.New("toolnexus: invalid input schema")

	// ErrUnknownTool is the Result.Err of a call to a tool that is not
	// registered.
	ErrUnknownTool = errors.New("toolnexus: unknown tool")
	// ErrInvalidArguments is wrapped by every *ArgumentError, so
	// errors.Is(res.Err, ErrInvalidArguments) tells bad arguments apart
	// from handler failures.
	ErrInvalidArguments = errors.New("toolnexus: invalid arguments")
)

// ArgumentError describes one problem with the arguments a model sent.
// Several problems in one call are joined with errors.Join in Result.Err;
// the model gets all of them in one message.
type ArgumentError struct {
	Tool  string // tool name
	Path  string // JSON path of the offending value, e.g. "days" or "stops[2].city"; "" for the whole arguments
	Rule  string // the rule broken: "required", "type", "unknown", "oneof", "max", "syntax", ...
	Param string // the rule's parameter, e.g. "celsius fahrenheit" for oneof, "14" for max
	Msg   string // model-facing text, e.g. `"days" must be at most 14`
}

// Error returns the model-facing text of the problem.
func (e *ArgumentError) Error() string { return e.Msg }

// Is reports ErrInvalidArguments.
func (e *ArgumentError) Is(target error) bool { return target == ErrInvalidArguments }

// PanicError is the Result.Err of a handler that panicked. The model sees
// only a short message; the value and the stack are for the Go caller.
type PanicError struct {
	Tool  string // tool name
	Value any    // the value passed to panic
	Stack []byte // the goroutine stack at the panic (runtime/debug.Stack)
}

// Error describes the panic without the stack.
func (e *PanicError) Error() string {
	return fmt.Sprintf("tool %q panicked: %v", e.Tool, e.Value)
}

// argumentsMessage formats problems as one model-facing message.
func argumentsMessage(tool string, errs []*ArgumentError) string {
	var b strings.Builder
	b.WriteString("invalid arguments for ")
	b.WriteString(fmt.Sprintf("%q: ", tool))
	for i, e := range errs {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.Msg)
	}
	return b.String()
}

func argumentsResult(tool string, errs []*ArgumentError) Result {
	var err error
	if len(errs) == 1 {
		err = errs[0]
	} else {
		joined := make([]error, len(errs))
		for i, e := range errs {
			joined[i] = e
		}
		err = errors.Join(joined...)
	}
	return Result{Output: argumentsMessage(tool, errs), IsError: true, Err: err}
}

// wrapError is an error with its own text that still matches a sentinel
// with errors.Is.
type wrapError struct {
	msg    string
	target error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.target }
