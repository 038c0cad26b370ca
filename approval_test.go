package toolnexus_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
)

type deleteArgs struct {
	Path string `json:"path" validate:"required"`
}

// approvalRegistry has a typed and a raw tool that need approval; ran
// counts the handler runs.
func approvalRegistry(t *testing.T, a toolnexus.Approver, ran *atomic.Int32) *toolnexus.Registry {
	t.Helper()
	reg := toolnexus.NewRegistryWith(&toolnexus.Options{Approver: a})
	typed, err := toolnexus.NewTool("delete", "deletes a file", func(_ context.Context, in deleteArgs) (string, error) {
		ran.Add(1)
		return "deleted " + in.Path, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	typed.NeedsApproval = true
	raw := toolnexus.Tool{Name: "wipe", Description: "wipes", NeedsApproval: true,
		Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) {
			ran.Add(1)
			return "wiped", nil
		})}
	if err := reg.Add(typed); err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(raw); err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestApprovalDecisions(t *testing.T) {
	ctx := context.Background()
	var got []toolnexus.ApprovalRequest
	decide := toolnexus.Approve
	approver := func(_ context.Context, req toolnexus.ApprovalRequest) toolnexus.Approval {
		got = append(got, req)
		return toolnexus.Approval{Decision: decide, Reason: "not on Fridays"}
	}
	var ran atomic.Int32
	reg := approvalRegistry(t, approver, &ran)

	res := reg.Execute(ctx, "delete", json.RawMessage(`{"path":"/tmp/x"}`))
	if res.IsError || res.Output != "deleted /tmp/x" || ran.Load() != 1 {
		t.Fatalf("approved: %+v, ran %d", res, ran.Load())
	}
	if len(got) != 1 || got[0].Tool != "delete" || string(got[0].Arguments) != `{"path":"/tmp/x"}` {
		t.Fatalf("approver got %+v", got)
	}
	if a, ok := got[0].Args.(deleteArgs); !ok || a.Path != "/tmp/x" {
		t.Errorf("Args = %#v, want the decoded deleteArgs", got[0].Args)
	}

	// Bad arguments fail before anyone is asked.
	got = nil
	res = reg.Execute(ctx, "delete", json.RawMessage(`{}`))
	if !res.IsError || len(got) != 0 {
		t.Errorf("invalid args: %+v, approver asked %d times", res, len(got))
	}
	res = reg.Execute(ctx, "wipe", json.RawMessage(`[1]`))
	if !res.IsError || len(got) != 0 {
		t.Errorf("raw non-object args: %+v, approver asked %d times", res, len(got))
	}

	// Raw tools: the checked raw JSON, no decoded value.
	res = reg.Execute(ctx, "wipe", json.RawMessage(` null `))
	if res.Output != "wiped" || len(got) != 1 || string(got[0].Arguments) != `{}` || got[0].Args != nil {
		t.Errorf("raw approved: %+v, approver got %+v", res, got)
	}

	decide = toolnexus.Deny
	before := ran.Load()
	res = reg.Execute(ctx, "delete", json.RawMessage(`{"path":"/etc"}`))
	if !res.IsError || res.Output != `tool "delete" was denied: not on Fridays` || !errors.Is(res.Err, toolnexus.ErrDenied) || ran.Load() != before {
		t.Errorf("denied: %+v, ran %d", res, ran.Load()-before)
	}

	for _, d := range []toolnexus.Decision{toolnexus.Later, 42} {
		decide = d
		res = reg.Execute(ctx, "delete", json.RawMessage(`{"path":"/etc"}`))
		p, ok := toolnexus.PendingFrom(res)
		if !ok || p.Kind != toolnexus.PendingKindApproval || ran.Load() != before {
			t.Fatalf("decision %d: %+v, ran %d", d, res, ran.Load()-before)
		}
		if p.ID != toolnexus.ApprovalID("delete", json.RawMessage(`{"path":"/etc"}`)) ||
			string(p.Data) != `{"tool":"delete","arguments":{"path":"/etc"}}` {
			t.Errorf("pending = %+v", p)
		}
	}
}

func TestApprovalWithoutApproverIsPending(t *testing.T) {
	var ran atomic.Int32
	reg := approvalRegistry(t, nil, &ran)
	for _, name := range []string{"delete", "wipe"} {
		res := reg.Execute(context.Background(), name, json.RawMessage(`{"path":"a"}`))
		if p, ok := toolnexus.PendingFrom(res); !ok || p.Kind != "approval" {
			t.Errorf("%s: %+v, want a pending approval", name, res)
		}
	}
	if ran.Load() != 0 {
		t.Errorf("ran %d times without approval", ran.Load())
	}
}

func TestApprovalAnswerAndContextApprover(t *testing.T) {
	var ran atomic.Int32
	reg := approvalRegistry(t, nil, &ran)
	args := json.RawMessage(`{"path":"a"}`)
	id := toolnexus.ApprovalID("delete", args)

	ctx := toolnexus.WithAnswer(context.Background(), toolnexus.Answer{ID: id, OK: false, Data: json.RawMessage(`"too risky"`)})
	if res := reg.Execute(ctx, "delete", args); res.Output != `tool "delete" was denied: too risky` || ran.Load() != 0 {
		t.Errorf("declined answer: %+v", res)
	}
	ctx = toolnexus.WithAnswer(context.Background(), toolnexus.Answer{ID: id, OK: true})
	if res := reg.Execute(ctx, "delete", args); res.Output != "deleted a" || ran.Load() != 1 {
		t.Errorf("approving answer: %+v", res)
	}
	// An answer for other arguments does not approve this call.
	if res := reg.Execute(ctx, "delete", json.RawMessage(`{"path":"b"}`)); ran.Load() != 1 {
		t.Errorf("answer for other arguments ran the call: %+v", res)
	}

	var callID string
	ctx = toolnexus.WithApprover(context.Background(), "call_7", func(_ context.Context, r toolnexus.ApprovalRequest) toolnexus.Approval {
		callID = r.CallID
		return toolnexus.Approval{Decision: toolnexus.Approve}
	})
	if res := reg.Execute(ctx, "wipe", nil); res.Output != "wiped" || callID != "call_7" {
		t.Errorf("context approver: %+v, call id %q", res, callID)
	}
}

// TestApprovalRenamedTypedTool: a typed tool renamed before it is added
// (as namespaced rendering needs, "fs__delete") still waits for approval.
func TestApprovalRenamedTypedTool(t *testing.T) {
	var ran atomic.Int32
	tool, err := toolnexus.NewTool("delete", "deletes a file", func(_ context.Context, in deleteArgs) (string, error) {
		ran.Add(1)
		return "deleted " + in.Path, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tool.Name, tool.NeedsApproval = "fs__delete", true
	reg := toolnexus.NewRegistry()
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
	res := reg.Execute(context.Background(), "fs__delete", json.RawMessage(`{"path":"/etc"}`))
	if p, ok := toolnexus.PendingFrom(res); !ok || p.Kind != toolnexus.PendingKindApproval {
		t.Errorf("renamed tool without an approver: %+v, want a pending approval", res)
	}
	if ran.Load() != 0 {
		t.Errorf("renamed tool ran %d times without approval", ran.Load())
	}
}

// The approval ID is keyed by a secret of the process, so a client that
// knows the tool and the arguments cannot compute it, and it is taken over
// the normalized arguments: whitespace does not change it.
func TestApprovalIDKeyedAndNormalized(t *testing.T) {
	args := json.RawMessage(`{"path":"a"}`)
	id := toolnexus.ApprovalID("wipe", args)
	sum := sha256.Sum256([]byte("wipe\x00" + string(args)))
	assert.NotEqual(t, "approval_"+hex.EncodeToString(sum[:8]), id, "ID computable without the secret")
	assert.Regexp(t, `^approval_[0-9a-f]{16}$`, id)
	assert.Equal(t, id, toolnexus.ApprovalID("wipe", json.RawMessage(" {\"path\" :\n \"a\"} ")))
	assert.Equal(t, toolnexus.ApprovalID("wipe", json.RawMessage(`{}`)), toolnexus.ApprovalID("wipe", json.RawMessage(`null`)))
	assert.NotEqual(t, id, toolnexus.ApprovalID("wipe", json.RawMessage(`{"path":"b"}`)))

	var ran atomic.Int32
	reg := approvalRegistry(t, nil, &ran)
	for _, name := range []string{"delete", "wipe"} {
		spaced := json.RawMessage(`{ "path": "a" }`)
		p, ok := toolnexus.PendingFrom(reg.Execute(context.Background(), name, spaced))
		require.True(t, ok, name)
		assert.Equal(t, toolnexus.ApprovalID(name, args), p.ID, name)
		assert.Equal(t, `{"tool":"`+name+`","arguments":{"path":"a"}}`, string(p.Data), name)
		ctx := toolnexus.WithAnswer(context.Background(), toolnexus.Answer{ID: toolnexus.ApprovalID(name, args), OK: true})
		assert.False(t, reg.Execute(ctx, name, spaced).IsError, name)
	}
	assert.Equal(t, int32(2), ran.Load())
}
