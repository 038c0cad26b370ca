package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolnexus/toolnexus"
)

const (
	initLine        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// stdioRegistry has "slow" (sleeps 200ms, answers "done"), "quick"
// (answers "done") and "hang" (blocks, ignoring its context, until the test
// ends).
func stdioRegistry(t *testing.T) *toolnexus.Registry {
	t.Helper()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	slow, err := toolnexus.NewTool("slow", "Sleeps, then answers", func(ctx context.Context, _ struct{}) (string, error) {
		time.Sleep(200 * time.Millisecond)
		return "done", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	hang, err := toolnexus.NewTool("hang", "Never answers", func(ctx context.Context, _ struct{}) (string, error) {
		<-release
		return "late", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	quick, err := toolnexus.NewTool("quick", "Answers", func(ctx context.Context, _ struct{}) (string, error) {
		return "done", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(slow, quick, hang); err != nil {
		t.Fatal(err)
	}
	return reg
}

type rpcReply struct {
	ID     int `json:"id"`
	Result struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		ProtocolVersion string `json:"protocolVersion"`
	} `json:"result"`
}

// serveLines runs ServeIO on the given input lines (stdin then closes) and
// returns the replies written, by id. It fails the test if ServeIO does not
// return within 2 minutes; opts.DrainTimeout should be shorter.
func serveLines(t *testing.T, opts *ServerOptions, lines ...string) map[int]rpcReply {
	t.Helper()
	srv := NewServer(stdioRegistry(t), opts)
	defer srv.Close()
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		errc <- srv.ServeIO(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), pw)
		pw.Close()
	}()
	replies := map[int]rpcReply{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var batch []rpcReply
			if json.Unmarshal(sc.Bytes(), &batch) != nil {
				var r rpcReply
				if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
					t.Errorf("output line %q: %v", sc.Text(), err)
				}
				batch = []rpcReply{r}
			}
			for _, r := range batch {
				if r.ID != 0 {
					replies[r.ID] = r
				}
			}
		}
	}()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("ServeIO = %v, want nil at EOF", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("ServeIO did not return 2 minutes after its input ended")
	}
	<-done
	return replies
}

func callLine(id int, tool string) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": map[string]any{}}})
	return string(b)
}

// A request read before stdin closed gets its reply: ServeIO waits for the
// running call instead of dropping it at EOF.
func TestServeIORepliesToRequestsInFlightAtEOF(t *testing.T) {
	replies := serveLines(t, &ServerOptions{DrainTimeout: time.Hour}, initLine, initializedLine, callLine(2, "slow"), callLine(3, "slow"))
	if got := replies[1].Result.ProtocolVersion; got != "2025-06-18" {
		t.Errorf("initialize reply: protocolVersion %q, want 2025-06-18 (replies %+v)", got, replies)
	}
	for _, id := range []int{2, 3} {
		r, ok := replies[id]
		if !ok || len(r.Result.Content) != 1 || r.Result.Content[0].Text != "done" {
			t.Errorf("tools/call id %d: reply %+v (present %v), want text \"done\"", id, r, ok)
		}
	}
}

// Calls in a batch (allowed before protocol 2025-06-18) count one each.
func TestServeIORepliesToBatchAtEOF(t *testing.T) {
	init := strings.Replace(initLine, "2025-06-18", "2025-03-26", 1)
	replies := serveLines(t, &ServerOptions{DrainTimeout: time.Hour}, init, initializedLine, "["+callLine(2, "slow")+","+callLine(3, "slow")+"]")
	for _, id := range []int{2, 3} {
		if r := replies[id]; len(r.Result.Content) != 1 || r.Result.Content[0].Text != "done" {
			t.Errorf("batched tools/call id %d: reply %+v, want text \"done\"", id, r)
		}
	}
}

// A handler that never returns keeps ServeIO no longer than DrainTimeout
// after EOF; the replies that were ready are written.
func TestServeIODrainTimeoutBoundsHungCall(t *testing.T) {
	replies := serveLines(t, &ServerOptions{DrainTimeout: time.Second},
		initLine, initializedLine, callLine(2, "quick"), callLine(3, "hang"))
	if r := replies[2]; len(r.Result.Content) != 1 || r.Result.Content[0].Text != "done" {
		t.Errorf("tools/call quick: reply %+v, want text \"done\"", r)
	}
	if r, ok := replies[3]; ok {
		t.Errorf("tools/call hang: got reply %+v after the drain timeout, want none", r)
	}
}

// With nothing in flight, EOF ends ServeIO without waiting for DrainTimeout.
func TestServeIOReturnsAtEOFWhenIdle(t *testing.T) {
	replies := serveLines(t, &ServerOptions{DrainTimeout: time.Hour}, initLine, initializedLine,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"method":"notifications/cancelled","params":{"requestId":9}}`)
	if _, ok := replies[2]; !ok {
		t.Errorf("ping: no reply (replies %+v)", replies)
	}
}

// A call the client cancelled ends (the SDK replies to it), so it does not
// hold ServeIO at EOF; the calls after it are answered.
func TestServeIOCancelledCallAtEOF(t *testing.T) {
	replies := serveLines(t, &ServerOptions{DrainTimeout: time.Hour}, initLine, initializedLine, callLine(2, "hang"),
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`, callLine(3, "quick"))
	if r := replies[3]; len(r.Result.Content) != 1 || r.Result.Content[0].Text != "done" {
		t.Errorf("tools/call quick after a cancelled call: reply %+v, want text \"done\"", r)
	}
}

func TestKinds(t *testing.T) {
	for _, c := range []struct {
		in             string
		out            bool
		calls, replies int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`, false, 1, 0},
		{`{"params":{"id":1},"method":"tools/call","id":"a"}`, false, 1, 0},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, false, 0, 0},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false, 0, 0},
		{`{"jsonrpc":"2.0","ID":1,"method":"ping"}`, false, 0, 0}, // keys are case-sensitive, as in the SDK
		{`{"jsonrpc":"2.0","id":7,"result":{}}`, false, 0, 1},
		{`{"jsonrpc":"2.0","id":7,"result":{"a":[1,2]}}`, true, 0, 1},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"unknown tool"}}`, true, 0, 1},
		{`{"jsonrpc":"2.0","id":7,"result":` + "\x00", true, 0, 1},                           // stops at "result"
		{`{"jsonrpc":"2.0","id":7,"method":"roots/list"}`, true, 0, 0},                       // out: replies only
		{`{"jsonrpc":"2.0","method":"notifications/message","params":` + "\x00", true, 0, 0}, // stops at "method"
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`, true, 0, 0},
		{`[{"id":1,"method":"a"},{"method":"b"},{"id":2,"method":"c"}]`, false, 2, 0},
		{`[{"id":1,"result":{}},{"id":2,"error":{}}]`, true, 0, 2},
		{`  {"id":1,"method":"a"}` + "\r", false, 1, 0},
		{`{"id":1,"method":`, false, 0, 0},
		{`not json`, false, 0, 0},
		{``, false, 0, 0},
		{`[1,{"id":1,"method":"a"}]`, false, 0, 0},
	} {
		calls, replies := kinds([]byte(c.in), c.out)
		if calls != c.calls || replies != c.replies {
			t.Errorf("kinds(%q, %v) = %d calls, %d replies; want %d, %d", c.in, c.out, calls, replies, c.calls, c.replies)
		}
	}
}

// Lines that reach the reader a byte at a time, or end without a newline,
// are counted once each.
func TestDrainCountsSplitLines(t *testing.T) {
	d := &drain{r: iotest.OneByteReader(strings.NewReader(callLine(1, "a") + "\n\n" + callLine(2, "b") + "\r\n" + callLine(3, "c"))),
		limit: -1, changed: make(chan struct{}, 1), closed: make(chan struct{})}
	d.pending = -3 // so the wait at EOF returns at once
	if _, err := io.ReadAll(drainReader{d}); err != nil {
		t.Fatal(err)
	}
	if d.pending != 0 {
		t.Errorf("pending after reading 3 calls = %d, want 0 (from -3)", d.pending)
	}
}

// The drain's per-message cost, on what the SDK writes: a 1 MiB tools/call
// reply (the walk stops at "result") and a progress notification; and on a
// client's tools/call line.
func BenchmarkKinds(b *testing.B) {
	big := []byte(`{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 1<<20) + `"}]}}` + "\n")
	note := []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1,"total":10}}` + "\n")
	call := []byte(callLine(12, "get_weather"))
	for _, c := range []struct {
		name string
		b    []byte
		out  bool
	}{{"reply1MiB", big, true}, {"notification", note, true}, {"callIn", call, false}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				kinds(c.b, c.out)
			}
		})
	}
}

// FuzzKinds: kinds never panics, and on one message the SDK decodes it
// counts a call exactly when the SDK sees a call (a Request with an ID).
func FuzzKinds(f *testing.F) {
	for _, s := range []string{initLine, initializedLine, callLine(3, "x"), `{"jsonrpc":"2.0","id":null,"method":"a"}`,
		`{"jsonrpc":"2.0","id":"s","result":{}}`, `{"jsonrpc":"2.0","method":"a","id":1,"id":null}`, `[{"jsonrpc":"2.0","id":1,"method":"a"}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		calls, _ := kinds(b, false)
		kinds(b, true)
		msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(b))
		if err != nil {
			return
		}
		req, ok := msg.(*jsonrpc.Request)
		if want := ok && req.IsCall(); (calls == 1) != want || calls > 1 {
			t.Errorf("kinds(%q) = %d calls; the SDK decodes %#v", b, calls, msg)
		}
	})
}
