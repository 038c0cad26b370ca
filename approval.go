package toolnexus

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync/atomic"
)

// PendingKindApproval is the [PendingRequest.Kind] of a call of a tool with
// Tool.NeedsApproval that no approver decided: a person is asked to
// approve or deny it. Its Data is {"tool":"name","arguments":{…}}, the
// checked arguments (compacted); its ID is [ApprovalID] of the tool name
// and those arguments, so a re-run of the same call in the same process
// finds the [Answer] meant for it (OK approves; not OK denies, with the
// answer's Data as the reason when it is a JSON string).
const PendingKindApproval = "approval"

// Decision is an [Approver]'s verdict on one call.
type Decision int

const (
	// Later leaves the call undecided: it becomes a pending request of
	// kind PendingKindApproval. The zero Decision means Later too, so an
	// approver that forgets to decide never lets a call run.
	Later Decision = iota
	// Approve runs the call.
	Approve
	// Deny answers the call with an error result that carries the reason.
	Deny
)

// Approval is what an [Approver] returns.
type Approval struct {
	// Decision is Approve, Deny or Later (any other value counts as Later).
	Decision Decision
	// Reason, for Deny, is shown to the model: the error result's Output
	// is `tool "name" was denied: <Reason>` ("tool "name" was denied"
	// when Reason is "").
	Reason string
}

// ApprovalRequest describes one call waiting for approval.
type ApprovalRequest struct {
	// Tool is the registry name of the tool.
	Tool string
	// CallID is the id attached with [WithApprover] (exec attaches the
	// provider's call id when its Options.Approver is set), else "".
	CallID string
	// Arguments are the checked arguments, one compact JSON object ({}
	// for none); for a typed tool, with the schema's defaults applied.
	Arguments json.RawMessage
	// Args is, for a typed tool, its decoded argument value (the tool's
	// argument type, e.g. a struct); nil for raw tools.
	Args any
}

// Approver decides whether a call of a tool with Tool.NeedsApproval runs.
// It is called on the call's goroutine, after the arguments are checked
// (and, for typed tools, decoded and validated), at most once per call. A
// panic in it is the call's internal error; the handler does not run.
type Approver func(ctx context.Context, req ApprovalRequest) Approval

type approverKey struct{}

type approverValue struct {
	a      Approver
	callID string
}

// WithApprover returns a copy of ctx whose calls of tools with
// NeedsApproval are decided by a (instead of Options.Approver; a nil a
// keeps Options.Approver) and reported with callID in
// ApprovalRequest.CallID. exec attaches its Options.Approver this way.
func WithApprover(ctx context.Context, callID string, a Approver) context.Context {
	return context.WithValue(ctx, approverKey{}, approverValue{a: a, callID: callID})
}

func approverFrom(ctx context.Context) (Approver, string) {
	v, _ := ctx.Value(approverKey{}).(approverValue)
	return v.a, v.callID
}

// gateKey carries the approvalGate of a typed tool's call to its handler,
// which asks it once the arguments are decoded.
type gateKey struct{}

type approvalGate struct {
	taken    atomic.Bool // set by the one handler that asks it (gateFor)
	tool     string
	callID   string
	approver Approver
}

// gateFor takes the gate that the registry attached to this call of a
// typed tool, or returns nil when there is none. The gate is the registry
// call's, whatever name the handler was built with (a typed tool may be
// renamed before it is added), and it is taken once: the handler of the
// registered tool takes it before its function runs, so a typed handler
// called directly from inside that function with the same ctx finds none.
func gateFor(ctx context.Context) *approvalGate {
	g, _ := ctx.Value(gateKey{}).(*approvalGate)
	if g == nil || !g.taken.CompareAndSwap(false, true) {
		return nil
	}
	return g
}

// approvalKey keys ApprovalID; it is made when the process starts.
var approvalKey = []byte(rand.Text())

// ApprovalID is the [PendingRequest.ID] of the approval of a call of tool
// with the arguments args: "approval_" and 16 hex digits of an HMAC-SHA256,
// keyed by a secret the process makes when it starts, over the tool name
// and args compacted ("", whitespace and null count as {}). Whitespace in
// args does not change it; key order does. Nobody outside the process (a
// model, an MCP client) can compute it, so an answer can only be given to
// a request that was shown; and it is the same only within one process: a
// host that keeps pending approvals across restarts keeps their IDs too,
// and an approval asked by one replica is answered on the same one.
func ApprovalID(tool string, args json.RawMessage) string {
	h := hmac.New(sha256.New, approvalKey)
	h.Write([]byte(tool))
	h.Write([]byte{0})
	h.Write(compactArgs(args))
	return "approval_" + hex.EncodeToString(h.Sum(nil)[:8])
}

// RekeyApproval returns a, an answer to p, as the answer to the same call's
// approval in this process: p is an approval request (PendingKindApproval,
// Data {"tool","arguments"}) that another process may have made, whose
// [ApprovalID] is keyed by that process's secret; the answer returned has
// this process's ApprovalID of the tool and arguments. ok is false when p
// is not an approval request. Package mcp uses it for a retried call that
// reaches another replica, package exec for a Batch loaded from a store.
func RekeyApproval(p PendingRequest, a Answer) (Answer, bool) {
	if p.Kind != PendingKindApproval {
		return Answer{}, false
	}
	var d struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(p.Data, &d) != nil || d.Tool == "" {
		return Answer{}, false
	}
	a.ID = ApprovalID(d.Tool, d.Arguments)
	return a, true
}

// compactArgs is args normalized (see normalizeArgs) and compacted; args
// that are not valid JSON are returned as they are.
func compactArgs(args json.RawMessage) json.RawMessage {
	args = normalizeArgs(args)
	var buf bytes.Buffer
	if json.Compact(&buf, args) != nil || buf.Len() == len(args) {
		return args
	}
	return buf.Bytes()
}

// approve decides one call: stop is false when the handler may run,
// otherwise r is the call's result (denied or pending). An answer
// attached with WithAnswer for this call's ApprovalID decides first.
func (g *approvalGate) approve(ctx context.Context, args json.RawMessage, decoded any) (r Result, stop bool) {
	args = compactArgs(args)
	id := ApprovalID(g.tool, args)
	if a, ok := AnswerFor(ctx, id); ok {
		if a.OK {
			return Result{}, false
		}
		var reason string
		_ = json.Unmarshal(a.Data, &reason)
		return denied(g.tool, reason), true
	}
	var v Approval
	if g.approver != nil {
		v = g.approver(ctx, ApprovalRequest{Tool: g.tool, CallID: g.callID, Arguments: args, Args: decoded})
	}
	switch v.Decision {
	case Approve:
		return Result{}, false
	case Deny:
		return denied(g.tool, v.Reason), true
	}
	data, _ := json.Marshal(struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	}{g.tool, args})
	p := PendingRequest{ID: id, Kind: PendingKindApproval, Data: data,
		Prompt: fmt.Sprintf("Allow the tool %q to run with the arguments %s?", g.tool, args)}
	return PendingResult(fmt.Sprintf("waiting for a person to approve the call of %q", g.tool), p), true
}

// ErrDenied is the Result.Err (wrapped) of a call an approver or a person
// denied.
var ErrDenied = fmt.Errorf("toolnexus: call denied")

func denied(tool, reason string) Result {
	out := fmt.Sprintf("tool %q was denied", tool)
	if reason != "" {
		out += ": " + reason
	}
	return Result{Output: out, IsError: true, Err: fmt.Errorf("%w: tool %q: %s", ErrDenied, tool, reason)}
}
