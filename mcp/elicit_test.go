package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/builtin"
	"github.com/toolnexus/toolnexus/mcp"
)

type pathIn struct {
	Path string `json:"path"`
}

// elicitSession serves the question built-in and an approval tool to a
// go-sdk client whose elicitation handler is h (nil: no elicitation).
func elicitSession(t *testing.T, version string, h func(context.Context, *mcpsdk.ElicitRequest) (*mcpsdk.ElicitResult, error), ran *atomic.Int32) *mcpsdk.ClientSession {
	t.Helper()
	ctx := t.Context()
	reg := toolnexus.NewRegistry()
	tools, err := builtin.Tools(&builtin.Options{})
	require.NoError(t, err)
	for _, tl := range tools {
		if tl.Name == "question" {
			require.NoError(t, reg.Add(tl))
		}
	}
	require.NoError(t, reg.Add(deleteTool(t, ran)))
	s := mcp.NewServer(reg, nil)
	ct, st := mcpsdk.NewInMemoryTransports()
	go s.Run(ctx, st)
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "t", Version: "1"}, &mcpsdk.ClientOptions{ElicitationHandler: h})
	var copts *mcpsdk.ClientSessionOptions
	if version != "" {
		copts = &mcpsdk.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := c.Connect(ctx, ct, copts)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// deleteTool is a typed tool "delete" that needs approval; ran counts its
// runs.
func deleteTool(t *testing.T, ran *atomic.Int32) toolnexus.Tool {
	t.Helper()
	del, err := toolnexus.NewTool("delete", "deletes", func(_ context.Context, a pathIn) (string, error) {
		ran.Add(1)
		return "deleted " + a.Path, nil
	})
	require.NoError(t, err)
	del.NeedsApproval = true
	return del
}

func callText(t *testing.T, cs *mcpsdk.ClientSession, name, args string) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcpsdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	require.NoError(t, err)
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func TestServeQuestionElicitation(t *testing.T) {
	// The multi-round-trip protocol (2026-07-28, the default) and, for an
	// older client, elicitation/create sent by the SDK.
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("version "+version, func(t *testing.T) { testQuestionElicitation(t, version) })
	}
}

func testQuestionElicitation(t *testing.T, version string) {
	var asked *mcpsdk.ElicitParams
	var ran atomic.Int32
	cs := elicitSession(t, version, func(_ context.Context, r *mcpsdk.ElicitRequest) (*mcpsdk.ElicitResult, error) {
		asked = r.Params
		return &mcpsdk.ElicitResult{Action: "accept", Content: map[string]any{"q1": "blue", "q2": []any{"x", "z"}}}, nil
	}, &ran)
	out, isErr := callText(t, cs, "question", `{"questions":[{"question":"Which color?","options":["red","blue"]},{"question":"Which letters?","header":"Letters","options":["x","y","z"],"multiple":true}]}`)
	require.False(t, isErr, out)
	require.Equal(t, `{"answers":[["blue"],["x","z"]]}`, out)
	schema, _ := json.Marshal(asked.RequestedSchema)
	require.JSONEq(t, `{"type":"object","required":["q1","q2"],"properties":{"q1":{"type":"string","title":"Which color?","description":"Which color?","enum":["red","blue"]},`+
		`"q2":{"type":"array","title":"Letters","description":"Which letters?","items":{"type":"string","enum":["x","y","z"]}}}}`, string(schema))
}

func TestServeApprovalElicitation(t *testing.T) {
	var ran atomic.Int32
	approve := true
	cs := elicitSession(t, "", func(_ context.Context, r *mcpsdk.ElicitRequest) (*mcpsdk.ElicitResult, error) {
		return &mcpsdk.ElicitResult{Action: "accept", Content: map[string]any{"approve": approve}}, nil
	}, &ran)
	out, isErr := callText(t, cs, "delete", `{"path":"a"}`)
	require.False(t, isErr, out)
	require.Equal(t, "deleted a", out)
	approve = false
	out, isErr = callText(t, cs, "delete", `{"path":"b"}`)
	require.True(t, isErr)
	require.Equal(t, `tool "delete" was denied`, out)
	require.EqualValues(t, 1, ran.Load())
}

func TestServeElicitationDeclineAndUnsupported(t *testing.T) {
	var ran atomic.Int32
	for _, action := range []string{"decline", "cancel"} {
		cs := elicitSession(t, "", func(context.Context, *mcpsdk.ElicitRequest) (*mcpsdk.ElicitResult, error) {
			return &mcpsdk.ElicitResult{Action: action}, nil
		}, &ran)
		out, isErr := callText(t, cs, "question", `{"questions":[{"question":"Name?"}]}`)
		require.True(t, isErr, out)
		require.Contains(t, out, action[:len(action)-1])
	}
	// A client of 2026-07-28 without elicitation gets the JSON-RPC error
	// -32021 (SEP-2575) naming it; one of an earlier revision an error
	// result.
	calls := [][2]string{{"question", `{"questions":[{"question":"Name?"}]}`}, {"delete", `{"path":"a"}`}}
	cs := elicitSession(t, "", nil, &ran)
	for _, call := range calls {
		_, err := cs.CallTool(t.Context(), &mcpsdk.CallToolParams{Name: call[0], Arguments: json.RawMessage(call[1])})
		var werr *jsonrpc.Error
		require.ErrorAs(t, err, &werr)
		require.EqualValues(t, mcpsdk.CodeMissingRequiredClientCapabilities, werr.Code)
		require.JSONEq(t, `{"requiredCapabilities":{"elicitation":{}}}`, string(werr.Data))
	}
	cs = elicitSession(t, "2025-11-25", nil, &ran)
	for _, call := range calls {
		out, isErr := callText(t, cs, call[0], call[1])
		require.True(t, isErr, out)
		require.Contains(t, out, "needs a person to answer")
		require.Contains(t, out, "does not support elicitation")
	}
	require.EqualValues(t, 0, ran.Load())
}

// With RequireApprover an approval is never put to the client: only the
// registry's approver decides, and a call it leaves undecided is refused.
func TestServeRequireApprover(t *testing.T) {
	for _, tc := range []struct {
		approver toolnexus.Approver
		want     string
		isErr    bool
		ran      int32
	}{
		{nil, `tool "delete" needs approval, and this server takes it only from its own approver (ServerOptions.RequireApprover), which did not decide`, true, 0},
		{func(context.Context, toolnexus.ApprovalRequest) toolnexus.Approval {
			return toolnexus.Approval{Decision: toolnexus.Later}
		}, `tool "delete" needs approval, and this server takes it only from its own approver (ServerOptions.RequireApprover), which did not decide`, true, 0},
		{func(context.Context, toolnexus.ApprovalRequest) toolnexus.Approval {
			return toolnexus.Approval{Decision: toolnexus.Approve}
		}, "deleted a", false, 1},
	} {
		var ran, asked atomic.Int32
		reg := toolnexus.NewRegistryWith(&toolnexus.Options{Approver: tc.approver})
		require.NoError(t, reg.Add(deleteTool(t, &ran)))
		s := mcp.NewServer(reg, &mcp.ServerOptions{RequireApprover: true})
		ct, st := mcpsdk.NewInMemoryTransports()
		go s.Run(t.Context(), st)
		c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "t", Version: "1"}, &mcpsdk.ClientOptions{
			ElicitationHandler: func(context.Context, *mcpsdk.ElicitRequest) (*mcpsdk.ElicitResult, error) {
				asked.Add(1)
				return &mcpsdk.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
			}})
		cs, err := c.Connect(t.Context(), ct, nil)
		require.NoError(t, err)
		out, isErr := callText(t, cs, "delete", `{"path":"a"}`)
		cs.Close()
		require.Equal(t, tc.want, out)
		require.Equal(t, tc.isErr, isErr)
		require.Equal(t, tc.ran, ran.Load())
		require.Zero(t, asked.Load(), "approvals asked of the client")
	}
}
