package toolnexus

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/argtype"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// DefaultMaxArgumentBytes is the default limit on the size of one call's raw
// arguments: 1 MiB.
const DefaultMaxArgumentBytes = 1 << 20

// DefaultMaxOutputBytes is the one default limit on the text a model is
// shown of one call's result (see [Result.Capped]), whatever the tool's
// source: 32 KiB. The built-in tools (builtin.Options.MaxOutputBytes) and
// MCP-loaded tools (mcp.LoadOptions.MaxOutputBytes) default to it too and
// cut with the same Capped, so a 5 MiB output is cut the same way
// wherever it comes from.
const DefaultMaxOutputBytes = 32 << 10

// DefaultMaxMediaBytes is the default limit on the bytes of the binary
// content parts (images, audio, files) of one call's result: 16 MiB.
const DefaultMaxMediaBytes = 16 << 20

// MaxDescriptionLength is the longest tool description accepted, in
// characters (runes): 1024, the OpenAI Chat Completions limit on
// function.description.
const MaxDescriptionLength = 1024

// Options configure a [Registry]. The zero value is ready to use.
type Options struct {
	// MaxArgumentBytes limits the size of one call's raw arguments, in bytes;
	// zero means DefaultMaxArgumentBytes (1 MiB). Larger arguments give an
	// error result and the handler does not run.
	MaxArgumentBytes int

	// MaxOutputBytes limits the text of one call's result, notes
	// included, in bytes: its Output, its Content's text and its
	// Structured value, cut by [Result.Capped] (a longer Output keeps its
	// head and tail around "[... N bytes truncated ...]"; a longer
	// Structured value is dropped with a note). Zero means
	// DefaultMaxOutputBytes (32 KiB) and a negative value means no limit.
	// It applies to every tool (typed, raw, MCP-loaded, built-in) and to
	// error results. Binary parts' bytes are not counted here but under
	// MaxMediaBytes.
	MaxOutputBytes int

	// MaxMediaBytes limits the bytes (Part.Data) of the binary content
	// parts of one call's result, in order: a part that does not fit in
	// what is left is dropped, and a last text part says "[N content parts
	// dropped: over the media cap of M bytes]". Zero means
	// DefaultMaxMediaBytes (16 MiB) and a negative value means no limit.
	MaxMediaBytes int

	// Timeout limits every call of a tool whose own Tool.Timeout is zero;
	// zero means no limit. On expiry the Result says "timed out after 30s".
	Timeout time.Duration

	// Approver decides the calls of tools with Tool.NeedsApproval; nil
	// means none (such calls become pending requests). An approver
	// attached to the context with [WithApprover] takes precedence.
	Approver Approver

	// CheckTool, when set, checks each tool Add, Register and Replace are
	// given, after the registry's own checks; an error refuses the whole
	// call, wrapped with the tool's name. Use render.Check to refuse at
	// startup a tool one of the provider APIs a program targets would
	// refuse (a property key, a strict-mode keyword, a name):
	//
	//	toolnexus.Options{CheckTool: render.Check("anthropic-strict", "gemini")}
	CheckTool func(Tool) error
}

// Registry holds tools by name and executes them.
//
// A Registry is safe for concurrent use by multiple goroutines: Add,
// Register, Remove, Get, Tools and Execute may run at the same time. Lookups
// never take a lock; they read an immutable snapshot that Add and Remove
// replace. The zero value is an empty registry with default Options.
type Registry struct {
	opts Options

	mu   sync.Mutex               // serialises writers
	snap atomic.Pointer[snapshot] // readers load this
	subs map[int]func()
	next int
}

type entry struct {
	tool  Tool
	typed bool // handler checks the arguments itself (typed tools)
	site  string
	// approver is Options.Approver, for tools with NeedsApproval.
	approver Approver
	// slots holds one token per running call when Tool.MaxConcurrent > 0.
	slots chan struct{}
}

type snapshot struct {
	byName map[string]*entry
	sorted []Tool // sorted by name
}

var emptySnapshot = &snapshot{byName: map[string]*entry{}}

// NewRegistry returns an empty Registry with default Options.
func NewRegistry() *Registry { return &Registry{} }

// NewRegistryWith returns an empty Registry with a copy of opts; nil means
// the default Options, as NewRegistry.
func NewRegistryWith(opts *Options) *Registry {
	r := &Registry{}
	if opts != nil {
		r.opts = *opts
	}
	return r
}

func (r *Registry) load() *snapshot {
	if s := r.snap.Load(); s != nil {
		return s
	}
	return emptySnapshot
}

// Add adds raw tools: the caller supplies InputSchema and a Handler that
// decodes the arguments itself. Add checks the name (ErrInvalidName), that
// it is not taken (ErrDuplicateTool), the description length, that the
// handler is non-nil, and that InputSchema is nil or a JSON object schema
// whose root "type" is "object" (ErrInvalidSchema).
//
// Add does not validate arguments against InputSchema: Execute only
// guarantees the handler gets one JSON object within the size limit, unless
// the Handler is wrapped by [CheckArguments] (opt-in). Tools made by
// [NewTool] carry a typed handler and get the full checks.
//
// Either all tools are added or, on any error, none is. Tools must not be
// modified after this call.
func (r *Registry) Add(tools ...Tool) error {
	return r.change("Add", nil, tools, callerSite())
}

// Replace removes the named tools and adds tools in one step: a concurrent
// Get, Tools or Execute sees the registry either before or after, never a
// tool missing in between (Remove then Add would leave such a moment).
// Names that are not registered are ignored; a tool may take the name of
// one removed. The tools are checked as by Add, and a name still taken
// after the removals is ErrDuplicateTool; on any error nothing changes.
// OnChange functions run once.
func (r *Registry) Replace(remove []string, add ...Tool) error {
	return r.change("Replace", remove, add, callerSite())
}

// change removes the named tools and adds tools, atomically for readers;
// op names the caller's method in errors.
func (r *Registry) change(op string, remove []string, tools []Tool, site string) error {
	if r == nil {
		return fmt.Errorf("toolnexus: %s on a nil *Registry: make one with NewRegistry (or use a Registry value)", op)
	}
	prepared := make([]*entry, 0, len(tools))
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		if err := checkTool(&t); err != nil {
			return err
		}
		if r.opts.CheckTool != nil {
			if err := r.opts.CheckTool(t); err != nil {
				return fmt.Errorf("toolnexus: %s: tool %q refused by Options.CheckTool (%s): %w", op, t.Name, site, err)
			}
		}
		if seen[t.Name] {
			return fmt.Errorf("%w: %q given twice in one %s (%s)", ErrDuplicateTool, t.Name, op, site)
		}
		seen[t.Name] = true
		_, typed := t.Handler.(typedMarker)
		if t.Source == "" {
			t.Source = "native"
		}
		e := &entry{tool: t, typed: typed, site: site, approver: r.opts.Approver}
		if t.MaxConcurrent > 0 {
			e.slots = make(chan struct{}, t.MaxConcurrent)
		}
		prepared = append(prepared, e)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.load()
	gone := make(map[string]bool, len(remove))
	for _, name := range remove {
		if _, ok := old.byName[name]; ok {
			gone[name] = true
		}
	}
	for _, e := range prepared {
		if prev, ok := old.byName[e.tool.Name]; ok && !gone[e.tool.Name] {
			return fmt.Errorf("%w: %q is already registered (first at %s, again at %s)",
				ErrDuplicateTool, e.tool.Name, prev.site, e.site)
		}
	}
	if len(gone) == 0 && len(prepared) == 0 {
		return nil
	}
	next := &snapshot{byName: make(map[string]*entry, len(old.byName)+len(prepared)-len(gone))}
	for k, v := range old.byName {
		if !gone[k] {
			next.byName[k] = v
		}
	}
	sorted := old.sorted
	if len(gone) > 0 {
		sorted = make([]Tool, 0, len(next.byName))
		for _, t := range old.sorted {
			if !gone[t.Name] {
				sorted = append(sorted, t)
			}
		}
	}
	added := make([]Tool, len(prepared))
	for i, e := range prepared {
		next.byName[e.tool.Name] = e
		added[i] = e.tool
	}
	next.sorted = mergeSorted(sorted, added)
	r.snap.Store(next)
	r.notify()
	return nil
}

// Remove removes the named tools; names that are not registered are
// ignored. It reports how many tools were removed.
func (r *Registry) Remove(names ...string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.load()
	n := 0
	next := &snapshot{byName: make(map[string]*entry, len(old.byName))}
	for k, v := range old.byName {
		next.byName[k] = v
	}
	for _, name := range names {
		if _, ok := next.byName[name]; ok {
			delete(next.byName, name)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	next.sorted = make([]Tool, 0, len(next.byName))
	for _, t := range old.sorted {
		if _, ok := next.byName[t.Name]; ok {
			next.sorted = append(next.sorted, t)
		}
	}
	r.snap.Store(next)
	r.notify()
	return n
}

// OnChange registers fn to be called after every Add or Remove that changed
// the registry (for example to send an MCP tools/list_changed notification).
// fn runs synchronously with the registry's write lock held, so it must not
// call Add or Remove. The returned function unregisters fn.
func (r *Registry) OnChange(fn func()) (cancel func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.subs == nil {
		r.subs = map[int]func(){}
	}
	id := r.next
	r.next++
	r.subs[id] = fn
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.subs, id)
	}
}

func (r *Registry) notify() {
	ids := make([]int, 0, len(r.subs))
	for id := range r.subs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		r.subs[id]()
	}
}

// mergeSorted merges new tools into an already sorted list in one pass (no
// re-sort of the whole registry on every Add).
func mergeSorted(sorted, added []Tool) []Tool {
	slices.SortFunc(added, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
	out := make([]Tool, 0, len(sorted)+len(added))
	i, j := 0, 0
	for i < len(sorted) && j < len(added) {
		if sorted[i].Name < added[j].Name {
			out = append(out, sorted[i])
			i++
		} else {
			out = append(out, added[j])
			j++
		}
	}
	out = append(out, sorted[i:]...)
	return append(out, added[j:]...)
}

// Get returns the tool registered under name.
func (r *Registry) Get(name string) (Tool, bool) {
	e, ok := r.load().byName[name]
	if !ok {
		return Tool{}, false
	}
	return e.tool, true
}

// Len returns the number of registered tools.
func (r *Registry) Len() int { return len(r.load().byName) }

// Tools returns a copy of the registered tools, sorted by name. The slice is
// the caller's; the InputSchema bytes are shared and must not be modified.
func (r *Registry) Tools() []Tool { return slices.Clone(r.load().sorted) }

// Names returns the registered tool names, sorted.
func (r *Registry) Names() []string {
	s := r.load().sorted
	out := make([]string, len(s))
	for i, t := range s {
		out[i] = t.Name
	}
	return out
}

// Execute runs the named tool with raw JSON arguments and always returns a
// Result; it never panics because of a tool or its arguments.
//
// Arguments "", whitespace and null mean {}. Anything else must be exactly
// one JSON object within Options.MaxArgumentBytes. For typed tools the
// schema's defaults are then applied, the arguments are checked against the
// compiled schema (every problem, with its JSON path), decoded, validated
// with the `validate` rules the schema cannot express, and the handler is
// called. Every failure is an error result (IsError true) whose Output
// names the field and the rule and whose Err holds the Go cause; a handler
// error with empty text gets the Output `tool "x" failed without an error
// message`:
//
//   - unknown tool: ErrUnknownTool; the Output lists the available tools
//   - invalid arguments: *ArgumentError (several joined with errors.Join)
//   - handler error: the handler's error
//   - handler panic: *PanicError with the stack; the Output is short
//   - timeout (Tool.Timeout, else Options.Timeout): context.DeadlineExceeded
//   - ctx cancelled or expired: ctx.Err()
//
// When ctx can be cancelled or a timeout applies, the handler runs in its own
// goroutine and Execute returns as soon as ctx is done even if the handler
// does not watch ctx (its late result is discarded); a handler that calls
// runtime.Goexit then gives an error result too. With a context that can
// never be cancelled and no timeout, the handler runs on the caller's
// goroutine (the fast path), where runtime.Goexit ends the caller's
// goroutine as it would from any function. The result is cut by
// [Result.Capped] at Options.MaxOutputBytes: Output and Content's text are
// valid UTF-8 (invalid bytes become U+FFFD) and within the limit.
func (r *Registry) Execute(ctx context.Context, name string, args json.RawMessage) Result {
	e, ok := r.load().byName[name]
	if !ok {
		return r.unknown(name)
	}
	limit := r.opts.MaxOutputBytes
	if limit == 0 {
		limit = DefaultMaxOutputBytes
	}
	media := r.opts.MaxMediaBytes
	if media == 0 {
		media = DefaultMaxMediaBytes
	}
	return r.run(ctx, e, args).mediaCapped(media).Capped(limit)
}

func (r *Registry) unknown(name string) Result {
	names := r.Names()
	const maxListed = 64
	more := ""
	if len(names) > maxListed {
		more = fmt.Sprintf(" and %d more", len(names)-maxListed)
		names = names[:maxListed]
	}
	list := "none"
	if len(names) > 0 {
		list = strings.Join(names, ", ") + more
	}
	shown := name
	if len(shown) > 80 || !utf8.ValidString(shown) {
		shown = strings.ToValidUTF8(truncate(shown, 80), "\uFFFD") + "…"
	}
	return Result{
		Output:  fmt.Sprintf("unknown tool %q; available tools: %s", shown, list),
		IsError: true,
		Err:     fmt.Errorf("%w: %q", ErrUnknownTool, name),
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

var emptyObject = json.RawMessage("{}")

func (r *Registry) run(ctx context.Context, e *entry, args json.RawMessage) Result {
	name := e.tool.Name
	if e.tool.Admit != nil {
		if err := e.tool.Admit(ctx); err != nil {
			return Result{Output: err.Error(), IsError: true, Err: err}
		}
	}
	limit := r.opts.MaxArgumentBytes
	if limit <= 0 {
		limit = DefaultMaxArgumentBytes
	}
	if len(args) > limit {
		return argumentsResult(name, []*ArgumentError{{Tool: name, Rule: "size", Param: fmt.Sprint(limit),
			Msg: fmt.Sprintf("arguments are %d bytes, more than the limit of %d bytes", len(args), limit)}})
	}
	args = normalizeArgs(args)
	if !e.typed {
		if p := argtype.CheckObject(args); p != nil {
			return problemsResult(name, []*argtype.Problem{p})
		}
	}
	timeout := e.tool.Timeout
	if timeout == 0 {
		timeout = r.opts.Timeout
	}
	if err := ctx.Err(); err != nil {
		return cancelled(name, err, 0, false)
	}
	if timeout <= 0 && ctx.Done() == nil {
		if e.slots != nil {
			e.slots <- struct{}{}
			defer func() { <-e.slots }()
		}
		return call(ctx, e, args) // fast path: nothing can interrupt the call
	}
	var expired error // the cause of this call's own timeout
	if timeout > 0 {
		expired = errors.New("timeout")
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, timeout, expired)
		defer cancel()
	}
	if e.slots != nil {
		select {
		case e.slots <- struct{}{}:
		case <-ctx.Done():
			return waitEnded(name, ctx, expired, timeout, cap(e.slots))
		}
	}
	done := make(chan Result, 1)
	go func() {
		sent := false
		defer func() {
			if e.slots != nil {
				<-e.slots // the handler has returned: its place is free
			}
			if !sent { // the handler called runtime.Goexit
				done <- Result{Output: fmt.Sprintf("tool %q failed: internal error", name), IsError: true,
					Err: fmt.Errorf("tool %q: the handler called runtime.Goexit", name)}
			}
		}()
		done <- call(ctx, e, args)
		sent = true
	}()
	select {
	case res := <-done:
		if !res.IsError || ctx.Err() == nil {
			return res
		}
	case <-ctx.Done():
	}
	if context.Cause(ctx) != expired {
		timeout = 0 // the caller's deadline or cancellation ended the call
	}
	return cancelled(name, ctx.Err(), timeout, true)
}

// waitEnded is the result of a call whose context or timeout ended while it
// waited for a place under Tool.MaxConcurrent (limit); its handler did not
// start.
func waitEnded(name string, ctx context.Context, expired error, timeout time.Duration, limit int) Result {
	err := ctx.Err()
	what := "was cancelled while waiting to start"
	switch {
	case context.Cause(ctx) == expired:
		what = fmt.Sprintf("timed out after %s waiting to start", timeout)
	case errors.Is(err, context.DeadlineExceeded):
		what = "did not run: the deadline passed while it waited to start"
	}
	msg := fmt.Sprintf("tool %q %s: it runs at most %d calls at once and all were busy", name, what, limit)
	return Result{Output: msg + "; try again later", IsError: true, Err: fmt.Errorf("%s: %w", msg, err)}
}

func cancelled(name string, err error, timeout time.Duration, started bool) Result {
	if errors.Is(err, context.DeadlineExceeded) && timeout > 0 {
		return Result{Output: fmt.Sprintf("tool %q timed out after %s", name, timeout), IsError: true,
			Err: fmt.Errorf("tool %q: timed out after %s: %w", name, timeout, err)}
	}
	what := "was cancelled before it started"
	if started {
		what = "was cancelled before it finished"
	}
	if errors.Is(err, context.DeadlineExceeded) {
		what = "did not run: the deadline passed before it started"
		if started {
			what = "did not finish before the deadline"
		}
	}
	return Result{Output: fmt.Sprintf("tool %q %s", name, what), IsError: true,
		Err: fmt.Errorf("tool %q: %w", name, err)}
}

func call(ctx context.Context, e *entry, args json.RawMessage) (res Result) {
	defer func() {
		if v := recover(); v != nil {
			pe := &PanicError{Tool: e.tool.Name, Value: v, Stack: debug.Stack()}
			res = Result{Output: fmt.Sprintf("tool %q failed: internal error", e.tool.Name), IsError: true, Err: pe}
		}
	}()
	if e.tool.Handler == nil {
		return Result{Output: fmt.Sprintf("tool %q has no handler", e.tool.Name), IsError: true,
			Err: fmt.Errorf("tool %q has no handler", e.tool.Name)}
	}
	if e.tool.NeedsApproval {
		g := &approvalGate{tool: e.tool.Name, approver: e.approver}
		if a, callID := approverFrom(ctx); a != nil || callID != "" {
			g.callID = callID
			if a != nil {
				g.approver = a
			}
		}
		if !e.typed {
			if r, stop := g.approve(ctx, args, nil); stop {
				return r
			}
		} else {
			ctx = context.WithValue(ctx, gateKey{}, g)
		}
	}
	res = e.tool.Handler.Call(ctx, args)
	if res.IsError && strings.TrimSpace(res.Output) == "" {
		// Anthropic refuses an is_error result with empty content, and the
		// model could not correct itself from it anyway.
		res.Output = fmt.Sprintf("tool %q failed without an error message", e.tool.Name)
	}
	return res
}

// normalizeArgs maps "", whitespace and null to {}.
func normalizeArgs(args json.RawMessage) json.RawMessage {
	if len(args) == 0 {
		return emptyObject
	}
	if args[0] == '{' {
		return args
	}
	t := bytes.Trim(args, " \t\r\n") // JSON whitespace only
	if len(t) == 0 || string(t) == "null" {
		return emptyObject
	}
	return args
}

// checkTool validates a tool's static fields.
func checkTool(t *Tool) error {
	if err := CheckName(t.Name); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(t.Description); n > MaxDescriptionLength {
		return fmt.Errorf("toolnexus: tool %q: description is %d characters, more than the limit of %d", t.Name, n, MaxDescriptionLength)
	}
	if t.Handler == nil {
		return fmt.Errorf("toolnexus: tool %q: Handler is nil", t.Name)
	}
	if t.MaxConcurrent < 0 {
		return fmt.Errorf("toolnexus: tool %q: MaxConcurrent is %d; give a positive limit, or 0 for none", t.Name, t.MaxConcurrent)
	}
	if t.InputSchema != nil && !schemaIsHandlers(t) {
		if err := checkObjectSchema(t.InputSchema); err != nil {
			return &wrapError{msg: fmt.Sprintf("toolnexus: tool %q: invalid input schema: %v", t.Name, err), target: ErrInvalidSchema}
		}
	}
	return nil
}

// schemaOwner is a handler that carries the schema it checks arguments
// against (typed handlers: reflected and compiled by argtype).
type schemaOwner interface{ argSchema() json.RawMessage }

// schemaIsHandlers reports that t.InputSchema is the very schema its typed
// handler was built with (the same bytes in memory, which NewTool
// reflected and compiled), so Add need not parse it again. A typed handler
// given other schema bytes gets the full check.
func schemaIsHandlers(t *Tool) bool {
	h, ok := t.Handler.(schemaOwner)
	if !ok {
		return false
	}
	s := h.argSchema()
	return len(s) > 0 && len(s) == len(t.InputSchema) && &s[0] == &t.InputSchema[0]
}

// MaxSchemaDepth is the deepest nesting of JSON arrays and objects accepted
// in a raw tool's InputSchema (MCP's SDK refuses more than 1000 levels; no
// real schema comes near).
const MaxSchemaDepth = 512

// checkObjectSchema checks a raw tool's schema: valid UTF-8, one JSON
// object with "type":"object" at the root, no duplicate keys anywhere (a
// decoder would keep one of them silently), at most MaxSchemaDepth levels.
func checkObjectSchema(raw json.RawMessage) error {
	if !utf8.Valid(raw) {
		return errors.New("schema is not valid UTF-8")
	}
	if s := argtype.CheckObject(raw); s != nil {
		msg := strings.NewReplacer("arguments are", "the schema is", "arguments have", "the schema has", "arguments", "the schema").Replace(s.Msg)
		return errors.New(strings.TrimSuffix(msg, " (send exactly one JSON object)"))
	}
	tree, err := jsonx.Parse(raw)
	if err != nil {
		return fmt.Errorf("schema is not valid JSON: %v", err)
	}
	root, ok := tree.(*jsonx.Object)
	if !ok {
		return errors.New("schema is not a JSON object")
	}
	if err := checkSchemaTree(root, "", 0); err != nil {
		return err
	}
	if t, _ := root.Get("type"); t != "object" {
		return fmt.Errorf(`schema root must have "type":"object", got %s`, jsonx.Marshal(t))
	}
	return nil
}

func checkSchemaTree(v any, path string, depth int) error {
	if depth > MaxSchemaDepth {
		return fmt.Errorf("schema is nested more than %d levels deep at %s", MaxSchemaDepth, path)
	}
	switch x := v.(type) {
	case *jsonx.Object:
		seen := make(map[string]bool, len(x.Keys))
		for i, k := range x.Keys {
			if seen[k] {
				return fmt.Errorf("schema has the key %q twice at %s", k, orRoot(path))
			}
			seen[k] = true
			if err := checkSchemaTree(x.Vals[i], path+"/"+k, depth+1); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := checkSchemaTree(e, fmt.Sprintf("%s/%d", path, i), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func orRoot(path string) string {
	if path == "" {
		return "the root"
	}
	return path
}

// CheckName reports whether name is a valid tool name: 1 to 64 characters of
// [a-zA-Z0-9_-], the pattern OpenAI (function.name) and Anthropic
// (tools[].name, ^[a-zA-Z0-9_-]{1,64}$) both document. The error wraps
// ErrInvalidName.
func CheckName(name string) error {
	if len(name) == 0 || len(name) > 64 {
		return fmt.Errorf("%w %q: must be 1 to 64 characters of [a-zA-Z0-9_-], got %d bytes", ErrInvalidName, name, len(name))
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("%w %q: character %q at byte %d is not one of [a-zA-Z0-9_-]", ErrInvalidName, name, rune(c), i)
		}
	}
	return nil
}

func callerSite() string {
	var pcs [16]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		// Skip frames of this package (not its tests), to name the caller.
		fn := f.Function
		if !strings.HasPrefix(fn, "github.com/toolnexus/toolnexus.") || strings.HasSuffix(f.File, "_test.go") {
			file := f.File
			if i := strings.LastIndexByte(file, '/'); i >= 0 {
				if j := strings.LastIndexByte(file[:i], '/'); j >= 0 {
					file = file[j+1:]
				}
			}
			return fmt.Sprintf("%s:%d", file, f.Line)
		}
		if !more {
			return "unknown"
		}
	}
}
