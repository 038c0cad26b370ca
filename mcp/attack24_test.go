package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/skill"
)

// rawSession speaks raw JSON-RPC to a Server.Run session over in-memory
// transports (a session without a session ID, as stdio's).
type rawSession struct {
	t    *testing.T
	conn mcpsdk.Connection
	next int64
}

func runRawSession(t *testing.T, srv *Server) *rawSession {
	t.Helper()
	ct, st := mcpsdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { _ = srv.Run(ctx, st) }()
	conn, err := ct.Connect(ctx)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	s := &rawSession{t: t, conn: conn}
	s.call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	require.NoError(t, conn.Write(ctx, &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}))
	return s
}

func (s *rawSession) call(method, params string) map[string]any {
	s.t.Helper()
	s.next++
	id, _ := jsonrpc.MakeID(float64(s.next))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(s.t, s.conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: json.RawMessage(params)}))
	for {
		msg, err := s.conn.Read(ctx)
		require.NoError(s.t, err, "waiting for the answer to %s", method)
		if r, ok := msg.(*jsonrpc.Response); ok && r.ID == id {
			b, err := jsonrpc.EncodeMessage(r)
			require.NoError(s.t, err)
			var m map[string]any
			require.NoError(s.t, json.Unmarshal(b, &m))
			return m
		}
	}
}

// Two sessions served by Server.Run (stdio, in-memory, one per accepted
// connection) have no session ID; one must still not see, read or cancel
// the tasks of the other, as TaskOptions promises ("A client sees only the
// tasks its session created").
func TestAttackTasksOfAnotherIDlessSession(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "secret", "Returns a secret once released.", func(ctx context.Context, _ struct{}) (string, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		return "alice's secret", nil
	}))
	srv := NewServer(reg, &ServerOptions{Tasks: &TaskOptions{}})
	defer srv.Close()
	alice := runRawSession(t, srv)
	mallory := runRawSession(t, srv)

	created := alice.call("tools/call", `{"name":"secret","arguments":{},"task":{}}`)
	id := created["result"].(map[string]any)["task"].(map[string]any)["taskId"].(string)

	listed := mallory.call("tasks/list", `{}`)["result"].(map[string]any)["tasks"].([]any)
	require.Empty(t, listed, "another session lists alice's task")
	got := mallory.call("tasks/get", fmt.Sprintf(`{"taskId":%q}`, id))
	require.NotNil(t, got["error"], "another session reads alice's task: %v", got)
	c := mallory.call("tasks/cancel", fmt.Sprintf(`{"taskId":%q}`, id))
	require.NotNil(t, c["error"], "another session cancels alice's task: %v", c)
}

// A task's TTL is capped at MaxTTL; a huge ttl must not wrap around into
// a negative or tiny TTL.
func TestAttackTaskHugeTTL(t *testing.T) {
	url, _, release, _ := taskServer(t, &TaskOptions{})
	defer close(release)
	s := openTaskSession(t, url)
	for _, ttl := range []string{"1e16", "9.3e18", "1e300"} {
		created := s.call("tools/call", `{"name":"job","arguments":{"n":1},"task":{"ttl":`+ttl+`}}`)
		task := created["result"].(map[string]any)["task"].(map[string]any)
		require.EqualValues(t, DefaultTaskTTL.Milliseconds(), task["ttl"], "ttl %s", ttl)
		got := s.call("tasks/get", fmt.Sprintf(`{"taskId":%q}`, task["taskId"]))
		require.Nil(t, got["error"], "ttl %s: the task is gone at once: %v", ttl, got)
	}
}

// The tasks of a session that ended cannot be reached by anyone (their
// owner is that session), yet they run on and hold TaskOptions.MaxTasks
// slots until their TTL (1 hour by default): closing the session must
// end them.
func TestAttackTasksOfClosedSession(t *testing.T) {
	url, started, _, stopped := taskServer(t, &TaskOptions{MaxTasks: 2})
	s := openTaskSession(t, url)
	for i := range 2 {
		s.call("tools/call", fmt.Sprintf(`{"name":"job","arguments":{"n":%d},"task":{}}`, i))
		<-started
	}
	req, err := http.NewRequest(http.MethodDelete, url, nil)
	require.NoError(t, err)
	req.Header.Set("Mcp-Session-Id", s.id)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	for range 2 {
		select {
		case <-stopped:
		case <-time.After(5 * time.Second):
			t.Fatal("a task of a closed session still runs")
		}
	}
	other := openTaskSession(t, url)
	created := other.call("tools/call", `{"name":"job","arguments":{"n":9},"task":{}}`)
	require.Nil(t, created["error"], "the closed session's tasks still hold MaxTasks: %v", created)
}

// In stateless mode a task outlives the POST that started it (the call's
// context is not tied to that request) and a later POST reaches it.
func TestAttackStatelessTaskOutlivesItsPost(t *testing.T) {
	release := make(chan struct{})
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "job", "Waits.", func(ctx context.Context, _ struct{}) (string, error) {
		select {
		case <-release:
			return "finished", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}))
	hs := newHTTPTestServer(t, reg, &ServerOptions{Stateless: true, Tasks: &TaskOptions{}})
	post := func(id int, method, params string) map[string]any {
		code, body, _ := rawPost(t, hs.URL, map[string]string{"MCP-Protocol-Version": "2025-11-25"},
			fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
		require.Equal(t, http.StatusOK, code, body)
		return rpcBody(t, body)
	}
	created := post(2, "tools/call", `{"name":"job","arguments":{},"task":{}}`)
	id := created["result"].(map[string]any)["task"].(map[string]any)["taskId"].(string)
	time.Sleep(100 * time.Millisecond)
	got := post(3, "tasks/get", fmt.Sprintf(`{"taskId":%q}`, id))
	require.Equal(t, "working", got["result"].(map[string]any)["status"], got)
	close(release)
	res := post(4, "tasks/result", fmt.Sprintf(`{"taskId":%q}`, id))
	require.Equal(t, "finished", res["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"], res)
}

// A skill folder holding a named pipe (or a link to a device) must not
// hang resources/read: opening a FIFO for reading blocks until a writer
// comes, whatever the request's context says, and each such read would
// hold a stream slot (MaxStreams) for ever.
func TestAttackSkillFileFIFO(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "pipe")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: pipe\ndescription: Has a pipe.\n---\nRead fifo.\n"), 0o644))
	if err := exec.Command("mkfifo", filepath.Join(dir, "fifo")).Run(); err != nil {
		t.Skip("no mkfifo:", err)
	}
	set, err := skill.Load([]string{root}, nil)
	require.NoError(t, err)
	s := NewServer(toolnexus.NewRegistry(), nil)
	defer s.Close()
	s.AddSkills(set)
	ct, st := mcpsdk.NewInMemoryTransports()
	go s.Run(t.Context(), st)
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "t", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	require.NoError(t, err)
	defer cs.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: skill.FileURL(filepath.Join(dir, "fifo"))})
		done <- err
	}()
	select {
	case err := <-done:
		require.Error(t, err)
		require.NotErrorIs(t, err, context.DeadlineExceeded, "resources/read of a FIFO hung until the client gave up")
	case <-time.After(5 * time.Second):
		t.Fatal("resources/read of a FIFO hangs")
	}
}

// An empty StateKey (a key read from an unset environment variable:
// []byte(os.Getenv("X")) is not nil) must not seal states with the empty
// HMAC key, which anyone can forge.
func TestAttackEmptyStateKeyForgeable(t *testing.T) {
	forger := &Server{stateKey: []byte{}}
	st := inputState{Tool: "t", Args: argsDigest(nil), Expires: time.Now().Add(time.Hour).Unix(), Rounds: -1000000,
		Answers: []toolnexus.Answer{{ID: "q", OK: true}}}
	forged := forger.sealState(&st)
	for _, key := range [][]byte{{}, []byte("")} {
		s := NewServer(toolnexus.NewRegistry(), &ServerOptions{StateKey: key})
		got := inputState{Tool: "t", Args: argsDigest(nil)}
		_, err := s.openState(forged, &got)
		require.Error(t, err, "a state forged with the empty key verifies")
		s.Close()
	}
}

// Malformed task requests get clear errors naming the field; none crashes
// the server (tasks/get, tasks/result or tasks/cancel with "params": null,
// or without params, was a nil dereference that killed the process).
func TestAttackTaskMalformed(t *testing.T) {
	url, _, release, _ := taskServer(t, &TaskOptions{})
	defer close(release)
	s := openTaskSession(t, url)
	errOf := func(m map[string]any) string {
		t.Helper()
		e, ok := m["error"].(map[string]any)
		require.True(t, ok, "no error: %v", m)
		require.EqualValues(t, -32602, e["code"], m)
		return e["message"].(string)
	}
	for _, method := range []string{"tasks/get", "tasks/result", "tasks/cancel"} {
		for _, params := range []string{`null`, `{}`, `{"taskId":""}`} {
			require.Contains(t, errOf(s.call(method, params)), "params.taskId", "%s %s", method, params)
		}
	}
	require.NotNil(t, s.call("tasks/list", `null`)["result"])
	for _, task := range []string{`null`, `5`, `"x"`, `[]`} {
		msg := errOf(s.call("tools/call", `{"name":"job","arguments":{"n":1},"task":`+task+`}`))
		require.Contains(t, msg, "params.task", "task %s", task)
	}
	for _, task := range []string{`{"ttl":"x"}`, `{"ttl":-5}`, `{"ttl":null}`} {
		msg := errOf(s.call("tools/call", `{"name":"job","arguments":{"n":1},"task":`+task+`}`))
		require.Contains(t, msg, "params.task.ttl", "task %s", task)
	}
	// Still alive, and no task was made of the refused calls.
	require.Empty(t, s.call("tasks/list", `{}`)["result"].(map[string]any)["tasks"])
}

// hostileTaskServer lists one task-required tool, answers its tools/call
// with the task taskID, and never answers tasks/result; the tasks/cancel
// ids it gets go to cancels.
type hostileTaskServer struct {
	taskID  string
	cancels chan string
}

func (h *hostileTaskServer) Connect(context.Context) (mcpsdk.Connection, error) {
	return &hostileTaskConn{h: h, out: make(chan []byte, 64), closed: make(chan struct{})}, nil
}

type hostileTaskConn struct {
	h      *hostileTaskServer
	out    chan []byte
	closed chan struct{}
	once   sync.Once
}

func (c *hostileTaskConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case b := <-c.out:
		return jsonrpc.DecodeMessage(b)
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *hostileTaskConn) Write(_ context.Context, msg jsonrpc.Message) error {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return nil
	}
	id, _ := json.Marshal(req.ID.Raw())
	var result string
	switch req.Method {
	case "initialize":
		result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"tasks":{"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"hostile","version":"0"}}`
	case "tools/list":
		result = `{"tools":[{"name":"job","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}]}`
	case "tools/call":
		tid, _ := json.Marshal(c.h.taskID)
		result = `{"content":[],"task":{"taskId":` + string(tid) + `,"status":"working"}}`
	case "tasks/result":
		return nil // never answered
	case "tasks/cancel":
		var p struct {
			TaskID string `json:"taskId"`
		}
		_ = json.Unmarshal(req.Params, &p)
		c.h.cancels <- p.TaskID
		result = `{}`
	default:
		result = `{}`
	}
	select {
	case c.out <- []byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + result + `}`):
	case <-c.closed:
	}
	return nil
}

func (c *hostileTaskConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// A server that never answers tasks/result holds a loaded tool's call no
// longer than the server's timeout; the task is cancelled, and a huge
// task id from the server does not reach the model's text. (Under -race
// decoding the 1 MiB answer takes long: the timeout leaves room for it.)
func TestAttackLoaderTaskNeverEnds(t *testing.T) {
	h := &hostileTaskServer{taskID: strings.Repeat("x", 1<<20), cancels: make(chan string, 4)}
	cfg := &Config{Servers: map[string]ServerConfig{"h": {Transport: TransportStdio, Command: []string{"unused"}, Timeout: 2 * time.Second}}}
	servers := Load(t.Context(), cfg, &LoadOptions{Dial: func(string) mcpsdk.Transport { return h }})
	defer servers.Close()
	require.NoError(t, servers.Err())
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(servers.Tools()...))
	start := time.Now()
	res := reg.Execute(t.Context(), "h_job", json.RawMessage(`{}`))
	require.True(t, res.IsError)
	require.Less(t, time.Since(start), 8*time.Second)
	require.Less(t, len(res.Output), 1000, "the model's text holds the server's task id")
	select {
	case id := <-h.cancels:
		require.Equal(t, h.taskID, id)
	case <-time.After(5 * time.Second):
		t.Fatal("the task was not cancelled")
	}
}

func (c *hostileTaskConn) SessionID() string { return "" }

// discardConn takes every message and never answers.
type discardConn struct{ mcpsdk.Connection }

func (discardConn) Write(context.Context, jsonrpc.Message) error { return nil }

// The loader's connection remembers each tools/call it made as a task
// until its answer comes; a server that never answers must not make it
// remember them for ever: the SDK's notifications/cancelled for a call
// whose context ended forgets it.
func TestAttackLoaderTaskCallsForgotten(t *testing.T) {
	c := &taskClientConn{Connection: discardConn{}, calls: map[jsonrpc.ID]bool{}}
	for i := range 1000 {
		id, _ := jsonrpc.MakeID(float64(i))
		require.NoError(t, c.Write(t.Context(), &jsonrpc.Request{ID: id, Method: "tools/call",
			Params: json.RawMessage(`{"name":"job","_meta":{"toolnexus/task":{}}}`)}))
		require.NoError(t, c.Write(t.Context(), &jsonrpc.Request{Method: "notifications/cancelled",
			Params: json.RawMessage(fmt.Sprintf(`{"requestId":%d,"reason":"context deadline exceeded"}`, i))}))
	}
	require.Zero(t, len(c.calls), "calls whose context ended are still remembered")
}

// A dropped task (its session ended) is not kept alive by its TTL timer:
// sessions opened and closed in a loop would otherwise keep every result
// for the TTL, past MaxTasks.
func TestAttackDroppedTaskNotRetained(t *testing.T) {
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "big", "A big result.", func(context.Context, struct{}) (string, error) {
		return strings.Repeat("x", 1<<20), nil
	}))
	srv := NewServer(reg, &ServerOptions{Tasks: &TaskOptions{}})
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	s := openTaskSession(t, hs.URL)
	created := s.call("tools/call", `{"name":"big","arguments":{},"task":{}}`)
	id := created["result"].(map[string]any)["task"].(map[string]any)["taskId"].(string)
	s.call("tasks/result", fmt.Sprintf(`{"taskId":%q}`, id))
	srv.tasks.mu.Lock()
	wp := weak.Make(srv.tasks.local[id])
	srv.tasks.mu.Unlock()
	require.NotNil(t, wp.Value())
	req, err := http.NewRequest(http.MethodDelete, hs.URL, nil)
	require.NoError(t, err)
	req.Header.Set("Mcp-Session-Id", s.id)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Eventually(t, func() bool {
		srv.tasks.mu.Lock()
		defer srv.tasks.mu.Unlock()
		return len(srv.tasks.local) == 0
	}, 5*time.Second, 10*time.Millisecond, "the closed session's task is still kept")
	require.Eventually(t, func() bool {
		keys, err := srv.store.List(t.Context(), "toolnexus/task/")
		return err == nil && len(keys) == 0
	}, 5*time.Second, 10*time.Millisecond, "the closed session's task record (and its 1 MiB result) is still stored")
	require.Eventually(t, func() bool {
		runtime.GC()
		return wp.Value() == nil
	}, 5*time.Second, 50*time.Millisecond, "the dropped task (and its 1 MiB result) is still reachable")
}

// Calls made as tasks count against MaxSessionCalls as any call does: the
// task answers at once, its call waits for a slot.
func TestAttackTasksKeepMaxSessionCalls(t *testing.T) {
	started, release := make(chan string, 8), make(chan struct{})
	defer close(release)
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "job", "Waits.", func(ctx context.Context, _ struct{}) (string, error) {
		started <- "job"
		select {
		case <-release:
		case <-ctx.Done():
		}
		return "ok", nil
	}))
	hs := newHTTPTestServer(t, reg, &ServerOptions{MaxSessionCalls: 1, Tasks: &TaskOptions{}})
	s := openTaskSession(t, hs.URL)
	for range 3 {
		require.Nil(t, s.call("tools/call", `{"name":"job","arguments":{},"task":{}}`)["error"])
	}
	<-started
	select {
	case <-started:
		t.Fatal("a second task's call runs past MaxSessionCalls 1")
	case <-time.After(300 * time.Millisecond):
	}
}
