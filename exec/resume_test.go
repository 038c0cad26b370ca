package exec_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

type pathArgs struct {
	Path string `json:"path"`
}

// resumeExecutor: "count" counts its runs (its output is the count, so a
// second run would change the messages); "delete" needs approval and
// counts its runs too.
func resumeExecutor(t *testing.T, counts, deletes *atomic.Int32) *exec.Executor {
	t.Helper()
	reg := toolnexus.NewRegistry()
	if err := reg.Add(toolnexus.Tool{Name: "count", Description: "counts",
		Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) {
			n := counts.Add(1)
			return "run " + string(rune('0'+n)), nil
		})}); err != nil {
		t.Fatal(err)
	}
	del, err := toolnexus.NewTool("delete", "deletes", func(_ context.Context, a pathArgs) (string, error) {
		deletes.Add(1)
		return "deleted " + a.Path, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	del.NeedsApproval = true
	if err := reg.Add(del); err != nil {
		t.Fatal(err)
	}
	return exec.New(reg, nil)
}

// TestResumeByteIdentical: per provider, a reply whose approvals are
// answered after a first run gives the same message bytes as a run with
// the answers known up front, and no call runs twice.
func TestResumeByteIdentical(t *testing.T) {
	providers := map[string]func(*exec.Executor, context.Context, []byte) (any, error){
		"openai_chat": func(e *exec.Executor, ctx context.Context, b []byte) (any, error) { return e.OpenAIChatJSON(ctx, b) },
		"openai_responses": func(e *exec.Executor, ctx context.Context, b []byte) (any, error) {
			return e.ResponsesJSON(ctx, b)
		},
		"anthropic": func(e *exec.Executor, ctx context.Context, b []byte) (any, error) { return e.AnthropicJSON(ctx, b) },
		"gemini":    func(e *exec.Executor, ctx context.Context, b []byte) (any, error) { return e.GeminiJSON(ctx, b) },
	}
	answers := []toolnexus.Answer{
		{ID: toolnexus.ApprovalID("delete", json.RawMessage(`{"path":"a"}`)), OK: true},
		{ID: toolnexus.ApprovalID("delete", json.RawMessage(`{"path":"b"}`)), OK: false, Data: json.RawMessage(`"keep b"`)},
	}
	for name, run := range providers {
		t.Run(name, func(t *testing.T) {
			reply, err := os.ReadFile("testdata/resume/" + name + ".json")
			if err != nil {
				t.Fatal(err)
			}
			// Up front.
			var c0, d0 atomic.Int32
			ctx := context.Background()
			for _, a := range answers {
				ctx = toolnexus.WithAnswer(ctx, a)
			}
			want, err := run(resumeExecutor(t, &c0, &d0), ctx, reply)
			if err != nil {
				t.Fatal(err)
			}
			wantJSON, _ := json.Marshal(want)

			// First run: two pending approvals, count ran.
			var c, d atomic.Int32
			e := resumeExecutor(t, &c, &d)
			b := exec.NewBatch()
			first, err := run(e, exec.WithBatch(context.Background(), b), reply)
			if err != nil {
				t.Fatal(err)
			}
			p := b.Pending()
			if len(p) != 2 || p[0].Kind != toolnexus.PendingKindApproval || p[0].ID != answers[0].ID || p[1].ID != answers[1].ID {
				t.Fatalf("pending = %+v", p)
			}
			if c.Load() != 1 || d.Load() != 0 {
				t.Fatalf("first run: count ran %d, delete ran %d", c.Load(), d.Load())
			}
			firstJSON, _ := json.Marshal(first)
			if string(firstJSON) == string(wantJSON) {
				t.Fatal("first run already equals the answered one")
			}
			got, err := exec.Resume(context.Background(), b, answers, func(ctx context.Context) (any, error) { return run(e, ctx, reply) })
			if err != nil {
				t.Fatal(err)
			}
			gotJSON, _ := json.Marshal(got)
			if string(gotJSON) != string(wantJSON) {
				t.Errorf("resumed:\n%s\nup front:\n%s", gotJSON, wantJSON)
			}
			if c.Load() != 1 || d.Load() != 1 || len(b.Pending()) != 0 {
				t.Errorf("after resume: count ran %d, delete ran %d, pending %v", c.Load(), d.Load(), b.Pending())
			}
			// A further resume runs nothing.
			again, _ := exec.Resume(context.Background(), b, nil, func(ctx context.Context) (any, error) { return run(e, ctx, reply) })
			if againJSON, _ := json.Marshal(again); string(againJSON) != string(wantJSON) || c.Load() != 1 || d.Load() != 1 {
				t.Errorf("second resume changed things: %s", againJSON)
			}
		})
	}
}

// TestExecApprover: exec's Approver gets the call id and decides.
func TestExecApprover(t *testing.T) {
	var d atomic.Int32
	reg := toolnexus.NewRegistry()
	del, _ := toolnexus.NewTool("delete", "deletes", func(_ context.Context, a pathArgs) (string, error) {
		d.Add(1)
		return "deleted " + a.Path, nil
	})
	del.NeedsApproval = true
	if err := reg.Add(del); err != nil {
		t.Fatal(err)
	}
	var seen []string
	e := exec.New(reg, &exec.Options{Approver: func(_ context.Context, r toolnexus.ApprovalRequest) toolnexus.Approval {
		seen = append(seen, r.CallID+" "+r.Args.(pathArgs).Path)
		if r.Args.(pathArgs).Path == "a" {
			return toolnexus.Approval{Decision: toolnexus.Approve}
		}
		return toolnexus.Approval{Decision: toolnexus.Deny, Reason: "no"}
	}, Concurrency: 1})
	rs, _ := e.RunAll(context.Background(), []exec.Call{
		{ID: "x1", Name: "delete", Arguments: json.RawMessage(`{"path":"a"}`)},
		{ID: "x2", Name: "delete", Arguments: json.RawMessage(`{"path":"b"}`)},
	})
	if rs[0].Output != "deleted a" || rs[1].Output != `tool "delete" was denied: no` || !rs[1].IsError || d.Load() != 1 {
		t.Errorf("results %+v", rs)
	}
	if len(seen) != 2 || seen[0] != "x1 a" || seen[1] != "x2 b" {
		t.Errorf("approver saw %q", seen)
	}
}

// TestResumeStreamThenWhole: a reply first run streamed (arguments as the
// deltas spelled them, with spaces) and resumed whole (the assistant
// message as the host keeps it, compact) is one call: after the answer it
// runs once, and Batch.Pending is empty, not holding the streamed call's
// stale entry.
func TestResumeStreamThenWhole(t *testing.T) {
	var runs atomic.Int32
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(toolnexus.Tool{Name: "confirm", Description: "asks first",
		Handler: pendingOnce{&runs}}))
	e := exec.New(reg, nil)
	b := exec.NewBatch()
	stream := "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"confirm\",\"input\":{}}}\n\n" +
		"data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"path\\\": \"}}\n\n" +
		"data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"a\\\"}\"}}\n\n" +
		"data: {\"type\":\"content_block_stop\",\"index\":0}\n\ndata: {\"type\":\"message_stop\"}\n\n"
	_, err := e.AnthropicStream(exec.WithBatch(context.Background(), b), strings.NewReader(stream))
	require.NoError(t, err)
	require.Len(t, b.Pending(), 1)
	whole := []byte(`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"confirm","input":{"path":"a"}}]}`)
	msg, err := exec.Resume(context.Background(), b, []toolnexus.Answer{{ID: "q1", OK: true}},
		func(ctx context.Context) (exec.AnthropicMessage, error) { return e.AnthropicJSON(ctx, whole) })
	require.NoError(t, err)
	require.Equal(t, "confirmed", msg.Content[0].Content)
	assert.Empty(t, b.Pending())
	assert.Equal(t, int32(2), runs.Load())
}

// pendingOnce asks for the answer "q1", then answers "confirmed"; it
// counts its runs.
type pendingOnce struct{ runs *atomic.Int32 }

func (p pendingOnce) Call(ctx context.Context, _ json.RawMessage) toolnexus.Result {
	p.runs.Add(1)
	if _, ok := toolnexus.AnswerFor(ctx, "q1"); ok {
		return toolnexus.Result{Output: "confirmed"}
	}
	return toolnexus.PendingResult("asked", toolnexus.PendingRequest{ID: "q1", Kind: "question"})
}

// TestBatchKeysDoNotCollide: ids and names a model sends may hold NUL, so
// {id "a\x00count", name "count"} and {id "a", name "count\x00count"} are
// two calls; the second run must not reuse the first call's result (an
// unknown-tool error) for the other.
func TestBatchKeysDoNotCollide(t *testing.T) {
	var counts, deletes atomic.Int32
	e := resumeExecutor(t, &counts, &deletes)
	ctx := exec.WithBatch(context.Background(), exec.NewBatch())
	first, err := e.RunAll(ctx, []exec.Call{{ID: "a", Name: "count\x00count", Arguments: json.RawMessage(`{}`)}})
	require.NoError(t, err)
	require.True(t, first[0].IsError, "no tool has that name")

	second, err := e.RunAll(ctx, []exec.Call{{ID: "a\x00count", Name: "count", Arguments: json.RawMessage(`{}`)}})
	require.NoError(t, err)
	assert.False(t, second[0].IsError, second[0].Output)
	assert.Equal(t, "run 1", second[0].Output)
	assert.Equal(t, int32(1), counts.Load())
}
