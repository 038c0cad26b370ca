package toolnexus

import (
	"context"
	"encoding/json"
	"time"
)

// Tool is one tool a model can call: a name, a description, an input schema
// and the handler that runs it.
//
// A Tool is plain data. Once added to a [Registry] it must not be modified;
// the registry hands out copies, but InputSchema bytes are shared and must be
// treated as read-only by everyone.
type Tool struct {
	// Name is the name the model calls the tool by. It must match
	// ^[a-zA-Z0-9_-]{1,64}$, the rule every provider accepts (OpenAI
	// function.name, Anthropic tools[].name); it is checked when the tool is
	// added to a Registry.
	Name string

	// Title is an optional human-readable name (MCP "title"). Renderers for
	// providers that have no such field ignore it.
	Title string

	// Description tells the model what the tool does and when to use it. At
	// most 1024 characters (the OpenAI limit). "" is rendered as "", never null.
	Description string

	// InputSchema is the JSON Schema of the tool's arguments: a JSON object
	// whose "type" is "object". nil means {"type":"object"} (no arguments
	// declared). For typed tools it is reflected from the argument struct.
	InputSchema json.RawMessage

	// OutputSchema is the JSON Schema of the tool's structured result (MCP
	// "outputSchema"), or nil when the tool declares none. It is a JSON
	// object; its "type" is "object" for a struct result, and any other
	// for other results of [NewOutputTool] ("array" for a slice, ...). Tools made by [NewOutputTool] carry the
	// schema reflected from their output type, and every structured result
	// they return has been checked against it.
	OutputSchema json.RawMessage

	// Annotations are optional behaviour hints (MCP tool annotations). nil
	// means none.
	Annotations *Annotations

	// Source says where the tool comes from: "native" for typed and raw tools
	// added by the program, "skill", "builtin", "mcp", ... It is metadata
	// only and never sent to a model.
	Source string

	// Timeout limits one execution of this tool; zero means the registry's
	// default (Options.Timeout), and a negative value means no limit. On
	// expiry the Result is an error that says "timed out after <Timeout>".
	Timeout time.Duration

	// MaxConcurrent limits how many calls of this tool run at once across
	// every caller of the registry it is added to (Execute, package exec,
	// MCP serving); zero means no limit, and a negative value is refused
	// when the tool is added. A call over the limit waits for a running one
	// to end; its wait counts towards its timeout, and when its context or
	// timeout ends first its handler never starts and its result is an
	// error saying so ("... waiting to start: it runs at most N calls at
	// once"). A call that ends by its context while its handler is still
	// running holds its place until the handler returns. Replacing the tool
	// starts a new count.
	MaxConcurrent int

	// Admit, when not nil, decides whether a call may start, before its
	// arguments are checked and before it waits under MaxConcurrent: a
	// non-nil error ends the call with an error result whose Output is the
	// error's text, and the handler does not run. It must be safe for
	// concurrent use. Package ratelimit sets it.
	Admit func(ctx context.Context) error

	// NeedsApproval makes every call of the tool wait for an [Approver]
	// (Options.Approver, or one attached with [WithApprover]), asked after
	// the arguments are checked (typed tools: and decoded), before the
	// handler runs. Without an approver the call is a pending request of
	// kind [PendingKindApproval]; it never runs unapproved.
	NeedsApproval bool

	// Freeform, when not nil, makes this a freeform tool: the model writes
	// raw text in Freeform's format instead of JSON arguments (OpenAI
	// "custom" tools). The text reaches Handler as {"input":"<text>"} and
	// InputSchema says exactly that; see [NewFreeform].
	Freeform *Format

	// InputExamples are example arguments, each one compact JSON object,
	// rendered by render.Anthropic as "input_examples". A typed tool
	// ([NewTool] and the other typed constructors) takes them from a
	// method of its arguments type T with the signature
	//
	//	func (T) InputExamples() []T
	//
	// (a pointer receiver, or []*T, works too): each value is marshalled
	// with encoding/json and must pass the checks a call's arguments pass
	// (the compiled schema, then the validate rules); otherwise the
	// constructor fails with an error naming the tool, the example's index
	// (from 0) and the problem. nil when there are none. Set by hand on a
	// raw tool, they are rendered as given.
	InputExamples []json.RawMessage

	// Handler runs the tool. It receives arguments that are one JSON object
	// (never empty, never null: those are replaced by {}).
	Handler Handler
}

// Annotations are hints about a tool's behaviour, as defined by the MCP
// specification (ToolAnnotations, spec revision 2025-06-18,
// https://modelcontextprotocol.io/specification/2025-06-18/schema#toolannotations).
// They are hints, not guarantees; renderers for providers without
// annotations ignore them.
//
// Why two fields are *bool: the specification gives each hint a default
// for when it is absent, and for DestructiveHint and OpenWorldHint that
// default is true. A plain bool with omitempty could not say false (it
// would be left out, which a client reads as true), and without omitempty
// every tool would claim false. So for those two, nil means "not said"
// (the spec's default, true), and a pointer to false must be given to say
// false. ReadOnlyHint and IdempotentHint default to false, which their zero
// value already says.
type Annotations struct {
	// Title is a human-readable title for the tool, for display; "" means
	// none (clients show the name).
	Title string `json:"title,omitempty"`

	// ReadOnlyHint, when true, says the tool does not modify its
	// environment. Default false.
	ReadOnlyHint bool `json:"readOnlyHint,omitempty"`

	// DestructiveHint says whether the tool may perform destructive updates
	// (true) or only additive ones (false); meaningful only when
	// ReadOnlyHint is false. nil means the spec's default, true.
	DestructiveHint *bool `json:"destructiveHint,omitempty"`

	// IdempotentHint, when true, says that calling the tool again with the
	// same arguments has no further effect; meaningful only when
	// ReadOnlyHint is false. Default false.
	IdempotentHint bool `json:"idempotentHint,omitempty"`

	// OpenWorldHint says whether the tool may interact with an open world
	// of external entities (true, as web search does) or a closed domain
	// (false, as a memory tool does). nil means the spec's default, true.
	OpenWorldHint *bool `json:"openWorldHint,omitempty"`
}

// Result is the outcome of one tool execution. Output (with Content and
// Structured, when set) is what the model gets to read; Err is for the Go
// caller only.
type Result struct {
	// Output is the text handed back to the model. For an error result it is
	// written for the model to correct itself: JSON field names, the rule
	// broken, the allowed values; never Go type names or stack traces.
	Output string `json:"output"`

	// Content, when not empty, is the result as content parts (text,
	// images, audio, files, resources; see [Part]) for providers that take
	// them. Output is then the text form for providers that take only
	// text; when Output is "" that text is [ContentText] of Content (see
	// [Result.Text]). nil for a plain text result.
	Content []Part `json:"content,omitempty"`

	// Structured, when not nil, is the structured result as one JSON
	// value (MCP "structuredContent"); Output then holds the same JSON
	// text. Typed-output tools ([NewOutputTool]) set both.
	Structured json.RawMessage `json:"structured,omitempty"`

	// IsError reports a failed call (unknown tool, invalid arguments, handler
	// error, panic, timeout, cancellation).
	IsError bool `json:"is_error,omitempty"`

	// Metadata is free-form data for the host (for example a pending request,
	// see [PendingFrom]); it is never sent to the model. Omitted when empty.
	Metadata map[string]any `json:"metadata,omitempty"`

	// Err is the Go cause of an error result: an *ArgumentError (or several
	// joined with errors.Join), a *PanicError, ErrUnknownTool,
	// context.DeadlineExceeded, or the handler's own error. nil on success.
	// It is never sent to the model.
	Err error `json:"-"`
}

// ErrorResult returns a Result with IsError set, Output err.Error() and Err
// err. It is a convenience for handlers that return Results directly.
func ErrorResult(err error) Result {
	return Result{Output: err.Error(), IsError: true, Err: err}
}

// Handler runs a tool with raw JSON arguments.
//
// The Registry guarantees that args is exactly one JSON object within the
// size limit, that ctx carries the tool's timeout, and that a panic in Call
// becomes an error result. Everything else (decoding, checking keys and
// types, validation) is the handler's responsibility; typed tools made by
// [NewTool] and [Register] do all of it.
type Handler interface {
	// Call runs the tool once with args, one JSON object, and returns its
	// result; a failure is a Result with IsError set, never a panic.
	Call(ctx context.Context, args json.RawMessage) Result
}

// HandlerFunc adapts a plain function to a [Handler]: a non-nil error becomes
// an error result whose Output is err.Error().
type HandlerFunc func(ctx context.Context, args json.RawMessage) (string, error)

// Call implements [Handler].
func (f HandlerFunc) Call(ctx context.Context, args json.RawMessage) Result {
	out, err := f(ctx, args)
	if err != nil {
		return Result{Output: err.Error(), IsError: true, Err: err}
	}
	return Result{Output: out}
}
