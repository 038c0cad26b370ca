package mcp

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of [TaskOptions], used when a field is zero.
const (
	// DefaultTaskTTL is the default TaskOptions.MaxTTL.
	DefaultTaskTTL = time.Hour
	// DefaultMaxTasks is the default TaskOptions.MaxTasks.
	DefaultMaxTasks = 100
	// DefaultTaskPollInterval is the default TaskOptions.PollInterval.
	DefaultTaskPollInterval = time.Second
)

// TaskOptions lets clients of the 2025-11-25 revision call the served
// tools as tasks (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks):
// the server advertises the tasks capability (tools/call, list, cancel)
// and lists every tool with execution.taskSupport "optional", or
// "required" for the tools named in Required. A tools/call with a "task"
// member is answered at once with the task (status "working"); the call
// runs on, through the registry as any call does, and its result is kept
// for tasks/result until its TTL has passed since it was created.
// tasks/get and tasks/list report the status ("working", then
// "completed", or "failed" for an error result or error, or "cancelled"),
// tasks/cancel cancels the call's context. A client sees only the tasks
// its session created, sessions without an ID (stdio, Run) included, and
// the tasks of a session that ends are cancelled and dropped (in
// stateless mode, where there are no sessions, every client sees every
// task). A call of a tool in Required without a
// task is the JSON-RPC error -32601, as the revision asks.
type TaskOptions struct {
	// MaxTTL is the longest a task and its result are kept, from its
	// creation; a client that asks for longer, or for no TTL, gets MaxTTL.
	// Zero means DefaultTaskTTL (1 hour). A task still running at its end
	// is cancelled.
	MaxTTL time.Duration
	// MaxTasks bounds the tasks kept at once, running or finished; a
	// tools/call as a task past it is the JSON-RPC error -32603 saying so.
	// Zero means DefaultMaxTasks (100).
	MaxTasks int
	// PollInterval is the interval between polls of tasks/get the server
	// suggests. Zero means DefaultTaskPollInterval (1 second).
	PollInterval time.Duration
	// Required names the tools that may only be called as tasks.
	Required []string
}

// taskMetaKey is where the server moves the "task" member of a tools/call's
// params (see liftTask): the SDK decodes params into a struct without it,
// and keeps _meta.
const taskMetaKey = "toolnexus/task"

// relatedTaskKey is the _meta key of a result that belongs to a task.
const relatedTaskKey = "io.modelcontextprotocol/related-task"

// liftTask returns msg, a JSON-RPC message, with the "task" member of a
// tools/call's params copied to params._meta[taskMetaKey]; any other
// message, or one that is not a JSON object, is returned unchanged.
func liftTask(msg []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil || string(m["method"]) != `"tools/call"` {
		return msg
	}
	params, ok := taskToMeta(m["params"])
	if !ok {
		return msg
	}
	m["params"] = params
	out, err := json.Marshal(m)
	if err != nil {
		return msg
	}
	return out
}

// taskToMeta returns the JSON object raw with its "task" member copied
// to _meta[taskMetaKey] (a tools/call's params on the server, the answer
// to one on the client); ok is false when it has none.
func taskToMeta(raw json.RawMessage) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m["task"] == nil {
		return raw, false
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(m["_meta"], &meta) != nil || meta == nil {
		meta = map[string]json.RawMessage{}
	}
	meta[taskMetaKey] = m["task"]
	return remarshal(m, "_meta", meta)
}

// metaToTask returns the JSON object raw with _meta[taskMetaKey] moved to
// its "task" member (a tools/call's params the loader sends); ok is false
// when _meta holds none.
func metaToTask(raw json.RawMessage) (json.RawMessage, bool) {
	var m, meta map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || json.Unmarshal(m["_meta"], &meta) != nil || meta[taskMetaKey] == nil {
		return raw, false
	}
	m["task"] = meta[taskMetaKey]
	delete(meta, taskMetaKey)
	if len(meta) == 0 {
		delete(m, "_meta")
		return remarshal(m, "", nil)
	}
	return remarshal(m, "_meta", meta)
}

// remarshal encodes m with its member key set to v (none when key is "").
func remarshal(m map[string]json.RawMessage, key string, v any) (json.RawMessage, bool) {
	if key != "" {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, false
		}
		m[key] = b
	}
	out, err := json.Marshal(m)
	return out, err == nil
}

// taskTransport lifts the task of each tools/call read from inner (see
// liftTask).
type taskTransport struct{ inner mcpsdk.Transport }

func (t taskTransport) Connect(ctx context.Context) (mcpsdk.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return taskConn{c}, nil
}

type taskConn struct{ mcpsdk.Connection }

func (c taskConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if r, ok := m.(*jsonrpc.Request); ok && err == nil && r.Method == "tools/call" {
		r.Params, _ = taskToMeta(r.Params)
	}
	return m, err
}

// taskStore holds the tasks of a Server.
type taskStore struct {
	maxTTL    time.Duration
	max       int
	poll      time.Duration
	required  map[string]bool
	stateless bool // ServerOptions.Stateless: HTTP sessions last one request

	mu      sync.Mutex
	byID    map[string]*task
	watched map[*mcpsdk.ServerSession]bool // sessions whose end drops their tasks
}

func newTaskStore(o *TaskOptions, stateless bool) *taskStore {
	ts := &taskStore{maxTTL: limit(o.MaxTTL, DefaultTaskTTL), max: limit(o.MaxTasks, DefaultMaxTasks),
		poll: limit(o.PollInterval, DefaultTaskPollInterval), required: map[string]bool{}, byID: map[string]*task{},
		stateless: stateless, watched: map[*mcpsdk.ServerSession]bool{}}
	for _, n := range o.Required {
		ts.required[n] = true
	}
	return ts
}

// task is one task; its fields after id are guarded by taskStore.mu.
type task struct {
	id      string
	owner   any // see ownerOf
	created time.Time
	ttl     time.Duration
	cancel  context.CancelFunc
	expire  *time.Timer   // ends the task at its TTL; set under taskStore.mu
	done    chan struct{} // closed once the task is terminal

	status, message string
	updated         time.Time
	result          mcpsdk.Result
	err             error
}

// wireTask is a task as the 2025-11-25 revision sends it.
type wireTask struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt"`
	LastUpdatedAt string `json:"lastUpdatedAt"`
	TTL           int64  `json:"ttl"`          // milliseconds
	PollInterval  int64  `json:"pollInterval"` // milliseconds
}

// createTaskResult answers a tools/call made as a task.
type createTaskResult struct {
	mcpsdk.ResultBase
	Task wireTask `json:"task"`
}

// taskResult answers tasks/get and tasks/cancel: the task's members at the
// top level.
type taskResult struct {
	mcpsdk.ResultBase
	wireTask
}

// listTasksResult answers tasks/list.
type listTasksResult struct {
	mcpsdk.ResultBase
	Tasks []wireTask `json:"tasks"`
}

// taskIDParams are the params of tasks/get, tasks/result and tasks/cancel.
type taskIDParams struct {
	mcpsdk.ParamsBase
	TaskID string `json:"taskId"`
}

// listTasksParams are the params of tasks/list.
type listTasksParams struct {
	mcpsdk.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

// wire is t as sent; the caller holds taskStore.mu.
func (ts *taskStore) wire(t *task) wireTask {
	return wireTask{TaskID: t.id, Status: t.status, StatusMessage: t.message,
		CreatedAt: t.created.UTC().Format(time.RFC3339Nano), LastUpdatedAt: t.updated.UTC().Format(time.RFC3339Nano),
		TTL: t.ttl.Milliseconds(), PollInterval: ts.poll.Milliseconds()}
}

// start runs run as a new task of owner, kept for the ttl asked (capped at
// maxTTL; spec is the tools/call's task member, {"ttl": ms}).
func (ts *taskStore) start(ctx context.Context, owner any, spec any, run func(context.Context) (mcpsdk.Result, error)) (wireTask, error) {
	ttl := ts.maxTTL
	m, ok := spec.(map[string]any)
	if !ok {
		return wireTask{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("params.task must be an object such as {\"ttl\": 60000}, not %s", jsonKind(spec))}
	}
	if v, ok := m["ttl"]; ok {
		ms, ok := v.(float64)
		if !ok || ms < 0 {
			return wireTask{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "params.task.ttl must be a number of milliseconds, 0 or more"}
		}
		// Compared as milliseconds: a huge ttl must not overflow a Duration.
		if ms > 0 && ms < float64(ttl.Milliseconds()) {
			ttl = time.Duration(ms * float64(time.Millisecond))
		}
	}
	ctx, cancel := context.WithCancel(context.WithValue(context.WithoutCancel(ctx), inTaskKey{}, true))
	now := time.Now()
	t := &task{id: rand.Text(), owner: owner, created: now, ttl: ttl, cancel: cancel, done: make(chan struct{}),
		status: "working", updated: now}
	ts.mu.Lock()
	if len(ts.byID) >= ts.max {
		ts.mu.Unlock()
		cancel()
		return wireTask{}, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("too many tasks: %d are kept (TaskOptions.MaxTasks); cancel one or wait for one to expire", ts.max)}
	}
	ts.byID[t.id] = t
	w := ts.wire(t)
	if ss, ok := owner.(*mcpsdk.ServerSession); ok && !ts.watched[ss] {
		ts.watched[ss] = true
		go func() {
			_ = ss.Wait()
			ts.drop(ss)
		}()
	}
	t.expire = time.AfterFunc(ttl, func() {
		cancel()
		ts.mu.Lock()
		delete(ts.byID, t.id)
		ts.mu.Unlock()
	})
	ts.mu.Unlock()
	go func() {
		res, err := run(ctx)
		ts.finish(t, res, err)
	}()
	return w, nil
}

// drop cancels and forgets the tasks of ss, a session that ended: nobody
// can reach them any more.
func (ts *taskStore) drop(ss *mcpsdk.ServerSession) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	delete(ts.watched, ss)
	for id, t := range ts.byID {
		if t.owner == any(ss) {
			t.cancel()
			t.expire.Stop() // it holds t, result included, until the TTL
			delete(ts.byID, id)
		}
	}
}

// jsonKind names the JSON type of v, a decoded JSON value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64, json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}

// finish records the end of t's run, unless it was cancelled first.
func (ts *taskStore) finish(t *task, res mcpsdk.Result, err error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t.status != "working" {
		return
	}
	t.result, t.err, t.status, t.updated = res, err, "completed", time.Now()
	if err != nil {
		t.status, t.message = "failed", err.Error()
	} else if cr, ok := res.(*mcpsdk.CallToolResult); ok && cr.IsError {
		t.status, t.message = "failed", firstText(cr)
	}
	close(t.done)
}

func firstText(r *mcpsdk.CallToolResult) string {
	for _, c := range r.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			return tc.Text
		}
	}
	return "the tool failed"
}

// get returns the task p.TaskID of owner, or the JSON-RPC error -32602.
func (ts *taskStore) get(owner any, p *taskIDParams) (*task, error) {
	if p == nil || p.TaskID == "" {
		// A request without params (or with "params": null) has p nil.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "params.taskId is missing"}
	}
	id := p.TaskID
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t, ok := ts.byID[id]
	if !ok || t.owner != owner {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown task %q", id)}
	}
	return t, nil
}

// ownerKey is the context key of the owner of a tasks/* request (see
// ownerOf), set by callMiddleware.
type ownerKey struct{}

// ownerOf is whose tasks req's session sees: over stateless HTTP, where a
// session lasts one request, its session ID ("" without one: every client
// sees every task); otherwise the session itself, so two sessions without
// IDs (stdio, Run) do not share their tasks.
func (ts *taskStore) ownerOf(req mcpsdk.Request) any {
	ss, _ := req.GetSession().(*mcpsdk.ServerSession)
	if ss == nil {
		return ""
	}
	if ex := req.GetExtra(); ts.stateless && ex != nil && ex.Header != nil {
		return ss.ID()
	}
	return ss
}

// owner is the owner callMiddleware put in ctx, or ss itself.
func owner(ctx context.Context, ss *mcpsdk.ServerSession) any {
	if o, ok := ctx.Value(ownerKey{}).(ownerBox); ok {
		return o.v
	}
	if ss == nil {
		return ""
	}
	return ss
}

// ownerBox holds an owner in a context (a nil interface would be lost).
type ownerBox struct{ v any }

// addTaskMethods adds tasks/get, tasks/result, tasks/cancel and tasks/list
// to srv.
func (ts *taskStore) addTaskMethods(srv *mcpsdk.Server) {
	must := func(err error) {
		if err != nil {
			panic("mcp: adding the task methods: " + err.Error()) // static names: cannot happen
		}
	}
	must(mcpsdk.AddReceivingCustomMethod(srv, "tasks/get", func(ctx context.Context, ss *mcpsdk.ServerSession, p *taskIDParams) (*taskResult, error) {
		t, err := ts.get(owner(ctx, ss), p)
		if err != nil {
			return nil, err
		}
		ts.mu.Lock()
		defer ts.mu.Unlock()
		return &taskResult{wireTask: ts.wire(t)}, nil
	}))
	must(mcpsdk.AddReceivingCustomMethod(srv, "tasks/result", func(ctx context.Context, ss *mcpsdk.ServerSession, p *taskIDParams) (mcpsdk.Result, error) {
		t, err := ts.get(owner(ctx, ss), p)
		if err != nil {
			return nil, err
		}
		select {
		case <-t.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		ts.mu.Lock()
		defer ts.mu.Unlock()
		if t.status == "cancelled" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("task %q was cancelled", t.id)}
		}
		if t.err != nil {
			return nil, t.err
		}
		if cr, ok := t.result.(*mcpsdk.CallToolResult); ok {
			out := *cr
			meta := map[string]any{}
			for k, v := range cr.Meta {
				meta[k] = v
			}
			meta[relatedTaskKey] = map[string]string{"taskId": t.id}
			out.Meta = meta
			return &out, nil
		}
		return t.result, nil
	}))
	must(mcpsdk.AddReceivingCustomMethod(srv, "tasks/cancel", func(ctx context.Context, ss *mcpsdk.ServerSession, p *taskIDParams) (*taskResult, error) {
		t, err := ts.get(owner(ctx, ss), p)
		if err != nil {
			return nil, err
		}
		ts.mu.Lock()
		defer ts.mu.Unlock()
		if t.status != "working" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("task %q is already %s", t.id, t.status)}
		}
		t.status, t.message, t.updated = "cancelled", "cancelled by the client", time.Now()
		t.cancel()
		close(t.done)
		return &taskResult{wireTask: ts.wire(t)}, nil
	}))
	must(mcpsdk.AddReceivingCustomMethod(srv, "tasks/list", func(ctx context.Context, ss *mcpsdk.ServerSession, _ *listTasksParams) (*listTasksResult, error) {
		who := owner(ctx, ss)
		ts.mu.Lock()
		defer ts.mu.Unlock()
		out := &listTasksResult{Tasks: []wireTask{}}
		for _, t := range ts.byID {
			if t.owner == who {
				out.Tasks = append(out.Tasks, ts.wire(t))
			}
		}
		slices.SortFunc(out.Tasks, func(a, b wireTask) int { return strings.Compare(a.CreatedAt+a.TaskID, b.CreatedAt+b.TaskID) })
		return out, nil
	}))
}

// inTaskKey marks the context of a call that runs as a task: it outlives
// the request that started it.
type inTaskKey struct{}

// callMiddleware runs a tools/call whose params carry a task as that task
// and answers with it at once; a call without one of a tool in Required
// is the JSON-RPC error -32601.
func (ts *taskStore) callMiddleware(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
	return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
		if strings.HasPrefix(method, "tasks/") {
			ctx = context.WithValue(ctx, ownerKey{}, ownerBox{ts.ownerOf(req)})
		}
		p, ok := req.GetParams().(*mcpsdk.CallToolParamsRaw)
		if method != "tools/call" || !ok || p == nil {
			return next(ctx, method, req)
		}
		spec, asked := p.Meta[taskMetaKey]
		if !asked {
			if ts.required[p.Name] {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
					Message: fmt.Sprintf("tool %q must be called as a task (its execution.taskSupport is \"required\")", p.Name)}
			}
			return next(ctx, method, req)
		}
		delete(p.Meta, taskMetaKey)
		w, err := ts.start(ctx, ts.ownerOf(req), spec, func(ctx context.Context) (mcpsdk.Result, error) { return next(ctx, method, req) })
		if err != nil {
			return nil, err
		}
		return &createTaskResult{Task: w}, nil
	}
}

// shapeMiddleware adds to the answers what the SDK's types cannot carry:
// the tasks capability to initialize, and each tool's execution to
// tools/list.
func (ts *taskStore) shapeMiddleware(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
	return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcpsdk.InitializeResult:
			if r != nil {
				return &initWithTasks{r}, nil
			}
		case *mcpsdk.ListToolsResult:
			if r != nil {
				return &toolsWithExecution{r, ts.required}, nil
			}
		}
		return res, err
	}
}

// initWithTasks is an initialize result whose capabilities include tasks.
type initWithTasks struct{ *mcpsdk.InitializeResult }

func (r *initWithTasks) MarshalJSON() ([]byte, error) {
	return withMembers(r.InitializeResult, func(m map[string]json.RawMessage) error {
		var caps map[string]json.RawMessage
		if err := json.Unmarshal(m["capabilities"], &caps); err != nil || caps == nil {
			caps = map[string]json.RawMessage{}
		}
		caps["tasks"] = json.RawMessage(`{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}`)
		b, err := json.Marshal(caps)
		m["capabilities"] = b
		return err
	})
}

// toolsWithExecution is a tools/list result whose tools say their task
// support.
type toolsWithExecution struct {
	*mcpsdk.ListToolsResult
	required map[string]bool
}

func (r *toolsWithExecution) MarshalJSON() ([]byte, error) {
	return withMembers(r.ListToolsResult, func(m map[string]json.RawMessage) error {
		var tools []map[string]json.RawMessage
		if err := json.Unmarshal(m["tools"], &tools); err != nil {
			return err
		}
		for _, t := range tools {
			var name string
			_ = json.Unmarshal(t["name"], &name)
			support := `"optional"`
			if r.required[name] {
				support = `"required"`
			}
			t["execution"] = json.RawMessage(`{"taskSupport":` + support + `}`)
		}
		b, err := json.Marshal(tools)
		m["tools"] = b
		return err
	})
}

// withMembers is v's JSON object after edit changed its members.
func withMembers(v any, edit func(map[string]json.RawMessage) error) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if err := edit(m); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// The loader's side: a tool listed with execution.taskSupport "required"
// is called as a task (callTask). The SDK client cannot send a tools/call
// with a task member nor read the task it is answered with, so
// taskClientTransport carries the one from _meta[taskMetaKey] into
// params.task on the way out and the other from result.task into
// result._meta[taskMetaKey] on the way in.

// taskCancelTimeout bounds the tasks/cancel sent for a call whose context
// ended while its task ran.
const taskCancelTimeout = 5 * time.Second

// addTaskCalls lets client send tasks/result and tasks/cancel.
func addTaskCalls(client *mcpsdk.Client) {
	if err := mcpsdk.AddSendingCustomMethod[*taskIDParams, *mcpsdk.CallToolResult](client, "tasks/result"); err != nil {
		panic("mcp: " + err.Error()) // static names: cannot happen
	}
	if err := mcpsdk.AddSendingCustomMethod[*taskIDParams, *taskResult](client, "tasks/cancel"); err != nil {
		panic("mcp: " + err.Error())
	}
}

// callTask calls tool as a task: tools/call with a task member, then
// tasks/result, which the server answers once the task has ended, with
// the tool's result. When ctx ends first the task is cancelled. A server
// that answers the tools/call with a result instead of a task (it ignored
// the task member) gives that result.
func callTask(ctx context.Context, session *mcpsdk.ClientSession, tool string, args json.RawMessage) (*mcpsdk.CallToolResult, error) {
	res, err := session.CallTool(ctx, &mcpsdk.CallToolParams{Name: tool, Arguments: args,
		Meta: mcpsdk.Meta{taskMetaKey: map[string]any{}}})
	if err != nil {
		return nil, err
	}
	t, _ := res.Meta[taskMetaKey].(map[string]any)
	id, _ := t["taskId"].(string)
	if id == "" {
		return res, nil
	}
	out, err := mcpsdk.CallCustomMethod[*taskIDParams, *mcpsdk.CallToolResult](ctx, session, "tasks/result", &taskIDParams{TaskID: id})
	if ctx.Err() != nil {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), taskCancelTimeout)
		defer cancel()
		_, _ = mcpsdk.CallCustomMethod[*taskIDParams, *taskResult](cctx, session, "tasks/cancel", &taskIDParams{TaskID: id})
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", id, err)
	}
	return out, nil
}

// taskClientTransport carries task members the SDK client's types cannot
// (see callTask).
type taskClientTransport struct{ inner mcpsdk.Transport }

func (t taskClientTransport) Connect(ctx context.Context) (mcpsdk.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &taskClientConn{Connection: c, calls: map[jsonrpc.ID]bool{}}, nil
}

type taskClientConn struct {
	mcpsdk.Connection
	mu    sync.Mutex
	calls map[jsonrpc.ID]bool // ids of tools/calls made as tasks, in flight
}

func (c *taskClientConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "notifications/cancelled" && !req.IsCall() {
		// The SDK gave up on a call (its context ended): its answer, if
		// it ever comes, is not read, so forget it.
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
				c.mu.Lock()
				delete(c.calls, id)
				c.mu.Unlock()
			}
		}
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/call" && req.IsCall() {
		if params, ok := metaToTask(req.Params); ok {
			cp := *req
			cp.Params = params
			c.mu.Lock()
			c.calls[req.ID] = true
			c.mu.Unlock()
			msg = &cp
		}
	}
	return c.Connection.Write(ctx, msg)
}

func (c *taskClientConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.mu.Lock()
		mine := c.calls[resp.ID]
		delete(c.calls, resp.ID)
		c.mu.Unlock()
		if mine && resp.Error == nil {
			if result, ok := taskToMeta(resp.Result); ok {
				resp.Result = result
			}
		}
	}
	return msg, err
}

// The streamable HTTP client's connection cannot be wrapped (the SDK
// looks for methods of its own on it), so over HTTP the same two moves
// happen in the request and response bodies (headerTransport): taskRequest
// rewrites a tools/call made as a task, taskBody its answer.

// maxTaskAnswer is the most bytes of the answer to a tools/call made as a
// task that is read to be rewritten; a longer answer (a task is a few
// hundred bytes) passes unchanged, without a task id.
const maxTaskAnswer = 64 << 10

// taskRequest returns body, one JSON-RPC message, with a tools/call's
// _meta[taskMetaKey] moved to params.task, and the call's id; ok is false
// for any other body.
func taskRequest(body []byte) (out []byte, id json.RawMessage, ok bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || string(m["method"]) != `"tools/call"` || m["id"] == nil {
		return body, nil, false
	}
	params, ok := metaToTask(m["params"])
	if !ok {
		return body, nil, false
	}
	m["params"] = params
	out, err := json.Marshal(m)
	if err != nil {
		return body, nil, false
	}
	return out, m["id"], true
}

// taskAnswer returns msg with taskToMeta applied to its result when msg is
// the response to id.
func taskAnswer(msg []byte, id json.RawMessage) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil || m["result"] == nil || !sameJSONValue(m["id"], id) {
		return msg
	}
	result, ok := taskToMeta(m["result"])
	if !ok {
		return msg
	}
	m["result"] = result
	out, err := json.Marshal(m)
	if err != nil {
		return msg
	}
	return out
}

// sameJSONValue reports whether a and b are the same JSON id (a number or
// a string), white space aside.
func sameJSONValue(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && x == y
}

// taskBody is the body of the answer to the tools/call id made as a task,
// with taskAnswer applied to the message that answers it: a JSON body
// whole, or each "data:" line of an event stream.
type taskBody struct {
	io.ReadCloser
	r    *bufio.Reader
	sse  bool
	id   json.RawMessage
	out  []byte
	err  error
	pass bool // an over-long line or body: the rest passes unchanged
}

func newTaskBody(rc io.ReadCloser, sse bool, id json.RawMessage) *taskBody {
	return &taskBody{ReadCloser: rc, r: bufio.NewReaderSize(rc, maxTaskAnswer), sse: sse, id: id}
}

func (b *taskBody) Read(p []byte) (int, error) {
	for len(b.out) == 0 && b.err == nil {
		b.fill()
	}
	if len(b.out) > 0 {
		n := copy(p, b.out)
		b.out = b.out[n:]
		return n, nil
	}
	return 0, b.err
}

func (b *taskBody) fill() {
	if b.pass {
		buf := make([]byte, 32<<10)
		n, err := b.r.Read(buf)
		b.out, b.err = buf[:n], err
		return
	}
	if !b.sse {
		data, err := io.ReadAll(io.LimitReader(b.r, maxTaskAnswer+1))
		if err == nil && len(data) <= maxTaskAnswer {
			data, err = taskAnswer(data, b.id), io.EOF
		} else {
			b.pass = true
		}
		b.out, b.err = data, err
		return
	}
	line, err := b.r.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		b.out, b.pass = slices.Clone(line), true
		return
	case bytes.HasPrefix(line, []byte("data:")):
		data := bytes.TrimSpace(line[len("data:"):])
		if out := taskAnswer(data, b.id); !bytes.Equal(out, data) {
			line = append(append([]byte("data: "), out...), '\n')
		}
	}
	b.out, b.err = slices.Clone(line), err
}
