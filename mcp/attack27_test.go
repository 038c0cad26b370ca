package mcp_test

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// flipTrailingBits returns state with the last character of its signature
// changed in the bits base64 decoding ignores: the same bytes, spelled
// differently.
func flipTrailingBits(state string) string {
	const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alpha, state[len(state)-1])
	return state[:len(state)-1] + string(alpha[last^1])
}

// A requestState is claimed once whatever its spelling: another base64
// spelling of the same bytes (ignored trailing bits, an inserted newline)
// is the same state, and its answers do not run the tool a second time.
func TestAttack27RequestStateRespelled(t *testing.T) {
	var ran atomic.Int32
	opts := allHandlers()
	opts.MultiRoundTrip = &mcpsdk.MultiRoundTripOptions{Disabled: true}
	cs := inputClient(t, inputRegistry(t, &ran), "", opts)
	call := func(responses mcpsdk.InputResponseMap, state string) (*mcpsdk.CallToolResult, error) {
		return cs.CallTool(t.Context(), &mcpsdk.CallToolParams{Name: "plan", Arguments: json.RawMessage(`{"topic":"tea"}`),
			InputResponses: responses, RequestState: state})
	}
	r1, err := call(nil, "")
	require.NoError(t, err)
	name := mcpsdk.InputResponseMap{"name": &mcpsdk.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}}
	r2, err := call(name, r1.RequestState)
	require.NoError(t, err)
	require.True(t, r2.NeedsInput())
	rest := func() mcpsdk.InputResponseMap {
		return mcpsdk.InputResponseMap{
			"sample": &mcpsdk.CreateMessageWithToolsResult{Role: "assistant", Model: "m", Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "about tea?"}}},
			"roots":  &mcpsdk.ListRootsResult{Roots: []*mcpsdk.Root{{URI: "file:///x"}}},
		}
	}
	r3, err := call(rest(), r2.RequestState)
	require.NoError(t, err)
	require.False(t, r3.NeedsInput())
	require.EqualValues(t, 1, ran.Load())

	body, sig, _ := strings.Cut(r2.RequestState, ".")
	for what, state := range map[string]string{
		"trailing bits": flipTrailingBits(r2.RequestState),
		"newline":       body + ".\n" + sig,
	} {
		_, err = call(rest(), state)
		var werr *jsonrpc.Error
		require.ErrorAs(t, err, &werr, what)
		require.EqualValues(t, jsonrpc.CodeInvalidParams, werr.Code, what)
		require.True(t, strings.HasPrefix(werr.Message, "requestState: "), werr.Message)
		require.EqualValues(t, 1, ran.Load(), "%s: the tool ran again", what)
	}
}

// A requestState is used once, whatever the request that uses it: one
// whose responses match nothing is asked again with a new state, and
// after that the old state does not run the tool too (else one round's
// answers, an approval among them, run it once per copy).
func TestAttack27RequestStateForked(t *testing.T) {
	var ran, runs atomic.Int32
	opts := allHandlers()
	opts.MultiRoundTrip = &mcpsdk.MultiRoundTripOptions{Disabled: true}
	cs := inputClient(t, countingInputRegistry(t, &ran, &runs), "", opts)
	call := func(responses mcpsdk.InputResponseMap, state string) (*mcpsdk.CallToolResult, error) {
		return cs.CallTool(t.Context(), &mcpsdk.CallToolParams{Name: "plan", Arguments: json.RawMessage(`{"topic":"tea"}`),
			InputResponses: responses, RequestState: state})
	}
	r1, err := call(nil, "")
	require.NoError(t, err)
	name := mcpsdk.InputResponseMap{"name": &mcpsdk.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}}
	r2, err := call(name, r1.RequestState)
	require.NoError(t, err)
	require.True(t, r2.NeedsInput())
	// A response to nothing asked: the round is asked again, with a new state.
	fork, err := call(mcpsdk.InputResponseMap{"bogus": &mcpsdk.ListRootsResult{}}, r2.RequestState)
	require.NoError(t, err)
	require.True(t, fork.NeedsInput())
	rest := func() mcpsdk.InputResponseMap {
		return mcpsdk.InputResponseMap{
			"sample": &mcpsdk.CreateMessageWithToolsResult{Role: "assistant", Model: "m", Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "about tea?"}}},
			"roots":  &mcpsdk.ListRootsResult{Roots: []*mcpsdk.Root{{URI: "file:///x"}}},
		}
	}
	for _, state := range []string{fork.RequestState, r2.RequestState} {
		_, _ = call(rest(), state)
	}
	require.EqualValues(t, 1, ran.Load(), "one round's answers ran the tool to its end more than once")
	before := runs.Load()
	_, err = call(nil, r2.RequestState)
	require.Error(t, err, "a used state without responses ran the tool again")
	require.Equal(t, before, runs.Load())
}
