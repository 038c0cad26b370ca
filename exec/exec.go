package exec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
)

// DefaultConcurrency is the number of calls of one reply that run at the
// same time when Options.Concurrency is zero.
const DefaultConcurrency = 4

// MaxCallIDBytes is the longest call id a call may have: 256 bytes.
// Providers make ids of 9 to about 60 bytes (OpenAI "call_…", Anthropic
// "toolu_…", Responses "fc_…"); a longer one comes from a broken or
// hostile peer. Such a call does not run: it is answered with an error
// result wrapping [ErrMalformedCall] (`the tool call could not be read:
// the call id is 10485760 bytes, more than the limit of 256`) and no hook
// runs. The id is still echoed, unchanged, in the answer: it is the only
// way the provider can pair the answer with its call (a changed id fails
// the whole next request, and the host echoes the assistant turn, id
// included, anyway); a host that would rather drop such a reply checks
// the ids itself. Logs show at most the first MaxCallIDBytes bytes.
const MaxCallIDBytes = 256

// ErrNotStarted is wrapped by the Result.Err of a call that was never
// started because the context was done first (cancelled or past its
// deadline). The context's cause is wrapped too, so errors.Is(err,
// context.Canceled) also holds.
var ErrNotStarted = errors.New("exec: call not started")

// ErrMalformedCall is wrapped by the Result.Err of a call the reply holds
// but that could not be read: a field of the call has the wrong JSON type
// (a numeric id, a name that is an object, arguments that are a number,
// ...). The tool does not run and no hook is called; the Output names the
// field, e.g. `the tool call could not be read: "function.name" is a
// number, want a string`.
var ErrMalformedCall = errors.New("exec: malformed tool call")

// ErrGoexit is wrapped by the Result.Err of a call during which a hook or
// the tool's handler called runtime.Goexit (as t.FailNow and t.SkipNow
// do). The Output is `tool "x" failed: internal error`.
var ErrGoexit = errors.New("exec: runtime.Goexit called during the tool call")

// Call is one tool call in provider-neutral form.
type Call struct {
	// ID is the provider's call id (OpenAI tool_calls[].id, Responses
	// call_id, Anthropic tool_use.id, Gemini functionCall.id). It may be
	// empty (Gemini ids are optional); results are matched by position.
	// A provider id that was not a JSON string is its JSON text (see
	// "Malformed calls" in the package doc).
	ID string `json:"id,omitempty"`

	// Name is the tool name the model asked for.
	Name string `json:"name"`

	// Arguments are the raw JSON arguments: normally one JSON object. nil,
	// "" and null mean {}. A JSON string whose content is a JSON object
	// (arguments encoded twice, as some models do) is unwrapped exactly one
	// level before the tool runs; any other non-object is an error result.
	Arguments json.RawMessage `json:"arguments,omitempty"`

	// reject, if set, is the error answer for a call that cannot run at
	// all (an unsupported provider call type); no hook or tool runs.
	reject string

	// malformed, if set, says which field of the provider's call had the
	// wrong JSON type; the answer wraps ErrMalformedCall and no hook or
	// tool runs.
	malformed string

	// cut, if set, marks a call the reply cut at the output-token limit
	// before it was complete (the provider's marker, as truncatedResult
	// names it); no hook or tool runs.
	cut string

	// freeform marks a call that carries raw text (an OpenAI custom tool
	// call, Arguments {"input":text}); it may only run a freeform tool.
	freeform bool

	// search marks a client-executed tool search (a Responses
	// tool_search_call, or an Anthropic call of the search tool); it runs
	// no registry tool (see ToolSearch).
	search bool

	// responses marks a search from a Responses tool_search_call, whose
	// answer holds the tools found rendered (Result.searchOut).
	responses bool

	// keys names the render profile whose renamed property keys are
	// mapped back to the declared ones before the call runs
	// (render.RestoreKeys); "" for providers without a key rule.
	keys string
}

// Result is the outcome of one [Call]. It embeds the registry's
// [toolnexus.Result]: Output (always valid UTF-8 here), IsError, Metadata
// and Err (the Go cause, never sent to a model).
type Result struct {
	// ID and Name are the call's, as the model sent them: a Before hook
	// that changes Call.Name does not change them, and an After hook that
	// changes them has its change undone.
	ID   string `json:"id,omitempty"`
	Name string `json:"name"` // see ID

	// Result is the registry's result: Output, IsError, Metadata, Err.
	toolnexus.Result

	// Duration is the wall-clock time from the start of the call (the
	// Before hook) to its end (after the After hook); zero for calls that
	// were not started.
	Duration time.Duration `json:"-"`

	// found is what a tool search found, best first; for a Responses
	// search, only the tools searchOut holds.
	found []toolnexus.Tool

	// searchOut is a Responses search's found tools as rendered for its
	// tool_search_output.
	searchOut render.OpenAIResponsesTools
}

// Options configure an [Executor]. A nil *Options and the zero value mean
// the defaults.
type Options struct {
	// Concurrency is how many calls of one batch run at the same time;
	// zero means DefaultConcurrency (4), 1 means one after the other, in
	// order, and a negative value means no limit (one goroutine per call).
	// Results keep call order whatever the value. With 1 the calls run on
	// the caller's goroutine; with any other value on goroutines of their
	// own, never on the caller's (see [Executor.RunAll] on runtime.Goexit).
	Concurrency int

	// Timeout limits each call, hooks included; zero means no limit of the
	// executor's own (a tool's Tool.Timeout and the registry's
	// Options.Timeout still apply). On expiry the Result is an error whose
	// Output says `tool "x" timed out after 30s`.
	Timeout time.Duration

	// Before, if non-nil, runs before each call (not a tool search: see
	// [ToolSearch]), on the call's goroutine,
	// with the call's context (the per-call timeout applies). It may
	// rewrite call.Arguments or call.Name (which tool runs, with what); the
	// id and name sent back to the model stay the model's. If it returns a
	// non-nil Result, the tool does not run and that Result is the answer
	// (approval gates, caches, sandboxes). A panic in Before becomes an
	// error result. Before should return when ctx is done: the executor
	// waits for it (it cannot stop a hook that ignores ctx).
	Before func(ctx context.Context, call *Call) *toolnexus.Result

	// After, if non-nil, runs after each started call (not a tool
	// search), including calls answered by Before, and may rewrite the result in place (redaction,
	// truncation). The call is the one the tool ran with (after Before).
	// It does not run for calls that were never started. A panic in After
	// becomes an error result. Changes to res.ID and res.Name are undone:
	// the id and name sent back to the model are always the call's.
	After func(ctx context.Context, call Call, res *Result)

	// Logger, if non-nil, gets one record per call: message "tool call",
	// attributes tool, call_id, duration, is_error and, on failure,
	// error_kind (unknown_tool, invalid_arguments, malformed_call, panic,
	// goexit, timeout, cancelled, not_started, tool_error). Level Info for
	// success, Warn for failures. Argument values and outputs are never
	// logged (they may carry secrets) unless LogArguments or LogOutput is
	// set.
	Logger *slog.Logger

	// LogArguments adds the raw arguments to each log record (attribute
	// "arguments"). Off by default.
	LogArguments bool

	// LogOutput adds the result Output to each log record (attribute
	// "output"). Off by default.
	LogOutput bool

	// MaxStreamBytes limits, for the streaming methods and feeds, the size
	// of one server-sent event and the call data (ids, names, arguments)
	// kept from one stream, in bytes; zero means DefaultMaxStreamBytes
	// (16 MiB). Over it the stream is incomplete (see
	// [ErrStreamIncomplete]).
	MaxStreamBytes int

	// OnInvalidPartial, if non-nil, is the early report of the streaming
	// methods and feeds (OpenAI Chat, Responses, Anthropic; Gemini sends
	// calls whole): it is called at most once per call, on the goroutine
	// that reads the stream, as soon as the arguments streamed so far
	// break the tool's schema: the tool is unknown (`unknown tool "x"`),
	// the arguments do not start with a JSON object, or a first-level key
	// is not a property of a tool whose schema has
	// "additionalProperties": false (`unknown property "x"; allowed: a,
	// b`). call holds the id, the
	// name and the arguments so far. It is a report only: the call still
	// runs when its arguments are complete and gets its usual error result,
	// so what the model is answered is what ran. A host may use it to stop
	// the stream early.
	OnInvalidPartial func(call Call, problem string)

	// OnEvent, if non-nil, receives the progress reports and log lines a
	// running tool sends with toolnexus.ReportProgress and toolnexus.Log,
	// with the call (ID and Name as the model sent them), for example to
	// draw a progress bar. It runs on the tool's goroutine, possibly on
	// several at once, and the tool waits for it. Events are never sent to
	// the model.
	OnEvent func(call Call, ev toolnexus.Event)

	// ToolSearch, if non-nil, answers the Anthropic search tool's calls
	// and chooses what Responses tool_search_call items find (see
	// [ToolSearch]). With nil, a tool_search_call with "execution":"client"
	// is still answered (a call left unanswered fails the next request),
	// with no tools, and an Anthropic call of "tool_search" runs the
	// registry tool of that name, if any.
	ToolSearch *ToolSearch

	// Approver decides the calls of tools with Tool.NeedsApproval, with
	// the call's ID in ApprovalRequest.CallID (the registry's approver,
	// used when this is nil, gets CallID ""); nil leaves them to the
	// registry's Options.Approver (and, without one, makes them pending
	// requests of kind toolnexus.PendingKindApproval). See
	// toolnexus.WithApprover.
	Approver toolnexus.Approver
}

// Executor runs a model's tool calls against a [toolnexus.Registry]: in
// parallel up to a limit, results in call order, exactly one result per
// call whatever happens (unknown tool, bad arguments, handler error, panic,
// timeout, cancellation).
//
// An Executor is safe for concurrent use by multiple goroutines; its
// Options must not be changed after New. The zero value is ready to use
// and behaves like New(nil, nil): default options and an empty registry,
// so every call answers `unknown tool "x"; available tools: none`.
type Executor struct {
	reg  *toolnexus.Registry
	opts Options
}

// New returns an Executor that runs calls with reg.Execute. A nil reg is an
// empty registry (every call answers "unknown tool"); nil opts mean the
// defaults. opts is copied.
func New(reg *toolnexus.Registry, opts *Options) *Executor {
	if reg == nil {
		reg = toolnexus.NewRegistry()
	}
	e := &Executor{reg: reg}
	if opts != nil {
		e.opts = *opts
	}
	return e
}

// emptyRegistry serves the zero Executor; nothing ever adds to it.
var emptyRegistry = toolnexus.NewRegistry()

// registry is e.reg, or an empty registry for the zero Executor.
func (e *Executor) registry() *toolnexus.Registry {
	if e.reg == nil {
		return emptyRegistry
	}
	return e.reg
}

// Run executes one call and returns its result. It never panics because
// of the call, the tool or a hook. If ctx is already done the tool does not
// run and the result is an error wrapping [ErrNotStarted].
//
// Run works on the caller's goroutine. A hook or handler that calls
// runtime.Goexit (t.FailNow, t.SkipNow) therefore ends the caller's
// goroutine, exactly as if the caller had called it, and Run does not
// return. [Executor.RunAll] runs calls on goroutines of its own and turns
// that into an error result instead.
func (e *Executor) Run(ctx context.Context, call Call) Result {
	if err := ctx.Err(); err != nil {
		return e.notStarted(ctx, call)
	}
	return e.run(ctx, call)
}

// RunAll executes calls, up to Options.Concurrency at a time, and returns
// exactly len(calls) results in the order of calls. Calls to the same tool
// are independent of each other.
//
// When ctx is done before every call has finished, RunAll returns promptly:
// running calls end with a cancellation result (Registry.Execute does not
// wait for a handler that ignores ctx), calls not yet started get an error
// result wrapping [ErrNotStarted], and the error returned is ctx's error.
// The results are complete either way; the error only tells the caller the
// batch was cut short. Otherwise the error is nil.
//
// Unless Concurrency is 1, the calls run on goroutines RunAll starts (at
// most Concurrency of them), never on the caller's, so a hook or handler
// that calls runtime.Goexit (t.FailNow does) ends only its own call: that
// call's result is `tool "x" failed: internal error` with an Err wrapping
// [ErrGoexit], the calls left run on a fresh goroutine, and RunAll returns
// as usual. With Concurrency 1 the calls run one by one on the caller's
// goroutine (which saves the hand-off to a worker, 2-4 µs per batch, about
// as much as dispatching one trivial call), so a runtime.Goexit there ends
// the caller's goroutine, as if the caller had called it, and RunAll does
// not return. The provider methods (OpenAIChat, Responses, Anthropic, Gemini
// and their *JSON forms) run their calls the same way.
func (e *Executor) RunAll(ctx context.Context, calls []Call) ([]Result, error) {
	results := make([]Result, len(calls))
	e.runInto(ctx, len(calls), func(i int) Call { return calls[i] }, results)
	return results, e.batchErr(ctx, results)
}

// batchErr is ctx's error if any call of the batch was cut short by it.
func (e *Executor) batchErr(ctx context.Context, results []Result) error {
	err := ctx.Err()
	if err == nil {
		return nil
	}
	for i := range results {
		if results[i].IsError && results[i].Err != nil &&
			(errors.Is(results[i].Err, context.Canceled) || errors.Is(results[i].Err, context.DeadlineExceeded)) {
			return err
		}
	}
	return nil
}

// runInto runs n calls (call(i) gives the i-th) and stores the results in
// out[i]. With Concurrency 1 they run one by one on the caller's
// goroutine. Otherwise they run on worker goroutines, at most the
// concurrency limit of them, while the caller's goroutine only waits: a
// runtime.Goexit in a hook or handler then ends a worker, never the
// caller, and is detected (see batch.work). Handing the batch to workers
// costs 2-4 µs per batch on a 2-core machine (goroutine starts, stack
// growth, wake-ups; BenchmarkDispatch1, BenchmarkDispatch8Paired), which
// Concurrency 1 saves.
func (e *Executor) runInto(ctx context.Context, n int, call func(int) Call, out []Result) {
	limit := e.opts.Concurrency
	if limit == 1 {
		for i := 0; i < n; i++ {
			out[i] = e.Run(ctx, call(i))
		}
		return
	}
	if n == 0 {
		return
	}
	if limit == 0 {
		limit = DefaultConcurrency
	}
	if limit < 0 || limit > n {
		limit = n
	}
	b := &batch{e: e, ctx: ctx, n: n, call: call, out: out}
	b.wg.Add(limit)
	for w := 0; w < limit; w++ {
		go b.work()
	}
	b.wg.Wait()
}

// batch is the shared state of one runInto.
type batch struct {
	e    *Executor
	ctx  context.Context
	n    int
	call func(int) Call
	out  []Result
	next atomic.Int64
	wg   sync.WaitGroup
}

// work runs calls until none is left. If the goroutine is ended in the
// middle of a call (runtime.Goexit in a hook or handler, the only way out
// of Run other than returning: panics are recovered below it), the
// deferred function still writes that call's result and starts a new
// worker for the calls left, so every call gets exactly one result and
// the batch keeps its concurrency.
func (b *batch) work() {
	cur := -1 // the call in progress; -1 between calls
	defer func() {
		if cur >= 0 {
			b.out[cur] = b.e.goexited(b.ctx, b.call(cur))
			b.wg.Add(1)
			go b.work()
		}
		b.wg.Done()
	}()
	for first := true; ; first = false {
		i := int(b.next.Add(1) - 1)
		if i >= b.n {
			return
		}
		if first {
			presizeStack(i)
		}
		cur = i
		b.out[i] = b.e.Run(b.ctx, b.call(i))
		cur = -1
	}
}

// presizeStack grows the stack of a fresh worker goroutine to 32 KB in
// one step, while it is still shallow and cheap to copy. Without it the
// stack (8 KB at start) grows by doubling in the middle of the tool call,
// each time copying and re-adjusting every frame of the deep decode path:
// a batch of one trivial call took ~16 µs instead of ~5-6 µs (2-4 µs on
// the caller's goroutine) on a 2-core machine (BenchmarkDispatch1). i only
// keeps the compiler from dropping the array.
//
//go:noinline
func presizeStack(i int) byte {
	var buf [16 << 10]byte
	buf[i&(len(buf)-1)] = 1
	return buf[(i*7)&(len(buf)-1)]
}

// goexited is the result of a call whose goroutine was ended by
// runtime.Goexit before the call returned.
func (e *Executor) goexited(ctx context.Context, call Call) Result {
	r := Result{ID: call.ID, Name: call.Name}
	r.Output = validUTF8(fmt.Sprintf("tool %q failed: internal error", call.Name))
	r.IsError = true
	r.Err = fmt.Errorf("%w: tool %q", ErrGoexit, call.Name)
	e.log(ctx, call.Arguments, &r)
	return r
}

func (e *Executor) notStarted(ctx context.Context, call Call) Result {
	cause := context.Cause(ctx)
	why := "the request was cancelled"
	if errors.Is(cause, context.DeadlineExceeded) {
		why = "the request's deadline passed"
	}
	r := Result{ID: call.ID, Name: call.Name}
	r.Output = validUTF8(fmt.Sprintf("tool %q was not run: %s before it started", call.Name, why))
	r.IsError = true
	r.Err = fmt.Errorf("%w: tool %q: %w", ErrNotStarted, call.Name, cause)
	e.log(ctx, call.Arguments, &r)
	return r
}

// run executes one started call: hooks, timeout, registry, UTF-8, log.
func (e *Executor) run(ctx context.Context, call Call) (r Result) {
	start := time.Now()
	r.ID, r.Name = call.ID, call.Name
	parent := ctx
	if e.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.opts.Timeout)
		defer cancel()
	}
	call.Arguments = unwrapArguments(bytes.TrimSpace(call.Arguments))
	var keyNote string // for an error result: the declared keys the model sent renamed
	if call.keys != "" {
		if t, ok := e.registry().Get(call.Name); ok {
			call.Arguments, keyNote = render.RestoreKeys(call.keys, &t, call.Arguments)
		}
	}
	if len(call.ID) > MaxCallIDBytes {
		call.malformed = joinProblems(call.malformed,
			fmt.Sprintf("the call id is %d bytes, more than the limit of %d", len(call.ID), MaxCallIDBytes))
	}
	if e.opts.OnEvent != nil {
		ctx = toolnexus.WithEvents(ctx, eventsFor(e.opts.OnEvent, call))
	}
	if e.opts.Approver != nil { // only then: attaching costs 2 allocations a call
		ctx = toolnexus.WithApprover(ctx, call.ID, e.opts.Approver)
	}
	if b := batchFrom(ctx); b != nil {
		key := b.key(call)
		if done, ok := b.done(key); ok {
			return done
		}
		ctx = b.withAnswers(ctx)
		defer func() { b.record(key, r) }()
	}
	if call.cut != "" {
		r = truncatedResult(call)
		r.Duration = time.Since(start)
		e.log(ctx, nil, &r)
		return r
	}
	if call.malformed != "" {
		r.Output = validUTF8("the tool call could not be read: " + call.malformed)
		r.IsError, r.Err = true, fmt.Errorf("%w: %s", ErrMalformedCall, call.malformed)
		r.Duration = time.Since(start)
		e.log(ctx, nil, &r)
		return r
	}
	if call.search {
		return e.search(ctx, call, start)
	}
	if call.freeform && call.reject == "" {
		if t, ok := e.registry().Get(call.Name); ok && t.Freeform == nil {
			call.reject = fmt.Sprintf("tool %q takes JSON arguments, not freeform text: call it as a function", call.Name)
		}
	}
	if call.reject != "" {
		r.Output, r.IsError, r.Err = call.reject, true, errors.New("exec: "+call.reject)
		r.Output = validUTF8(r.Output)
		r.Duration = time.Since(start)
		e.log(ctx, nil, &r)
		return r
	}
	if e.opts.Before != nil {
		var answer *toolnexus.Result
		if call, answer = e.before(ctx, call); answer != nil {
			r.Result = *answer
		} else {
			r.Result = e.registry().Execute(ctx, call.Name, call.Arguments)
		}
	} else {
		r.Result = e.registry().Execute(ctx, call.Name, call.Arguments)
	}
	if r.IsError && e.opts.Timeout > 0 && parent.Err() == nil &&
		errors.Is(ctx.Err(), context.DeadlineExceeded) && errors.Is(r.Err, context.DeadlineExceeded) {
		r.Output = fmt.Sprintf("tool %q timed out after %s", call.Name, e.opts.Timeout)
		r.Err = fmt.Errorf("tool %q: timed out after %s: %w", call.Name, e.opts.Timeout, context.DeadlineExceeded)
	}
	if keyNote != "" && r.IsError {
		r.Output += "\n" + keyNote
	}
	if e.opts.After != nil {
		r = e.after(ctx, call, r)
	}
	r.Output = validUTF8(r.Output)
	r.Duration = time.Since(start)
	e.log(ctx, call.Arguments, &r)
	return r
}

// eventsFor passes a call's events to fn with the call as the model sent
// it.
func eventsFor(fn func(Call, toolnexus.Event), call Call) func(toolnexus.Event) {
	c := Call{ID: call.ID, Name: call.Name, Arguments: call.Arguments}
	return func(ev toolnexus.Event) { fn(c, ev) }
}

// before runs the Before hook on a copy of call and returns the call as
// the hook left it and its answer (nil: run the tool). Working on copies
// keeps run's own values off the heap when no hook is set.
func (e *Executor) before(ctx context.Context, c Call) (call Call, answer *toolnexus.Result) {
	call = c
	defer func() {
		if v := recover(); v != nil {
			answer = hookPanic("Before", call.Name, v)
		}
	}()
	answer = e.opts.Before(ctx, &call)
	return call, answer
}

// after runs the After hook on a copy of r and returns it, with r's ID
// and Name whatever the hook did to them.
func (e *Executor) after(ctx context.Context, call Call, r Result) (out Result) {
	out = r
	defer func() {
		if v := recover(); v != nil {
			out.Result = *hookPanic("After", call.Name, v)
		}
		out.ID, out.Name = r.ID, r.Name
	}()
	e.opts.After(ctx, call, &out)
	return out
}

// HookPanicError is the Result.Err of a call whose Before or After hook
// panicked. The model only sees `tool "x" failed: internal error`.
type HookPanicError struct {
	Hook  string // "Before" or "After"
	Tool  string // tool name
	Value any    // the value passed to panic
	Stack []byte // the goroutine stack at the panic
}

// Error describes the panic without the stack.
func (e *HookPanicError) Error() string {
	return fmt.Sprintf("exec: %s hook panicked on tool %q: %v", e.Hook, e.Tool, e.Value)
}

func hookPanic(hook, tool string, v any) *toolnexus.Result {
	return &toolnexus.Result{
		Output:  fmt.Sprintf("tool %q failed: internal error", tool),
		IsError: true,
		Err:     &HookPanicError{Hook: hook, Tool: tool, Value: v, Stack: debug.Stack()},
	}
}

// validUTF8 replaces each run of invalid bytes with U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// unwrapArguments applies the one documented repair: arguments that are a
// JSON string whose content (trimmed) starts with '{' are replaced by that
// content, once. Everything else is passed through unchanged for the
// registry to accept or reject.
func unwrapArguments(a json.RawMessage) json.RawMessage {
	if firstByte(a) != '"' {
		return a
	}
	var s string
	if json.Unmarshal(a, &s) != nil {
		return a
	}
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") {
		return a
	}
	return json.RawMessage(s)
}

// logID is a call id as logged: at most MaxCallIDBytes bytes, cut on a
// UTF-8 boundary and marked with "…" when longer.
func logID(id string) string {
	if len(id) <= MaxCallIDBytes {
		return id
	}
	n := MaxCallIDBytes
	for n > 0 && !utf8.RuneStart(id[n]) {
		n--
	}
	return validUTF8(id[:n]) + "…"
}

// ErrorKind classifies a failed result without revealing its content,
// from its Err: "not_started" ([ErrNotStarted]), "malformed_call"
// ([ErrMalformedCall]), "truncated" ([ErrTruncated]), "goexit" ([ErrGoexit]), "unknown_tool",
// "invalid_arguments", "panic" (a [toolnexus.PanicError] or
// [HookPanicError]), "timeout", "cancelled" or, for anything else (the
// handler's own error, or IsError with no Err), "tool_error". It returns ""
// for a successful result. It is the error_kind of [Options.Logger]'s
// records and the error.type of package toolnexus/otel.
func ErrorKind(r toolnexus.Result) string {
	err := r.Err
	var pe *toolnexus.PanicError
	var he *HookPanicError
	switch {
	case !r.IsError:
		return ""
	case err == nil:
		return "tool_error"
	case errors.Is(err, ErrNotStarted):
		return "not_started"
	case errors.Is(err, ErrMalformedCall):
		return "malformed_call"
	case errors.Is(err, ErrTruncated):
		return "truncated"
	case errors.Is(err, ErrGoexit):
		return "goexit"
	case errors.Is(err, toolnexus.ErrUnknownTool):
		return "unknown_tool"
	case errors.Is(err, toolnexus.ErrInvalidArguments):
		return "invalid_arguments"
	case errors.As(err, &pe), errors.As(err, &he):
		return "panic"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	return "tool_error"
}

func (e *Executor) log(ctx context.Context, args json.RawMessage, r *Result) {
	l := e.opts.Logger
	if l == nil {
		return
	}
	level := slog.LevelInfo
	if r.IsError {
		level = slog.LevelWarn
	}
	if !l.Enabled(ctx, level) {
		return
	}
	attrs := make([]slog.Attr, 0, 7)
	attrs = append(attrs,
		slog.String("tool", r.Name),
		slog.String("call_id", logID(r.ID)),
		slog.Duration("duration", r.Duration),
		slog.Bool("is_error", r.IsError))
	if r.IsError {
		attrs = append(attrs, slog.String("error_kind", ErrorKind(r.Result)))
	}
	if e.opts.LogArguments {
		attrs = append(attrs, slog.String("arguments", validUTF8(string(args))))
	}
	if e.opts.LogOutput {
		attrs = append(attrs, slog.String("output", r.Output))
	}
	l.LogAttrs(ctx, level, "tool call", attrs...)
}
