package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
)

// rpcBody is the JSON-RPC message of a POST's answer, sent as JSON or as
// server-sent events (the last data line that holds an id).
func rpcBody(t *testing.T, body string) map[string]any {
	t.Helper()
	raw := body
	for _, line := range strings.Split(body, "\n") {
		if d, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(d, `"id"`) {
			raw = d
		}
	}
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &m), body)
	return m
}

// taskSession is a session of a server with tasks on, over raw HTTP.
type taskSession struct {
	t       *testing.T
	url, id string
	next    int
}

func (s *taskSession) call(method, params string) map[string]any {
	s.t.Helper()
	s.next++
	code, body, _ := rawPost(s.t, s.url, map[string]string{"Mcp-Session-Id": s.id, "MCP-Protocol-Version": "2025-11-25"},
		fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, s.next+10, method, params))
	require.Equal(s.t, http.StatusOK, code, body)
	return rpcBody(s.t, body)
}

func taskServer(t *testing.T, opts *TaskOptions) (url string, started chan string, release chan struct{}, stopped chan string) {
	t.Helper()
	started, release, stopped = make(chan string, 8), make(chan struct{}), make(chan string, 8)
	reg := toolnexus.NewRegistry()
	for _, name := range []string{"job", "long_job"} {
		require.NoError(t, toolnexus.Register(reg, name, "Waits to be released.", func(ctx context.Context, a struct {
			N int `json:"n"`
		}) (string, error) {
			started <- name
			select {
			case <-release:
				return fmt.Sprintf("done %d", a.N), nil
			case <-ctx.Done():
				stopped <- name
				return "", ctx.Err()
			}
		}))
	}
	hs := newHTTPTestServer(t, reg, &ServerOptions{Tasks: opts})
	return hs.URL, started, release, stopped
}

func openTaskSession(t *testing.T, url string) *taskSession {
	t.Helper()
	code, body, id := rawPost(t, url, nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	require.Equal(t, http.StatusOK, code, body)
	init := rpcBody(t, body)
	caps := init["result"].(map[string]any)["capabilities"].(map[string]any)
	require.Equal(t, map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
		"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}, caps["tasks"])
	require.NotNil(t, caps["tools"], "the SDK's capabilities are kept")
	code, body, _ = rawPost(t, url, map[string]string{"Mcp-Session-Id": id}, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(t, http.StatusAccepted, code, body)
	return &taskSession{t: t, url: url, id: id}
}

// A tool called as a task answers at once with the task; the task runs
// on, tasks/get follows it, tasks/result waits for and returns the tool's
// result, marked with the task; a tool in Required cannot be called
// without a task; tools/list says each tool's task support.
func TestTasksLifecycle(t *testing.T) {
	url, started, release, _ := taskServer(t, &TaskOptions{Required: []string{"long_job"}, PollInterval: 250 * time.Millisecond})
	s := openTaskSession(t, url)

	list := s.call("tools/list", `{}`)["result"].(map[string]any)["tools"].([]any)
	support := map[string]any{}
	for _, tl := range list {
		m := tl.(map[string]any)
		support[m["name"].(string)] = m["execution"]
	}
	require.Equal(t, map[string]any{"job": map[string]any{"taskSupport": "optional"}, "long_job": map[string]any{"taskSupport": "required"}}, support)

	refused := s.call("tools/call", `{"name":"long_job","arguments":{"n":1}}`)
	require.EqualValues(t, -32601, refused["error"].(map[string]any)["code"], refused)

	created := s.call("tools/call", `{"name":"long_job","arguments":{"n":7},"task":{"ttl":60000}}`)
	task := created["result"].(map[string]any)["task"].(map[string]any)
	id := task["taskId"].(string)
	require.Equal(t, "working", task["status"])
	require.EqualValues(t, 60000, task["ttl"])
	require.EqualValues(t, 250, task["pollInterval"])
	require.Equal(t, "long_job", <-started)

	got := s.call("tasks/get", fmt.Sprintf(`{"taskId":%q}`, id))["result"].(map[string]any)
	require.Equal(t, "working", got["status"])
	close(release)
	res := s.call("tasks/result", fmt.Sprintf(`{"taskId":%q}`, id))["result"].(map[string]any)
	require.Equal(t, "done 7", res["content"].([]any)[0].(map[string]any)["text"])
	require.Equal(t, map[string]any{"taskId": id}, res["_meta"].(map[string]any)["io.modelcontextprotocol/related-task"])
	got = s.call("tasks/get", fmt.Sprintf(`{"taskId":%q}`, id))["result"].(map[string]any)
	require.Equal(t, "completed", got["status"])

	// A failed call is a failed task whose result is still the error result.
	failed := s.call("tools/call", `{"name":"job","arguments":{"n":"x"},"task":{}}`)
	fid := failed["result"].(map[string]any)["task"].(map[string]any)["taskId"].(string)
	fres := s.call("tasks/result", fmt.Sprintf(`{"taskId":%q}`, fid))["result"].(map[string]any)
	require.Equal(t, true, fres["isError"])
	fget := s.call("tasks/get", fmt.Sprintf(`{"taskId":%q}`, fid))["result"].(map[string]any)
	require.Equal(t, "failed", fget["status"])
	require.Contains(t, fget["statusMessage"], `"n"`)

	tasks := s.call("tasks/list", `{}`)["result"].(map[string]any)["tasks"].([]any)
	require.Len(t, tasks, 2)

	// Another session sees none of them.
	other := openTaskSession(t, url)
	unknown := other.call("tasks/get", fmt.Sprintf(`{"taskId":%q}`, id))
	require.EqualValues(t, -32602, unknown["error"].(map[string]any)["code"])
	require.Empty(t, other.call("tasks/list", `{}`)["result"].(map[string]any)["tasks"])
}

// tasks/cancel ends the call (its context is done) and the task is
// cancelled: its result is an error, and it cannot be cancelled again.
// Past MaxTasks, a new task is refused.
func TestTasksCancelAndLimit(t *testing.T) {
	url, started, _, stopped := taskServer(t, &TaskOptions{MaxTasks: 1})
	s := openTaskSession(t, url)
	created := s.call("tools/call", `{"name":"job","arguments":{"n":1},"task":{}}`)
	id := created["result"].(map[string]any)["task"].(map[string]any)["taskId"].(string)
	<-started

	full := s.call("tools/call", `{"name":"job","arguments":{"n":2},"task":{}}`)
	require.Contains(t, full["error"].(map[string]any)["message"], "too many tasks: 1 are kept (TaskOptions.MaxTasks)")

	c := s.call("tasks/cancel", fmt.Sprintf(`{"taskId":%q}`, id))["result"].(map[string]any)
	require.Equal(t, "cancelled", c["status"])
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled task's call is still running")
	}
	res := s.call("tasks/result", fmt.Sprintf(`{"taskId":%q}`, id))
	require.Contains(t, res["error"].(map[string]any)["message"], "was cancelled")
	again := s.call("tasks/cancel", fmt.Sprintf(`{"taskId":%q}`, id))
	require.Contains(t, again["error"].(map[string]any)["message"], "is already cancelled")
}

// Without TaskOptions a "task" member is ignored: the call is answered as
// any other, and nothing says tasks.
func TestTasksOff(t *testing.T) {
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "echo", "Echo.", func(_ context.Context, a struct {
		S string `json:"s"`
	}) (string, error) {
		return a.S, nil
	}))
	hs := newHTTPTestServer(t, reg, nil)
	id := initSession(t, hs.URL, nil)
	code, body, _ := rawPost(t, hs.URL, map[string]string{"Mcp-Session-Id": id},
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"s":"hi"},"task":{}}}`)
	require.Equal(t, http.StatusOK, code)
	m := rpcBody(t, body)
	require.Equal(t, "hi", m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"], body)
	require.NotContains(t, body, "taskId")
}

// Over stdio too a tools/call with a task member starts a task.
func TestTasksStdio(t *testing.T) {
	srv := NewServer(stdioRegistry(t), &ServerOptions{Tasks: &TaskOptions{}})
	defer srv.Close()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		initializedLine,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quick","arguments":{},"task":{"ttl":1000}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tasks/list"}`,
	}, "\n") + "\n"
	var out strings.Builder
	require.NoError(t, srv.ServeIO(context.Background(), strings.NewReader(in), &out))
	replies := map[float64]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		m := rpcBody(t, line)
		replies[m["id"].(float64)] = m
	}
	task := replies[2]["result"].(map[string]any)["task"].(map[string]any)
	require.EqualValues(t, 1000, task["ttl"])
	listed := replies[3]["result"].(map[string]any)["tasks"].([]any)
	require.Len(t, listed, 1)
	require.Equal(t, task["taskId"], listed[0].(map[string]any)["taskId"])
}

// A task's progress reaches the client while it runs, under the progress
// token of the tools/call that started it.
func TestTasksProgress(t *testing.T) {
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "steps", "Reports two steps.", func(ctx context.Context, _ struct{}) (string, error) {
		toolnexus.ReportProgress(ctx, 1, 2, "half")
		toolnexus.ReportProgress(ctx, 2, 2, "all")
		return "stepped", nil
	}))
	srv := NewServer(reg, &ServerOptions{Tasks: &TaskOptions{}})
	defer srv.Close()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		initializedLine,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"steps","arguments":{},"task":{},"_meta":{"progressToken":"p7"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tasks/list"}`,
	}, "\n") + "\n"
	// tasks/result needs the task's id: the test reads it from the answer
	// to the call, then asks for the result on the same session.
	pr, pw := io.Pipe()
	var out strings.Builder
	done := make(chan error, 1)
	outR, outW := io.Pipe()
	go func() { done <- srv.ServeIO(context.Background(), pr, outW); outW.Close() }()
	go func() { _, _ = io.WriteString(pw, in) }()
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		line := sc.Text()
		out.WriteString(line + "\n")
		if strings.Contains(line, `"id":2,`) {
			id := rpcBody(t, line)["result"].(map[string]any)["task"].(map[string]any)["taskId"].(string)
			_, _ = fmt.Fprintf(pw, `{"jsonrpc":"2.0","id":4,"method":"tasks/result","params":{"taskId":%q}}`+"\n", id)
		}
		if strings.Contains(line, `"id":4,`) {
			pw.Close()
		}
	}
	require.NoError(t, <-done)
	require.Contains(t, out.String(), `"text":"stepped"`)
	var progress []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Token    string  `json:"progressToken"`
				Progress float64 `json:"progress"`
				Message  string  `json:"message"`
			} `json:"params"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		if m.Method == "notifications/progress" {
			progress = append(progress, fmt.Sprintf("%s %v %s", m.Params.Token, m.Params.Progress, m.Params.Message))
		}
	}
	require.Equal(t, []string{"p7 1 half", "p7 2 all"}, progress, out.String())
}
