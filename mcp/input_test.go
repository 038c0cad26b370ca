package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp"
)

// inputRegistry has "plan": it asks a name (a form) and, once answered, a
// sample of the client's model and the client's roots at once (what of
// them is still unanswered), then says what it got; ran counts the runs
// that finished.
func inputRegistry(t *testing.T, ran *atomic.Int32) *toolnexus.Registry {
	return countingInputRegistry(t, ran, new(atomic.Int32))
}

// countingInputRegistry is inputRegistry that counts every run in runs.
func countingInputRegistry(t *testing.T, ran, runs *atomic.Int32) *toolnexus.Registry {
	t.Helper()
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.RegisterResult(reg, "plan", "plans", func(ctx context.Context, a struct {
		Topic string `json:"topic"`
	}) toolnexus.Result {
		runs.Add(1)
		name, ok := toolnexus.AnswerFor(ctx, "name")
		if !ok {
			return toolnexus.PendingResult("waiting", toolnexus.PendingRequest{ID: "name", Kind: toolnexus.PendingKindForm, Prompt: "Your name?",
				Data: json.RawMessage(`{"schema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}`)})
		}
		sample, ok1 := toolnexus.AnswerFor(ctx, "sample")
		roots, ok2 := toolnexus.AnswerFor(ctx, "roots")
		var ask []toolnexus.PendingRequest
		if !ok1 {
			ask = append(ask, toolnexus.PendingRequest{ID: "sample", Kind: mcp.PendingKindSampling,
				Data: json.RawMessage(`{"maxTokens":20,"messages":[{"role":"user","content":{"type":"text","text":"` + a.Topic + `?"}}]}`)})
		}
		if !ok2 {
			ask = append(ask, toolnexus.PendingRequest{ID: "roots", Kind: mcp.PendingKindRoots})
		}
		if len(ask) > 0 {
			return toolnexus.PendingResult("waiting", ask[0], ask[1:]...)
		}
		ran.Add(1)
		var s struct {
			Content struct{ Text string } `json:"content"`
		}
		var r struct {
			Roots []struct{ URI string } `json:"roots"`
		}
		_ = json.Unmarshal(sample.Data, &s)
		_ = json.Unmarshal(roots.Data, &r)
		return toolnexus.Result{Output: string(name.Data) + " " + s.Content.Text + " " + r.Roots[0].URI}
	}))
	return reg
}

func inputClient(t *testing.T, reg *toolnexus.Registry, version string, opts *mcpsdk.ClientOptions) *mcpsdk.ClientSession {
	t.Helper()
	s := mcp.NewServer(reg, nil)
	ct, st := mcpsdk.NewInMemoryTransports()
	go s.Run(t.Context(), st)
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "t", Version: "1"}, opts)
	c.AddRoots(&mcpsdk.Root{URI: "file:///work", Name: "work"})
	var copts *mcpsdk.ClientSessionOptions
	if version != "" {
		copts = &mcpsdk.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := c.Connect(t.Context(), ct, copts)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func allHandlers() *mcpsdk.ClientOptions {
	return &mcpsdk.ClientOptions{
		ElicitationHandler: func(context.Context, *mcpsdk.ElicitRequest) (*mcpsdk.ElicitResult, error) {
			return &mcpsdk.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
		CreateMessageHandler: func(_ context.Context, r *mcpsdk.CreateMessageRequest) (*mcpsdk.CreateMessageResult, error) {
			q := r.Params.Messages[0].Content.(*mcpsdk.TextContent).Text
			return &mcpsdk.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcpsdk.TextContent{Text: "about " + q}}, nil
		},
	}
}

// Two rounds of input (a form, then a sample and the roots at once) reach
// the tool, for a client of 2026-07-28 (input-required results, the
// answers of round one carried in the requestState) and for one of
// 2025-11-25 (asked directly while the call runs). Either way the tool
// runs once per round and once to finish.
func TestInputRounds(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("version "+version, func(t *testing.T) {
			var ran, runs atomic.Int32
			cs := inputClient(t, countingInputRegistry(t, &ran, &runs), version, allHandlers())
			out, isErr := callText(t, cs, "plan", `{"topic":"tea"}`)
			require.False(t, isErr, out)
			require.Equal(t, `{"name":"Ada"} about tea? file:///work`, out)
			require.EqualValues(t, 1, ran.Load())
			require.EqualValues(t, 3, runs.Load(), "runs of the tool")
		})
	}
}

// A client of 2026-07-28 that drives the rounds itself sees each round's
// input requests and requestState; a state that was changed, or that was
// issued for other arguments, is refused with -32602 and the tool does not
// finish; the right one finishes it.
func TestInputRequestState(t *testing.T) {
	var ran atomic.Int32
	opts := allHandlers()
	opts.MultiRoundTrip = &mcpsdk.MultiRoundTripOptions{Disabled: true}
	cs := inputClient(t, inputRegistry(t, &ran), "", opts)
	call := func(args string, responses mcpsdk.InputResponseMap, state string) (*mcpsdk.CallToolResult, error) {
		return cs.CallTool(t.Context(), &mcpsdk.CallToolParams{Name: "plan", Arguments: json.RawMessage(args),
			InputResponses: responses, RequestState: state})
	}
	r1, err := call(`{"topic":"tea"}`, nil, "")
	require.NoError(t, err)
	require.True(t, r1.NeedsInput())
	require.Len(t, r1.InputRequests, 1)
	form, ok := r1.InputRequests["name"].(*mcpsdk.ElicitParams)
	require.True(t, ok, "%T", r1.InputRequests["name"])
	require.Equal(t, "Your name?", form.Message)
	require.NotEmpty(t, r1.RequestState)

	name := mcpsdk.InputResponseMap{"name": &mcpsdk.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}}
	r2, err := call(`{"topic":"tea"}`, name, r1.RequestState)
	require.NoError(t, err)
	require.True(t, r2.NeedsInput())
	require.Len(t, r2.InputRequests, 2)
	require.Contains(t, []string{"*mcp.CreateMessageParams", "*mcp.CreateMessageWithToolsParams"}, fmt.Sprintf("%T", r2.InputRequests["sample"]))
	require.IsType(t, &mcpsdk.ListRootsParams{}, r2.InputRequests["roots"])

	rest := mcpsdk.InputResponseMap{
		"sample": &mcpsdk.CreateMessageWithToolsResult{Role: "assistant", Model: "m", Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "about tea?"}}},
		"roots":  &mcpsdk.ListRootsResult{Roots: []*mcpsdk.Root{{URI: "file:///x"}}},
	}
	for name, tc := range map[string]struct{ args, state string }{
		"changed":    {`{"topic":"tea"}`, r2.RequestState[:len(r2.RequestState)-2] + "AA"},
		"other call": {`{"topic":"coffee"}`, r2.RequestState},
		"garbage":    {`{"topic":"tea"}`, "not-a-state"},
	} {
		_, err := call(tc.args, rest, tc.state)
		var werr *jsonrpc.Error
		require.ErrorAs(t, err, &werr, name)
		require.EqualValues(t, jsonrpc.CodeInvalidParams, werr.Code, name)
		require.True(t, strings.HasPrefix(werr.Message, "requestState: "), werr.Message)
	}
	require.EqualValues(t, 0, ran.Load())

	// Another encoding of the same arguments belongs to the same call.
	r3, err := call(`{ "topic" : "tea" }`, rest, r2.RequestState)
	require.NoError(t, err)
	require.False(t, r3.NeedsInput())
	require.Equal(t, `{"name":"Ada"} about tea? file:///x`, r3.Content[0].(*mcpsdk.TextContent).Text)
	require.EqualValues(t, 1, ran.Load())

	// The same answers again do not run the tool again.
	_, err = call(`{"topic":"tea"}`, rest, r2.RequestState)
	var werr *jsonrpc.Error
	require.ErrorAs(t, err, &werr)
	require.Equal(t, "requestState: was already used (the answers of one round run the tool once)", werr.Message)
	require.EqualValues(t, 1, ran.Load())
}

// A client of 2026-07-28 is asked only what it declared: without
// sampling, the round holds the roots only, and once that is answered and
// nothing else can be asked, the call is the JSON-RPC error -32021 naming
// sampling. One of 2025-11-25 gets an error result instead.
func TestInputCapabilities(t *testing.T) {
	var ran atomic.Int32
	noSampling := &mcpsdk.ClientOptions{ElicitationHandler: allHandlers().ElicitationHandler,
		MultiRoundTrip: &mcpsdk.MultiRoundTripOptions{Disabled: true}}
	cs := inputClient(t, inputRegistry(t, &ran), "", noSampling)
	name := mcpsdk.InputResponseMap{"name": &mcpsdk.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}}
	r1, err := cs.CallTool(t.Context(), &mcpsdk.CallToolParams{Name: "plan", Arguments: json.RawMessage(`{"topic":"x"}`), InputResponses: name})
	require.NoError(t, err)
	require.Len(t, r1.InputRequests, 1)
	require.IsType(t, &mcpsdk.ListRootsParams{}, r1.InputRequests["roots"])
	_, err = cs.CallTool(t.Context(), &mcpsdk.CallToolParams{Name: "plan", Arguments: json.RawMessage(`{"topic":"x"}`), RequestState: r1.RequestState,
		InputResponses: mcpsdk.InputResponseMap{"roots": &mcpsdk.ListRootsResult{Roots: []*mcpsdk.Root{}}}})
	var werr *jsonrpc.Error
	require.ErrorAs(t, err, &werr)
	require.EqualValues(t, mcpsdk.CodeMissingRequiredClientCapabilities, werr.Code)
	require.JSONEq(t, `{"requiredCapabilities":{"sampling":{}}}`, string(werr.Data))

	old := inputClient(t, inputRegistry(t, &ran), "2025-11-25", &mcpsdk.ClientOptions{ElicitationHandler: allHandlers().ElicitationHandler})
	out, isErr := callText(t, old, "plan", `{"topic":"x"}`)
	require.True(t, isErr)
	require.Equal(t, `tool "plan" needs a person to answer (sampling), and this MCP client does not support sampling`, out)
	require.EqualValues(t, 0, ran.Load())
}
