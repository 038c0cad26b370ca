package mcp

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
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

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonlex"
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
	if !bytes.Contains(msg, []byte(`"task"`)) {
		return msg // most messages: no decoding
	}
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
	if !bytes.Contains(raw, []byte(`"task"`)) {
		return raw, false // most calls: no decoding
	}
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
	if !bytes.Contains(raw, []byte(taskMetaKey)) {
		return raw, false // most calls: no decoding
	}
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

// taskStore holds the tasks of a Server. Their records live in a
// toolnexus.Store (ServerOptions.Store, else one in memory), so replicas
// sharing a store serve each other's tasks: any replica reads a task,
// fetches its result and cancels it; the replica that runs a task keeps a
// lease on it while it runs, and a task whose lease ran out (its replica
// stopped) is reported failed by whoever looks next.
type taskStore struct {
	maxTTL    time.Duration
	max       int
	poll      time.Duration
	required  map[string]bool
	stateless bool // ServerOptions.Stateless: HTTP sessions last one request
	store     toolnexus.Store
	replica   string // this process's name in leases

	mu     sync.Mutex
	local  map[string]*localTask            // tasks this replica started, until their TTL
	owners map[*mcpsdk.ServerSession]string // owner names of sessions without IDs
}

// Lease timing: a running task's lease is renewed every taskLeaseEvery
// and lasts taskLease, so a replica that stops is noticed within
// taskLease; the renewal also looks for a cancel from another replica.
const (
	taskLease      = 10 * time.Second
	taskLeaseEvery = 2 * time.Second
)

func newTaskStore(o *TaskOptions, stateless bool, store toolnexus.Store) *taskStore {
	ts := &taskStore{maxTTL: limit(o.MaxTTL, DefaultTaskTTL), max: limit(o.MaxTasks, DefaultMaxTasks),
		poll: limit(o.PollInterval, DefaultTaskPollInterval), required: map[string]bool{}, stateless: stateless,
		store: store, replica: rand.Text(), local: map[string]*localTask{}, owners: map[*mcpsdk.ServerSession]string{}}
	for _, n := range o.Required {
		ts.required[n] = true
	}
	return ts
}

// localTask is a task this replica started: what only this process can
// do to it.
type localTask struct {
	owner  string
	cancel context.CancelFunc
	expire *time.Timer   // forgets the task at its TTL
	done   chan struct{} // closed once its run ended and its record says so
}

// taskRecord is a task as the store keeps it (JSON).
type taskRecord struct {
	ID      string          `json:"id"`
	Owner   string          `json:"owner"`
	Status  string          `json:"status"`
	Message string          `json:"message,omitempty"`
	Created time.Time       `json:"created"`
	Updated time.Time       `json:"updated"`
	TTL     int64           `json:"ttl"`              // milliseconds
	Result  json.RawMessage `json:"result,omitempty"` // the CallToolResult
	ErrCode int64           `json:"errCode,omitempty"`
	Err     string          `json:"err,omitempty"` // the call's JSON-RPC error
}

func taskKey(owner, id string) string {
	return taskPrefix(owner) + id
}

// taskPrefix is where owner's tasks are kept (a digest, so an owner's name
// never reaches the store's keys).
func taskPrefix(owner string) string {
	sum := sha256.Sum256([]byte(owner))
	return "toolnexus/task/" + hex.EncodeToString(sum[:12]) + "/"
}

func leaseKey(id string) string { return "toolnexus/task-lease/" + id }

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

// wire is r as sent.
func (ts *taskStore) wire(r *taskRecord) wireTask {
	return wireTask{TaskID: r.ID, Status: r.Status, StatusMessage: r.Message,
		CreatedAt: r.Created.UTC().Format(time.RFC3339Nano), LastUpdatedAt: r.Updated.UTC().Format(time.RFC3339Nano),
		TTL: r.TTL, PollInterval: ts.poll.Milliseconds()}
}

// storeTimeout bounds one store operation made for a task.
const storeTimeout = 5 * time.Second

func storeErr(err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task store failed: " + err.Error()}
}

// start runs run as a new task of owner, kept for the ttl asked (capped at
// maxTTL; spec is the tools/call's task member, {"ttl": ms}).
func (ts *taskStore) start(ctx context.Context, owner string, spec any, run func(context.Context) (mcpsdk.Result, error)) (wireTask, error) {
	ttl := ts.maxTTL
	m, ok := spec.(map[string]any)
	if !ok {
		return wireTask{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("params.task must be an object such as {\"ttl\": 60000}, not %s", kindOf(spec))}
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
	now := time.Now()
	rec := &taskRecord{ID: rand.Text(), Owner: owner, Status: "working", Created: now, Updated: now, TTL: ttl.Milliseconds()}
	ts.mu.Lock()
	if len(ts.local) >= ts.max {
		ts.mu.Unlock()
		return wireTask{}, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("too many tasks: %d are kept (TaskOptions.MaxTasks); cancel one or wait for one to expire", ts.max)}
	}
	runCtx, cancel := context.WithCancel(context.WithValue(context.WithoutCancel(ctx), inTaskKey{}, true))
	lt := &localTask{owner: owner, cancel: cancel, done: make(chan struct{})}
	ts.local[rec.ID] = lt
	ts.mu.Unlock()
	sctx, scancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer scancel()
	b, _ := json.Marshal(rec)
	err := ts.store.Put(sctx, taskKey(owner, rec.ID), b, ttl)
	if err == nil {
		err = ts.store.Put(sctx, leaseKey(rec.ID), []byte(ts.replica), taskLease)
	}
	if err != nil {
		cancel()
		ts.forget(rec.ID)
		return wireTask{}, storeErr(err)
	}
	ts.mu.Lock()
	if ts.local[rec.ID] != lt {
		// The session ended (drop) while the record was being stored:
		// drop deleted what was there then, so delete what came after.
		ts.mu.Unlock()
		cancel()
		_ = ts.store.Delete(sctx, taskKey(owner, rec.ID))
		_ = ts.store.Delete(sctx, leaseKey(rec.ID))
		return wireTask{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "the session ended before its task could start"}
	}
	lt.expire = time.AfterFunc(ttl, func() { cancel(); ts.forget(rec.ID) }) // under mu: drop and forget read it
	ts.mu.Unlock()
	go ts.keepLease(runCtx, owner, rec.ID, cancel)
	go func() {
		res, err := run(runCtx)
		ts.finish(owner, rec.ID, res, err)
		cancel()
		close(lt.done)
	}()
	return ts.wire(rec), nil
}

// forget drops the local part of task id.
func (ts *taskStore) forget(id string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if lt, ok := ts.local[id]; ok {
		if lt.expire != nil {
			lt.expire.Stop() // it holds the task until the TTL
		}
		delete(ts.local, id)
	}
}

// keepLease renews the lease of task id while ctx lasts, and cancels the
// run when the record says another replica cancelled it (or it is gone).
func (ts *taskStore) keepLease(ctx context.Context, owner, id string, cancel context.CancelFunc) {
	t := time.NewTicker(taskLeaseEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
			_ = ts.store.Delete(dctx, leaseKey(id))
			dcancel()
			return
		case <-t.C:
		}
		sctx, scancel := context.WithTimeout(ctx, storeTimeout)
		_ = ts.store.Put(sctx, leaseKey(id), []byte(ts.replica), taskLease)
		rec, _, ok, err := ts.load(sctx, owner, id)
		scancel()
		if err == nil && (!ok || rec.Status != "working") {
			cancel()
		}
	}
}

// load reads the record of task id of owner, with its stored bytes.
func (ts *taskStore) load(ctx context.Context, owner, id string) (*taskRecord, []byte, bool, error) {
	b, ok, err := ts.store.Get(ctx, taskKey(owner, id))
	if err != nil || !ok {
		return nil, nil, false, err
	}
	var rec taskRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, nil, false, fmt.Errorf("task %q: a record that is not JSON: %v", id, err)
	}
	return &rec, b, true, nil
}

// update changes the record of task id with edit while it is working
// (compare-and-swap, retried on a race); it returns the record as it is
// after, and whether edit was applied.
func (ts *taskStore) update(ctx context.Context, owner, id string, edit func(*taskRecord)) (*taskRecord, bool, error) {
	for range 8 {
		rec, old, ok, err := ts.load(ctx, owner, id)
		if err != nil || !ok {
			return nil, false, err
		}
		if rec.Status != "working" {
			return rec, false, nil
		}
		edit(rec)
		rec.Updated = time.Now()
		b, _ := json.Marshal(rec)
		left := time.Until(rec.Created.Add(time.Duration(rec.TTL) * time.Millisecond))
		if left <= 0 {
			return rec, false, nil
		}
		swapped, err := ts.store.CompareAndSwap(ctx, taskKey(owner, id), old, b, left)
		if err != nil {
			return nil, false, err
		}
		if swapped {
			return rec, true, nil
		}
	}
	return nil, false, errors.New("the task's record kept changing")
}

// kindOf names the JSON type of v, a decoded JSON value.
func kindOf(v any) string {
	b, _ := json.Marshal(v)
	return jsonlex.Kind(append(b, 0)[0])
}

// finish records the end of task id's run, unless it is no longer working
// (cancelled, or failed for a lost lease).
// A write that fails (a store blip) is retried a few times, the lease
// still renewed meanwhile: else the result would be lost and the task
// reported failed as if its replica had stopped.
func (ts *taskStore) finish(owner, id string, res mcpsdk.Result, err error) {
	for attempt := range finishAttempts {
		if attempt > 0 {
			time.Sleep(time.Duration(100<<attempt) * time.Millisecond)
		}
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		_, _, uerr := ts.update(ctx, owner, id, ts.ending(res, err))
		cancel()
		if uerr == nil {
			return
		}
	}
}

// finishAttempts is how many times finish tries to write a task's end.
const finishAttempts = 4

// ending is the edit of a task's record that records the end of its run.
func (ts *taskStore) ending(res mcpsdk.Result, err error) func(*taskRecord) {
	return func(r *taskRecord) {
		r.Status = "completed"
		if err != nil {
			r.Status, r.Message = "failed", err.Error()
			var werr *jsonrpc.Error
			if errors.As(err, &werr) {
				r.ErrCode, r.Err = werr.Code, werr.Message
			} else {
				r.ErrCode, r.Err = jsonrpc.CodeInternalError, err.Error()
			}
			return
		}
		r.Result, _ = json.Marshal(res)
		if cr, ok := res.(*mcpsdk.CallToolResult); ok && cr.IsError {
			r.Status, r.Message = "failed", firstText(cr)
		}
	}
}

func firstText(r *mcpsdk.CallToolResult) string {
	for _, c := range r.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			return tc.Text
		}
	}
	return "the tool failed"
}

// get returns the record of task p.TaskID of owner, or the JSON-RPC error
// -32602. A working task whose lease ran out is failed first.
func (ts *taskStore) get(ctx context.Context, owner string, p *taskIDParams) (*taskRecord, error) {
	if p == nil || p.TaskID == "" {
		// A request without params (or with "params": null) has p nil.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "params.taskId is missing"}
	}
	sctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	rec, _, ok, err := ts.load(sctx, owner, p.TaskID)
	if err != nil {
		return nil, storeErr(err)
	}
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown task %q: not one of this client's tasks, or past its TTL", p.TaskID)}
	}
	if rec.Status == "working" && !ts.runsHere(rec.ID) {
		if _, held, err := ts.store.Get(sctx, leaseKey(rec.ID)); err == nil && !held {
			if r, _, err := ts.update(sctx, owner, rec.ID, func(r *taskRecord) {
				r.Status, r.Message = "failed", "the replica that ran this task stopped before it ended (its lease ran out)"
			}); err == nil && r != nil {
				rec = r
			}
		}
	}
	return rec, nil
}

// runsHere reports whether this replica is running task id: its lease
// may have vanished (a renewal that failed, an eviction), but the run has
// not stopped.
func (ts *taskStore) runsHere(id string) bool {
	ts.mu.Lock()
	lt := ts.local[id]
	ts.mu.Unlock()
	if lt == nil {
		return false
	}
	select {
	case <-lt.done:
		return false
	default:
		return true
	}
}

// ownerKey is the context key of the owner of a tasks/* request (see
// ownerOf), set by callMiddleware.
type ownerKey struct{}

// ownerOf is whose tasks req's session sees: over stateless HTTP, where a
// session lasts one request, its session ID ("" without one: every client
// sees every task, on every replica); otherwise a name of the session's
// own, so two sessions without IDs (stdio, Run) do not share their tasks,
// and whose tasks end with it.
func (ts *taskStore) ownerOf(req mcpsdk.Request) string {
	ss, _ := req.GetSession().(*mcpsdk.ServerSession)
	if ss == nil {
		return ""
	}
	if ex := req.GetExtra(); ts.stateless && ex != nil && ex.Header != nil {
		return ss.ID()
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	name, ok := ts.owners[ss]
	if !ok {
		name = "session/" + rand.Text()
		ts.owners[ss] = name
		go func() {
			_ = ss.Wait()
			ts.drop(ss)
		}()
	}
	return name
}

// drop cancels and forgets the tasks of ss, a session that ended: nobody
// can reach them any more.
func (ts *taskStore) drop(ss *mcpsdk.ServerSession) {
	ts.mu.Lock()
	name := ts.owners[ss]
	delete(ts.owners, ss)
	var ids []string
	for id, lt := range ts.local {
		if lt.owner == name {
			lt.cancel()
			if lt.expire != nil {
				lt.expire.Stop()
			}
			delete(ts.local, id)
			ids = append(ids, id)
		}
	}
	ts.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	for _, id := range ids {
		_ = ts.store.Delete(ctx, taskKey(name, id))
	}
}

// owner is the owner callMiddleware put in ctx.
func owner(ctx context.Context) string {
	o, _ := ctx.Value(ownerKey{}).(string)
	return o
}

// addTaskMethods adds tasks/get, tasks/result, tasks/cancel and tasks/list
// to srv.
func (ts *taskStore) addTaskMethods(srv *mcpsdk.Server) {
	must := func(err error) {
		if err != nil {
			panic("mcp: adding the task methods: " + err.Error()) // static names: cannot happen
		}
	}
	must(mcpsdk.AddReceivingCustomMethod(srv, "tasks/get", func(ctx context.Context, _ *mcpsdk.ServerSession, p *taskIDParams) (*taskResult, error) {
		rec, err := ts.get(ctx, owner(ctx), p)
		if err != nil {
			return nil, err
		}
		return &taskResult{wireTask: ts.wire(rec)}, nil
	}))
	must(mcpsdk.AddReceivingCustomMethod(srv, "tasks/result", func(ctx context.Context, _ *mcpsdk.ServerSession, p *taskIDParams) (mcpsdk.Result, error) {
		rec, err := ts.waitTerminal(ctx, owner(ctx), p)
		if err != nil {
			return nil, err
		}
		switch {
		case rec.Status == "cancelled":
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("task %q was cancelled", rec.ID)}
		case rec.Err != "":
			return nil, &jsonrpc.Error{Code: rec.ErrCode, Message: rec.Err}
		case rec.Result == nil:
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("task %q: %s", rec.ID, rec.Message)}
		}
		var out mcpsdk.CallToolResult
		if err := json.Unmarshal(rec.Result, &out); err != nil {
			return nil, storeErr(err)
		}
		meta := map[string]any{}
		for k, v := range out.Meta {
			meta[k] = v
		}
		meta[relatedTaskKey] = map[string]string{"taskId": rec.ID}
		out.Meta = meta
		return &out, nil
	}))
	must(mcpsdk.AddReceivingCustomMethod(srv, "tasks/cancel", func(ctx context.Context, _ *mcpsdk.ServerSession, p *taskIDParams) (*taskResult, error) {
		who := owner(ctx)
		rec, err := ts.get(ctx, who, p)
		if err != nil {
			return nil, err
		}
		sctx, cancel := context.WithTimeout(ctx, storeTimeout)
		defer cancel()
		after, changed, err := ts.update(sctx, who, rec.ID, func(r *taskRecord) {
			r.Status, r.Message = "cancelled", "cancelled by the client"
		})
		if err != nil {
			return nil, storeErr(err)
		}
		if !changed {
			status := rec.Status
			if after != nil {
				status = after.Status
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("task %q is already %s", rec.ID, status)}
		}
		ts.mu.Lock()
		if lt, ok := ts.local[rec.ID]; ok {
			lt.cancel() // at once here; another replica's run sees it at its next lease renewal
		}
		ts.mu.Unlock()
		return &taskResult{wireTask: ts.wire(after)}, nil
	}))
	must(mcpsdk.AddReceivingCustomMethod(srv, "tasks/list", func(ctx context.Context, _ *mcpsdk.ServerSession, _ *listTasksParams) (*listTasksResult, error) {
		who := owner(ctx)
		sctx, cancel := context.WithTimeout(ctx, storeTimeout)
		defer cancel()
		keys, err := ts.store.List(sctx, taskPrefix(who))
		if err != nil {
			return nil, storeErr(err)
		}
		out := &listTasksResult{Tasks: []wireTask{}}
		for _, k := range keys {
			if rec, _, ok, err := ts.load(sctx, who, strings.TrimPrefix(k, taskPrefix(who))); err == nil && ok {
				out.Tasks = append(out.Tasks, ts.wire(rec))
			}
		}
		slices.SortFunc(out.Tasks, func(a, b wireTask) int { return strings.Compare(a.CreatedAt+a.TaskID, b.CreatedAt+b.TaskID) })
		return out, nil
	}))
}

// waitTerminal waits until task p.TaskID of owner is no longer working
// and returns its record: at once through the task's own channel when
// this replica runs it, else by reading the store every 100 ms, then
// every PollInterval after the first second.
func (ts *taskStore) waitTerminal(ctx context.Context, owner string, p *taskIDParams) (*taskRecord, error) {
	start := time.Now()
	for {
		rec, err := ts.get(ctx, owner, p)
		if err != nil || rec.Status != "working" {
			return rec, err
		}
		ts.mu.Lock()
		lt := ts.local[rec.ID]
		ts.mu.Unlock()
		wait := 100 * time.Millisecond
		if time.Since(start) > time.Second {
			wait = ts.poll
		}
		var done <-chan struct{}
		if lt != nil {
			done, wait = lt.done, taskLease // the channel says when
		}
		t := time.NewTimer(wait)
		select {
		case <-done:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
		t.Stop()
	}
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
			ctx = context.WithValue(ctx, ownerKey{}, ts.ownerOf(req))
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
	if !bytes.Contains(body, []byte(taskMetaKey)) {
		return body, nil, false // most requests: no decoding
	}
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
