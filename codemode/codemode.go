// Package codemode offers a registry's tools to a model as one tool,
// run_code, whose argument is a short JavaScript program that calls them:
// the model writes the loop, the lookups and the filtering once, and only
// what the program prints comes back, instead of one model turn per call.
//
// The program runs in a sandbox on goja (a JavaScript engine in pure Go,
// ES2020 with async/await and promises): it sees the global `tools`, with
// one method per tool of the registry (declared to the model in
// TypeScript by [render.TypeScript]), and `console`; it has no require,
// process, fetch, timers, file system or network. Every call of a tool
// runs through Registry.Execute, so arguments are checked, approvals
// asked, timeouts, output caps, hooks and spans apply exactly as for a
// direct call. See docs/code-mode.md.
package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"github.com/dlclark/regexp2"
	"github.com/dop251/goja"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
	"github.com/toolnexus/toolnexus/render"
)

// Name is the name of the tool [Tool] makes.
const Name = "run_code"

// Defaults of [Options].
const (
	DefaultTimeout     = 30 * time.Second
	DefaultMaxCalls    = 50
	DefaultConcurrency = 8
	DefaultMaxMemory   = 256 << 20
	// MaxPrintedBytes bounds what one run keeps of its printed output:
	// 1 MiB; what is printed past it is dropped, with a note. The result
	// is then cut as every tool result is (toolnexus.DefaultMaxOutputBytes).
	MaxPrintedBytes = 1 << 20
	// MaxLength is the longest array (elements) or string (characters) a
	// built-in that loops natively (Array.prototype methods, Array.from,
	// new Array(n), JSON.stringify of an array, String.prototype.repeat,
	// padStart, padEnd) accepts in the sandbox; longer ones throw a
	// RangeError, since a timeout cannot stop a built-in midway.
	MaxLength = 1 << 20
	// MaxStringLength is the longest string repeat, padStart and padEnd
	// make: 16 Mi characters.
	MaxStringLength = 16 << 20
)

// Options configure [Tool]. The zero value (or nil) means the defaults.
type Options struct {
	// Timeout bounds one run, from its start to its result, the tool
	// calls it makes included; zero means DefaultTimeout (30 s). A run
	// still going at Timeout is stopped, even inside an endless loop, and
	// its result is an error saying "timed out after <Timeout>", with
	// what it printed before.
	Timeout time.Duration

	// MaxCalls bounds the tool calls of one run; zero means
	// DefaultMaxCalls (50). A call past it rejects with an error saying
	// so, and does not run.
	MaxCalls int

	// Concurrency is how many calls of one run execute at once (calls
	// awaited together, as with Promise.all); zero means
	// DefaultConcurrency (8). Further calls wait for a place.
	Concurrency int

	// MaxMemory bounds, in bytes, how much the process's Go heap may grow
	// while a run executes JavaScript before the run is stopped with an
	// error saying so; zero means DefaultMaxMemory (256 MiB). The heap is
	// read every 10 ms and is the process's, so runs at the same time
	// share the measure.
	MaxMemory int64
}

func (o *Options) withDefaults() Options {
	var v Options
	if o != nil {
		v = *o
	}
	if v.Timeout <= 0 {
		v.Timeout = DefaultTimeout
	}
	if v.MaxCalls <= 0 {
		v.MaxCalls = DefaultMaxCalls
	}
	if v.Concurrency <= 0 {
		v.Concurrency = DefaultConcurrency
	}
	if v.MaxMemory <= 0 {
		v.MaxMemory = DefaultMaxMemory
	}
	return v
}

const rules = `Run a JavaScript program (ES2020) that calls the tools below, and read what it prints. ` +
	`The code is the body of an async function: use await and return at the top level. ` +
	`Each tool is tools.<name>(args), returning a promise of its result (an object for tools with a typed result, otherwise text); ` +
	`a failed call rejects with an Error whose message says why (catch it with try/catch). ` +
	`Calls awaited together with Promise.all run at the same time. ` +
	`The result is what console.log and console.error printed and, when the code returns a value, that value as JSON on the last line. ` +
	`Print only what you need. There is no require, process, fetch, setTimeout, file system or network; ` +
	`a run stops after %s and %d tool calls.`

// Tool returns the run_code tool over the tools reg holds now (a tool
// named run_code among them is left out). Its input schema is
// {"code": string}, required; its description gives the rules of the
// sandbox and the tools as TypeScript declarations ([render.TypeScript]),
// or, when the two together are longer than
// toolnexus.MaxDescriptionLength, the rules alone, with the declarations
// in the description of the code property. A tool added to reg later is
// not offered (it is not declared); one removed later answers as an
// unknown tool.
//
// A run's result is the printed lines, in order, then the returned value
// as JSON when it is not undefined; "(no output)" when there is neither.
// It is an error result naming the cause, after what was printed, for a
// syntax error, an uncaught exception or rejection, a timeout, the memory
// limit, or a program that awaits a promise nothing can settle.
//
// The error is render.TypeScript's, or one for a nil reg.
func Tool(reg *toolnexus.Registry, opts *Options) (toolnexus.Tool, error) {
	if reg == nil {
		return toolnexus.Tool{}, errors.New("codemode.Tool: the registry is nil")
	}
	o := opts.withDefaults()
	var tools []toolnexus.Tool
	for _, t := range reg.Tools() {
		if t.Name != Name {
			tools = append(tools, t)
		}
	}
	decl, err := render.TypeScript(tools)
	if err != nil {
		return toolnexus.Tool{}, fmt.Errorf("codemode.Tool: %w", err)
	}
	desc := fmt.Sprintf(rules, o.Timeout, o.MaxCalls)
	codeDesc := "The program: the body of an async function."
	if full := desc + "\n\n" + decl; len([]rune(full)) <= toolnexus.MaxDescriptionLength {
		desc = full
	} else {
		desc += " The tools are declared in the description of code."
		codeDesc += "\n\n" + decl
	}
	d, _ := json.Marshal(codeDesc)
	schema := json.RawMessage(`{"type":"object","properties":{"code":{"type":"string","description":` + string(d) +
		`}},"required":["code"],"additionalProperties":false}`)
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	s := &sandbox{reg: reg, names: names, opts: o}
	h, unchecked := toolnexus.CheckArguments(Name, schema, s)
	if unchecked != "" {
		return toolnexus.Tool{}, fmt.Errorf("codemode.Tool: %s", unchecked) // cannot happen: the schema is ours
	}
	return toolnexus.Tool{
		Name:        Name,
		Title:       "Run code",
		Description: desc,
		InputSchema: schema,
		Annotations: hintsOf(tools),
		Source:      "codemode",
		// The run answers at o.Timeout itself, with what it printed; this
		// is the registry's backstop only.
		Timeout: o.Timeout + 5*time.Second,
		Handler: h,
	}, nil
}

// hintsOf is run_code's behaviour hints: what holds for every tool a
// program may call (read-only only when all are, not destructive and
// closed-world only when all say so), else the spec's defaults.
func hintsOf(tools []toolnexus.Tool) *toolnexus.Annotations {
	readOnly, safe, closed := len(tools) > 0, len(tools) > 0, len(tools) > 0
	for _, t := range tools {
		a := t.Annotations
		if a == nil {
			a = &toolnexus.Annotations{}
		}
		readOnly = readOnly && a.ReadOnlyHint
		safe = safe && (a.ReadOnlyHint || a.DestructiveHint != nil && !*a.DestructiveHint)
		closed = closed && a.OpenWorldHint != nil && !*a.OpenWorldHint
	}
	f := false
	h := &toolnexus.Annotations{Title: "Run code", ReadOnlyHint: readOnly}
	if safe {
		h.DestructiveHint = &f
	}
	if closed {
		h.OpenWorldHint = &f
	}
	return h
}

// sandbox is run_code's handler.
type sandbox struct {
	reg   *toolnexus.Registry
	names []string
	opts  Options
}

// Call implements toolnexus.Handler: one run of one program.
func (s *sandbox) Call(ctx context.Context, args json.RawMessage) toolnexus.Result {
	var a struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal(args, &a); err != nil { // checked already: cannot fail
		return toolnexus.ErrorResult(err)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.Timeout, errTimedOut)
	defer cancel() // ends the calls a program left running
	r := &run{sandbox: s, ctx: ctx, queue: make(chan pendingCall, s.opts.MaxCalls), done: make(chan pendingCall, s.opts.MaxCalls)}
	finished := make(chan toolnexus.Result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				finished <- r.failure(fmt.Sprintf("internal error in the sandbox: %v", p))
			}
		}()
		finished <- r.execute(a.Code)
	}()
	timer := time.NewTimer(s.opts.Timeout + 250*time.Millisecond)
	defer timer.Stop()
	select {
	case res := <-finished:
		return res
	case <-timer.C:
		// A built-in running natively does not see the interrupt; answer
		// now and let its goroutine end when the built-in returns.
		return r.failure(r.ended())
	}
}

func init() {
	// goja runs regular expressions that need backtracking on regexp2,
	// which has no bound of its own and does not see an interrupt: bound
	// every match (the process's regexp2 default, when nobody set one).
	if regexp2.DefaultMatchTimeout == time.Duration(math.MaxInt64) {
		regexp2.DefaultMatchTimeout = time.Second
	}
}

// errUndefined is toJSON's error for a value JSON cannot say (a function).
var errUndefined = errors.New("JSON cannot say the value")

// errTimedOut is the cause of a run's context ending at its Timeout.
var errTimedOut = errors.New("timed out")

// pendingCall is a call a program made, queued for a worker; the worker
// sends it back on done with its result.
type pendingCall struct {
	resolve, reject func(any) error
	name            string
	args            json.RawMessage
	res             toolnexus.Result
}

// work executes queued calls until the run ends; a run has at most
// Concurrency-1 workers, started as calls wait, besides the goroutine
// that runs the program.
func (r *run) work() {
	for {
		select {
		case c := <-r.queue:
			c.res = r.reg.Execute(r.ctx, c.name, c.args)
			c.args = nil
			r.done <- c
		case <-r.ctx.Done():
			return
		}
	}
}

// run is one program's state. Everything but out and the channels is
// used on the goroutine that runs JavaScript only.
type run struct {
	*sandbox
	ctx context.Context
	vm  *goja.Runtime
	// stringify is JSON.stringify (guarded by MaxLength).
	stringify goja.Callable
	calls     int
	busy      int // calls started and not yet settled
	workers   int
	queue     chan pendingCall // calls waiting for a worker
	done      chan pendingCall // calls with their results

	mu      sync.Mutex
	out     strings.Builder
	dropped int
}

// halt is the value a run is interrupted with; msg ends the run's result.
type halt struct{ msg string }

func (r *run) print(text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.out.Len()+len(text)+1 > MaxPrintedBytes {
		r.dropped += len(text) + 1
		return
	}
	if r.out.Len() > 0 {
		r.out.WriteByte('\n')
	}
	r.out.WriteString(text)
}

func (r *run) printed() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.out.String()
	if r.dropped > 0 {
		s += fmt.Sprintf("\n[%d more bytes printed were dropped: a run keeps %d]", r.dropped, MaxPrintedBytes)
	}
	return s
}

// ended says why the run's context ended: its Timeout, or the caller's
// cancellation.
func (r *run) ended() string {
	if context.Cause(r.ctx) == errTimedOut {
		return fmt.Sprintf("timed out after %s", r.opts.Timeout)
	}
	return "cancelled: " + context.Cause(r.ctx).Error()
}

func (r *run) failure(msg string) toolnexus.Result {
	out := r.printed()
	if out != "" {
		out += "\n"
	}
	return toolnexus.Result{Output: out + msg, IsError: true, Err: errors.New("codemode: " + msg)}
}

// execute runs the program to its end and returns the run's result.
func (r *run) execute(code string) toolnexus.Result {
	// The body goes on the wrapper's first line, so line numbers in
	// messages are the program's own.
	if err := checkSource(code); err != nil {
		return r.failure("refused: " + err.Error())
	}
	prog, err := goja.Compile("code", wrapper+code+"\n})()", false)
	if err != nil {
		msg := syntaxPosition.ReplaceAllStringFunc(err.Error(), func(m string) string {
			var line, col int
			fmt.Sscanf(m, "Line %d:%d", &line, &col)
			return "Line " + position(line, col)
		})
		return r.failure("syntax error: " + msg)
	}
	vm := goja.New()
	r.vm = vm
	vm.SetMaxCallStackSize(2000)
	if err := r.setup(); err != nil {
		return r.failure("internal error in the sandbox: " + err.Error())
	}
	// The run's context ends at Timeout, or with the caller's: either
	// interrupts the program wherever it is.
	stopInterrupt := context.AfterFunc(r.ctx, func() { vm.Interrupt(halt{r.ended()}) })
	defer stopInterrupt()
	stopWatch := r.watchMemory()
	defer stopWatch()

	v, err := vm.RunProgram(prog)
	if err != nil {
		return r.failure(r.describe(err))
	}
	p, _ := v.Export().(*goja.Promise)
	for p.State() == goja.PromiseStatePending {
		if r.busy == 0 {
			return r.failure("the program waits for a promise that nothing can settle (tools are the only source of promises)")
		}
		var c pendingCall
		select {
		case c = <-r.done:
		default:
			// Nothing has finished: run a waiting call here (no hand-off
			// to another goroutine, the common case of one call awaited at
			// a time), with workers for the others, or wait.
			select {
			case c = <-r.queue:
				for r.workers < r.opts.Concurrency-1 && r.workers < len(r.queue) {
					r.workers++
					go r.work()
				}
				c.res = r.reg.Execute(r.ctx, c.name, c.args)
			case c = <-r.done:
			case <-r.ctx.Done():
				return r.failure(r.ended())
			}
		}
		r.busy--
		if err := r.settle(c); err != nil {
			return r.failure(r.describe(err))
		}
	}
	if p.State() == goja.PromiseStateRejected {
		return r.failure("uncaught " + r.errorText(p.Result()))
	}
	out := r.printed()
	if val := p.Result(); !goja.IsUndefined(val) {
		if out != "" {
			out += "\n"
		}
		out += r.jsonText(val)
	}
	if out == "" {
		out = "(no output)"
	}
	return toolnexus.Result{Output: out}
}

// setup makes the sandbox and installs tools.
func (r *run) setup() error {
	if err := r.setupSandbox(); err != nil {
		return err
	}
	tools := r.vm.NewObject()
	for _, name := range r.names {
		if err := tools.Set(name, r.toolFunc(name)); err != nil {
			return err
		}
	}
	if err := tools.SetPrototype(nil); err != nil {
		return err
	}
	return r.vm.Set("tools", tools)
}

// watchMemory interrupts the run when the heap grows by more than
// MaxMemory; it returns the function that stops watching.
func (r *run) watchMemory() func() {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() int64 { metrics.Read(sample); return int64(sample[0].Value.Uint64()) }
	base := read()
	quit := make(chan struct{})
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				if read()-base > r.opts.MaxMemory {
					r.vm.Interrupt(halt{fmt.Sprintf("stopped: the program used more than %d MiB of memory", r.opts.MaxMemory>>20)})
					return
				}
			}
		}
	}()
	return func() { close(quit) }
}

// toolFunc is tools.<name>: it starts the call and returns its promise.
func (r *run) toolFunc(name string) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		p, resolve, reject := r.vm.NewPromise()
		if r.calls >= r.opts.MaxCalls {
			_ = reject(r.newError("Error", fmt.Sprintf("tools.%s was not called: this run has made its %d tool calls, the most one run may make", name, r.opts.MaxCalls)))
			return r.vm.ToValue(p)
		}
		r.calls++ // counted before its arguments are made: a toJSON may call tools too
		args := json.RawMessage("{}")
		if a := call.Argument(0); !goja.IsUndefined(a) && !goja.IsNull(a) {
			text, err := r.toJSON(a)
			if err != nil {
				var ex *goja.Exception
				if errors.As(err, &ex) {
					panic(ex) // thrown by toJSON or for a cycle: the program's to catch
				}
				panic(r.vm.NewTypeError("tools.%s: the arguments must be a JSON object", name))
			}
			args = json.RawMessage(text)
		}
		r.busy++
		r.queue <- pendingCall{resolve: resolve, reject: reject, name: name, args: args}
		return r.vm.ToValue(p)
	}
}

// settle resolves or rejects a finished call's promise (running the
// program on from there); the error is one that ends the run.
func (r *run) settle(c pendingCall) error {
	res := c.res
	if pr, ok := toolnexus.PendingFrom(res); ok {
		msg := fmt.Sprintf("tools.%s did not run: it waits for an answer code mode cannot give (%s)", c.name, pr.Kind)
		if pr.Kind == toolnexus.PendingKindApproval {
			msg = fmt.Sprintf("tools.%s did not run: it needs approval, and no approver is set for this run", c.name)
		}
		return c.reject(r.newError("Error", msg))
	}
	if res.IsError {
		return c.reject(r.newError("Error", res.Text()))
	}
	if res.Structured != nil {
		v, err := r.value(res.Structured)
		if err != nil {
			return c.reject(r.newError("Error", fmt.Sprintf("tools.%s returned a structured result that is not JSON", c.name)))
		}
		return c.resolve(v)
	}
	return c.resolve(res.Text())
}

// newError is a new JavaScript error of the built-in constructor kind
// ("Error", "RangeError") with msg, to reject a call with or to throw.
func (r *run) newError(kind, msg string) *goja.Object {
	ctor, _ := goja.AssertConstructor(r.vm.Get(kind))
	e, err := ctor(nil, r.vm.ToValue(msg))
	if err != nil {
		panic(err) // an interrupt: it ends the run
	}
	return e
}

func (r *run) toJSON(v goja.Value) (string, error) {
	s, err := r.stringify(goja.Undefined(), v)
	if err != nil {
		return "", err
	}
	if goja.IsUndefined(s) {
		return "", errUndefined
	}
	return s.String(), nil
}

// value is a JSON document as a JavaScript value, objects in the
// document's key order (as JSON.parse makes them).
func (r *run) value(doc json.RawMessage) (goja.Value, error) {
	v, err := jsonx.Parse(doc)
	if err != nil {
		return nil, err
	}
	return r.toValue(v), nil
}

func (r *run) toValue(v any) goja.Value {
	switch v := v.(type) {
	case *jsonx.Object:
		o := r.vm.NewObject()
		for i, k := range v.Keys {
			_ = o.Set(k, r.toValue(v.Vals[i]))
		}
		return o
	case []any:
		vals := make([]any, len(v))
		for i, x := range v {
			vals[i] = r.toValue(x)
		}
		return r.vm.NewArray(vals...)
	case json.Number:
		if n, err := v.Int64(); err == nil && n >= -1<<53 && n <= 1<<53 {
			return r.vm.ToValue(n)
		}
		f, _ := v.Float64()
		return r.vm.ToValue(f)
	case nil:
		return goja.Null()
	}
	return r.vm.ToValue(v) // string, bool
}

// jsonText is the returned value as JSON, or as text when JSON cannot
// say it (a function), or why it cannot be shown (a cycle, a value over
// the limits).
func (r *run) jsonText(v goja.Value) string {
	s, err := r.toJSON(v)
	if err == nil {
		return s
	}
	if _, ok := v.(*goja.Object); ok && errors.Is(err, errUndefined) {
		if f, ok := goja.AssertFunction(r.vm.Get("String")); ok {
			if t, err := f(goja.Undefined(), v); err == nil {
				return t.String()
			}
		}
	}
	return "(the returned value cannot be shown: " + r.describe(err) + ")"
}

// errorText is a thrown value as the program would print it, with the
// line it was thrown at when it is an Error.
func (r *run) errorText(v goja.Value) string {
	if v == nil {
		return "error"
	}
	text := v.String()
	if o, ok := v.(*goja.Object); ok {
		if stack := o.Get("stack"); stack != nil && !goja.IsUndefined(stack) {
			if at := firstFrame(stack.String()); at != "" {
				text += " (" + at + ")"
			}
		}
	}
	return text
}

// wrapper opens the async function the program is the body of; it is on
// the program's first line, so line numbers are the program's own.
const wrapper = "(async () => {"

var syntaxPosition = regexp.MustCompile(`Line \d+:\d+`)

// position is line:col of the program for line:col of the wrapped source.
func position(line, col int) string {
	if line == 1 {
		col -= len(wrapper)
	}
	return fmt.Sprintf("%d:%d", line, col)
}

// firstFrame finds "at line L:C" in a goja stack of code's frames.
func firstFrame(stack string) string {
	var line, col int
	i := strings.Index(stack, "code:")
	if i < 0 {
		return ""
	}
	if n, _ := fmt.Sscanf(stack[i+len("code:"):], "%d:%d", &line, &col); n != 2 {
		return ""
	}
	return "at line " + position(line, col)
}

// describe turns an error that ended the run into its message.
func (r *run) describe(err error) string {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if s, ok := ie.Value().(halt); ok {
			return s.msg
		}
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return "stopped: the call stack is too deep (endless recursion?)"
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return "uncaught " + r.errorText(ex.Value())
	}
	return err.Error()
}

// NewRegistry returns a registry whose one tool is run_code over reg's
// tools ([Tool] with opts), and that follows reg: after every change of
// reg (an MCP server's tools/list_changed, a tool added or removed), its
// run_code is replaced by one that declares reg's tools as they are now,
// so what the model is shown is what it can call. Serve it with
// mcp.NewServer to offer many tools through one (toolnexus serve
// --code-mode). stop ends the following. The error is [Tool]'s for reg
// as it is now; a later change that [Tool] refuses keeps the run_code
// before it.
func NewRegistry(reg *toolnexus.Registry, opts *Options) (served *toolnexus.Registry, stop func(), err error) {
	tool, err := Tool(reg, opts)
	if err != nil {
		return nil, nil, err
	}
	served = toolnexus.NewRegistry()
	if err := served.Add(tool); err != nil {
		return nil, nil, err
	}
	stop = reg.OnChange(func() {
		if t, err := Tool(reg, opts); err == nil {
			_ = served.Replace([]string{Name}, t)
		}
	})
	return served, stop, nil
}
