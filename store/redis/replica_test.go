package redis_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp"
	"github.com/toolnexus/toolnexus/store/redis"
)

// replicaEnv makes this test binary a replica (see TestMain): a stateless
// toolnexus MCP server with tasks on, whose store is Redis at
// TOOLNEXUS_REDIS_URL under the prefix the variable holds. It prints its
// URL on the first line of standard output and serves until killed.
const replicaEnv = "TOOLNEXUS_TEST_REPLICA_PREFIX"

func TestMain(m *testing.M) {
	if prefix := os.Getenv(replicaEnv); prefix != "" {
		if err := runReplica(prefix); err != nil {
			fmt.Fprintln(os.Stderr, "replica:", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// runReplica serves the replica's tools. Each run of a handler adds one
// to the Redis counter PREFIX"runs/"NAME, so the test counts runs across
// processes.
//   - work {"n", "hold"} answers "done N"; with hold it waits until its
//     context ends.
//   - guarded needs approval (no approver: the client is asked) and
//     answers "ran".
func runReplica(prefix string) error {
	opts, err := goredis.ParseURL(os.Getenv("TOOLNEXUS_REDIS_URL"))
	if err != nil {
		return err
	}
	rdb := goredis.NewClient(opts)
	defer rdb.Close()
	count := func(name string) { rdb.Incr(context.Background(), prefix+"runs/"+name) }
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "work", "Works.", func(ctx context.Context, a struct {
		N    int  `json:"n"`
		Hold bool `json:"hold,omitempty"`
	}) (string, error) {
		count("work")
		if a.Hold {
			<-ctx.Done()
			return "", ctx.Err()
		}
		return fmt.Sprintf("done %d", a.N), nil
	}); err != nil {
		return err
	}
	guarded, err := toolnexus.NewTool("guarded", "Needs approval.", func(context.Context, struct{}) (string, error) {
		count("guarded")
		return "ran", nil
	})
	if err != nil {
		return err
	}
	guarded.NeedsApproval = true
	if err := reg.Add(guarded); err != nil {
		return err
	}
	srv := mcp.NewServer(reg, &mcp.ServerOptions{Stateless: true, Tasks: &mcp.TaskOptions{MaxTasks: 5000},
		Store: redis.New(rdb, prefix), MaxStreams: 1000, MaxConnections: 1000})
	defer srv.Close()
	return srv.ListenAndServe(context.Background(), "127.0.0.1:0", func(a net.Addr) {
		fmt.Printf("http://%s/\n", a)
	})
}

// replica is a running replica process.
type replica struct {
	url string
	cmd *exec.Cmd
}

func startReplica(t *testing.T, prefix string) *replica {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), replicaEnv+"="+prefix)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("replica printed no URL: %v", err)
	}
	return &replica{url: strings.TrimSpace(line), cmd: cmd}
}

// roundRobin is a reverse proxy that sends each request to the next
// replica in turn.
func roundRobin(t *testing.T, replicas ...*replica) string {
	t.Helper()
	var next atomic.Int64
	proxies := make([]*httputil.ReverseProxy, len(replicas))
	for i, r := range replicas {
		u, err := url.Parse(r.url)
		if err != nil {
			t.Fatal(err)
		}
		proxies[i] = &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.Out.Host = u.Host // the replica checks Host; it sees its own
		}}
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxies[next.Add(1)%int64(len(proxies))].ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return hs.URL
}

// rpc posts one JSON-RPC request of the 2025-11-25 revision (stateless:
// no session) to endpoint and returns its result, or its error.
func rpc(ctx context.Context, endpoint, method, params string) (map[string]any, error) {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, params)
	return post(ctx, endpoint, []byte(body), map[string]string{"MCP-Protocol-Version": "2025-11-25"})
}

// post sends one JSON-RPC request with the headers hdr and returns the
// result of its answer (sent as JSON or as events), or its error.
func post(ctx context.Context, endpoint string, body []byte, hdr map[string]string) (map[string]any, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	raw := b
	for _, line := range bytes.Split(b, []byte("\n")) {
		if d, ok := bytes.CutPrefix(line, []byte("data: ")); ok && bytes.Contains(d, []byte(`"id"`)) {
			raw = d
		}
	}
	var m struct {
		Result map[string]any `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%d %q", resp.StatusCode, b)
	}
	if m.Error != nil {
		return nil, errors.New(m.Error.Message)
	}
	return m.Result, nil
}

func text(res map[string]any) string {
	c, _ := res["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	s, _ := c[0].(map[string]any)["text"].(string)
	return s
}

func runs(t *testing.T, rdb *goredis.Client, prefix, name string) int {
	t.Helper()
	n, err := rdb.Get(context.Background(), prefix+"runs/"+name).Int()
	if err != nil && !errors.Is(err, goredis.Nil) {
		t.Fatal(err)
	}
	return n
}

// TestReplicas runs two replica processes sharing one Redis behind a
// round-robin proxy on loopback (issue: beyond one process).
func TestReplicas(t *testing.T) {
	rdb := redisClient(t)
	ctx := t.Context()
	prefix := "toolnexus-replica-test/" + fmt.Sprint(time.Now().UnixNano()) + "/"
	a, b := startReplica(t, prefix), startReplica(t, prefix)
	proxy := roundRobin(t, a, b)

	t.Run("approval asked through A, answered through B", func(t *testing.T) {
		first, err := rpcMRTR(ctx, a.url, `{"name":"guarded","arguments":{}}`)
		if err != nil {
			t.Fatal(err)
		}
		reqs, _ := first["inputRequests"].(map[string]any)
		state, _ := first["requestState"].(string)
		if len(reqs) != 1 || state == "" {
			t.Fatalf("A's answer = %v, want one input request and a requestState", first)
		}
		var id string
		for k := range reqs {
			id = k
		}
		retry := fmt.Sprintf(`{"name":"guarded","arguments":{},"requestState":%q,"inputResponses":{%q:{"action":"accept","content":{"approve":true}}}}`, state, id)
		done, err := rpcMRTR(ctx, b.url, retry)
		if err != nil || text(done) != "ran" {
			t.Fatalf("B's answer = %v, %v; want ran", done, err)
		}
		// The same answers again, on either replica: refused, not run.
		for _, r := range []*replica{a, b} {
			if again, err := rpcMRTR(ctx, r.url, retry); err == nil || !strings.Contains(err.Error(), "already used") {
				t.Errorf("a replayed requestState = %v, %v; want refused as already used", again, err)
			}
		}
		if n := runs(t, rdb, prefix, "guarded"); n != 1 {
			t.Errorf("guarded ran %d times, want 1", n)
		}
	})

	t.Run("task started on A, polled and fetched on B", func(t *testing.T) {
		created, err := rpc(ctx, a.url, "tools/call", `{"name":"work","arguments":{"n":7},"task":{}}`)
		if err != nil {
			t.Fatal(err)
		}
		id := created["task"].(map[string]any)["taskId"].(string)
		got, err := rpc(ctx, b.url, "tasks/get", fmt.Sprintf(`{"taskId":%q}`, id))
		if err != nil || got["taskId"] != id {
			t.Fatalf("tasks/get on B = %v, %v", got, err)
		}
		res, err := rpc(ctx, b.url, "tasks/result", fmt.Sprintf(`{"taskId":%q}`, id))
		if err != nil || text(res) != "done 7" {
			t.Fatalf("tasks/result on B = %v, %v; want done 7", res, err)
		}
	})

	t.Run("1000 tasks from 8 clients through the proxy", func(t *testing.T) {
		before := runs(t, rdb, prefix, "work")
		var wg sync.WaitGroup
		errs := make(chan error, 1000)
		for c := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := c; i < 1000; i += 8 {
					created, err := rpc(ctx, proxy, "tools/call", fmt.Sprintf(`{"name":"work","arguments":{"n":%d},"task":{}}`, i))
					if err != nil {
						errs <- err
						continue
					}
					id := created["task"].(map[string]any)["taskId"].(string)
					res, err := rpc(ctx, proxy, "tasks/result", fmt.Sprintf(`{"taskId":%q}`, id))
					if err != nil || text(res) != fmt.Sprintf("done %d", i) {
						errs <- fmt.Errorf("task %d: %v, %v", i, res, err)
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if n := runs(t, rdb, prefix, "work") - before; n != 1000 {
			t.Errorf("work ran %d times for 1000 tasks, want 1000", n)
		}
	})

	t.Run("A killed during a task", func(t *testing.T) {
		created, err := rpc(ctx, a.url, "tools/call", `{"name":"work","arguments":{"n":1,"hold":true},"task":{}}`)
		if err != nil {
			t.Fatal(err)
		}
		id := created["task"].(map[string]any)["taskId"].(string)
		time.Sleep(200 * time.Millisecond)
		if err := a.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = a.cmd.Wait()
		deadline := time.Now().Add(30 * time.Second)
		for {
			got, err := rpc(ctx, b.url, "tasks/get", fmt.Sprintf(`{"taskId":%q}`, id))
			if err != nil {
				t.Fatal(err)
			}
			if got["status"] == "failed" {
				if msg, _ := got["statusMessage"].(string); !strings.Contains(msg, "stopped before it ended") {
					t.Errorf("statusMessage = %q", msg)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the task of the killed replica is still %v after 30 s", got["status"])
			}
			time.Sleep(500 * time.Millisecond)
		}
		if _, err := rpc(ctx, b.url, "tasks/result", fmt.Sprintf(`{"taskId":%q}`, id)); err == nil || !strings.Contains(err.Error(), "stopped before it ended") {
			t.Errorf("tasks/result of the lost task = %v; want the error saying its replica stopped", err)
		}
	})
}

// rpcMRTR posts a tools/call of the 2026-07-28 revision (stateless, its
// _meta carrying the revision and an elicitation capability) and returns
// its result.
func rpcMRTR(ctx context.Context, endpoint, params string) (map[string]any, error) {
	var p map[string]any
	if err := json.Unmarshal([]byte(params), &p); err != nil {
		return nil, err
	}
	p["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"elicitation": map[string]any{}}}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": p})
	return post(ctx, endpoint, body, map[string]string{"MCP-Protocol-Version": "2026-07-28",
		"Mcp-Method": "tools/call", "Mcp-Name": p["name"].(string)})
}
