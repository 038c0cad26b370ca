package mcp

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
)

// PendingKindSampling is the [toolnexus.PendingRequest] Kind of a tool
// that asks the MCP client's model for a completion (sampling/createMessage,
// https://modelcontextprotocol.io/specification/2025-11-25/client/sampling).
// Data is the request's params, for example
// {"messages":[{"role":"user","content":{"type":"text","text":"…"}}],"maxTokens":100};
// the Answer's Data is the client's result,
// {"role":"assistant","content":{"type":"text","text":"…"},"model":"…","stopReason":"…"}.
// Served by [Server], it is asked of a client that declares sampling;
// another host sees an ordinary pending request.
const PendingKindSampling = "sampling"

// PendingKindRoots is the [toolnexus.PendingRequest] Kind of a tool that
// asks the MCP client for its roots (roots/list,
// https://modelcontextprotocol.io/specification/2025-11-25/client/roots).
// Data is unused; the Answer's Data is the client's result,
// {"roots":[{"uri":"file:///…","name":"…"}]}.
const PendingKindRoots = "roots"

// maxInputRounds bounds how many rounds of questions one tools/call may
// put to the client (counted across the retried calls of the 2026-07-28
// revision too): a tool that keeps asking gets an error result.
const maxInputRounds = 8

// stateTTL is how long a requestState the server issued stays valid.
const stateTTL = time.Hour

// askPerson runs a tool and puts what it asks for (its pending requests:
// forms, questions and approvals as elicitation, PendingKindSampling,
// PendingKindRoots) to the client, then runs it again with the answers
// (toolnexus.WithAnswer), until it finishes.
//
//   - A client of the 2026-07-28 revision or later gets them as one round
//     of input requests (an input-required result, SEP-2322) keyed by each
//     PendingRequest.ID, with a requestState that holds the answers of the
//     earlier rounds, sealed with the server's key (see
//     ServerOptions.StateKey): a retried call whose requestState does not
//     verify, has expired, or belongs to another call is the JSON-RPC error
//     -32602, and its tool does not run. Requests whose capability the
//     client did not declare are left out; when that leaves none, the
//     answer is the JSON-RPC error -32021 naming the capabilities.
//   - A client of an earlier revision is asked directly
//     (elicitation/create, sampling/createMessage, roots/list) while the
//     call runs; a missing capability is an error result.
//
// A declined or cancelled elicitation is an error result. With
// serverApproves, an approval is never asked (ServerOptions.RequireApprover).
func (s *Server) askPerson(ctx context.Context, req *mcpsdk.CallToolRequest, name string, args json.RawMessage, run func(context.Context) toolnexus.Result) (*mcpsdk.CallToolResult, error) {
	// The digest of the arguments and the client's capabilities are
	// needed only once a state comes in or a tool asks: not for the plain
	// calls that are most of them.
	st := inputState{Tool: name}
	var responses mcpsdk.InputResponseMap
	if req.Params != nil {
		responses = req.Params.InputResponses
		if req.Params.RequestState != "" {
			st.Args = argsDigest(args)
			sealed, err := s.openState(req.Params.RequestState, &st)
			if err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "requestState: " + err.Error()}
			}
			// A state is used once, before the tool runs with its answers:
			// a second request with it (a replay, the same retry sent to
			// two replicas, or a copy kept after a round asked again) is
			// refused, so one round's answers run the tool once.
			if err := s.claim(ctx, sealed, st.Expires); err != nil {
				return nil, err
			}
		}
	}
	for _, a := range st.Answers {
		ctx = toolnexus.WithAnswer(ctx, a)
	}
	for _, ap := range st.Approvals {
		ctx = toolnexus.WithAnswer(ctx, ap.answer())
	}
	var caps *mcpsdk.ClientCapabilities
	multiRound := !olderRevision(req)
	// pending are the requests the answers in responses are matched to:
	// those of the tool's last run (rerun), or those the client was asked,
	// from the requestState of a retried call or just now directly.
	var pending []toolnexus.PendingRequest
	rerun := true
	if len(st.Asked) > 0 && len(responses) > 0 {
		pending, rerun = st.Asked, false
	}
	st.Asked = nil
	for {
		if rerun {
			res := run(ctx)
			if pending = toolnexus.PendingAll(res); len(pending) == 0 {
				return callResult(res), nil
			}
		}
		rerun = true
		if caps == nil {
			caps = req.ClientCapabilities()
		}
		ask := mcpsdk.InputRequestMap{}
		var asked []toolnexus.PendingRequest
		var missing []string
		answered := false
		for _, p := range pending {
			if s.opts.RequireApprover && p.Kind == toolnexus.PendingKindApproval {
				return callResult(errResult(fmt.Sprintf("tool %q needs approval, and this server takes it only from its own approver (ServerOptions.RequireApprover), which did not decide", name))), nil
			}
			in, err := inputFor(&p)
			if err != nil {
				return callResult(errResult(fmt.Sprintf("tool %q: %v", name, err))), nil
			}
			if r, ok := responses[p.ID]; ok {
				delete(responses, p.ID)
				if er, ok := r.(*mcpsdk.ElicitResult); ok && in.capability == "elicitation" && er.Action != "accept" {
					return callResult(errResult(fmt.Sprintf("tool %q: the person %s", name, declined(er)))), nil
				}
				if a, ok := in.answer(r); ok {
					if local, ok := toolnexus.RekeyApproval(p, a); ok {
						st.Approvals = append(st.Approvals, approvalAnswer{Request: p, Answer: a})
						a = local
					} else {
						st.Answers = append(st.Answers, a)
					}
					ctx = toolnexus.WithAnswer(ctx, a)
					answered = true
					continue
				}
			}
			if !in.supported(caps) {
				missing = append(missing, in.capability)
				continue
			}
			ask[p.ID] = in.request
			asked = append(asked, p)
		}
		if answered {
			continue
		}
		if len(ask) == 0 {
			slices.Sort(missing)
			missing = slices.Compact(missing)
			if multiRound {
				return nil, missingCapabilities(missing)
			}
			return callResult(errResult(fmt.Sprintf("tool %q needs a person to answer (%s), and this MCP client does not support %s", name, pending[0].Kind, strings.Join(missing, " or ")))), nil
		}
		if st.Rounds == maxInputRounds {
			return callResult(errResult(fmt.Sprintf("tool %q still needs input after %d rounds", name, st.Rounds))), nil
		}
		st.Rounds++
		if multiRound {
			st.Expires, st.Asked = time.Now().Add(stateTTL).Unix(), asked
			if st.Args == "" {
				st.Args = argsDigest(args)
			}
			return &mcpsdk.CallToolResult{InputRequests: ask, RequestState: s.sealState(&st)}, nil
		}
		responses = mcpsdk.InputResponseMap{}
		for id, r := range ask {
			resp, err := askSession(ctx, req.Session, r)
			if err != nil {
				return callResult(errResult(fmt.Sprintf("tool %q: the client did not answer: %v", name, err))), nil
			}
			responses[id] = resp
		}
		rerun = false
	}
}

// input is one pending request as the client is asked it.
type input struct {
	request    mcpsdk.InputRequest
	capability string // "elicitation", "sampling" or "roots"
	url        bool   // elicitation in URL mode
	answer     func(mcpsdk.InputResponse) (toolnexus.Answer, bool)
}

// inputFor is how p is asked: PendingKindSampling and PendingKindRoots as
// themselves, PendingKindURL as URL-mode elicitation, every other kind as
// a form (see formFor). It fails only for a sampling request whose Data is
// not sampling/createMessage params.
func inputFor(p *toolnexus.PendingRequest) (*input, error) {
	id := p.ID
	whole := func(r mcpsdk.InputResponse) toolnexus.Answer {
		data, _ := json.Marshal(r)
		return toolnexus.Answer{ID: id, OK: true, Data: data}
	}
	switch p.Kind {
	case PendingKindSampling:
		var params mcpsdk.CreateMessageParams
		if err := json.Unmarshal(p.Data, &params); err != nil {
			return nil, fmt.Errorf("its sampling request is not sampling/createMessage params: %v", err)
		}
		return &input{request: &params, capability: "sampling", answer: func(r mcpsdk.InputResponse) (toolnexus.Answer, bool) {
			switch r.(type) {
			case *mcpsdk.CreateMessageResult, *mcpsdk.CreateMessageWithToolsResult:
				return whole(r), true
			}
			return toolnexus.Answer{}, false
		}}, nil
	case PendingKindRoots:
		return &input{request: &mcpsdk.ListRootsParams{}, capability: "roots", answer: func(r mcpsdk.InputResponse) (toolnexus.Answer, bool) {
			_, ok := r.(*mcpsdk.ListRootsResult)
			return whole(r), ok
		}}, nil
	case toolnexus.PendingKindURL:
		var d struct {
			URL string `json:"url"`
		}
		_ = json.Unmarshal(p.Data, &d)
		return &input{request: &mcpsdk.ElicitParams{Mode: "url", Message: p.Prompt, URL: d.URL, ElicitationID: id},
			capability: "elicitation", url: true, answer: func(r mcpsdk.InputResponse) (toolnexus.Answer, bool) {
				_, ok := r.(*mcpsdk.ElicitResult)
				return toolnexus.Answer{ID: id, OK: true}, ok
			}}, nil
	}
	schema, decode := formFor(p)
	return &input{request: &mcpsdk.ElicitParams{Mode: "form", Message: p.Prompt, RequestedSchema: schema},
		capability: "elicitation", answer: func(r mcpsdk.InputResponse) (toolnexus.Answer, bool) {
			er, ok := r.(*mcpsdk.ElicitResult)
			if !ok {
				return toolnexus.Answer{}, false
			}
			return decode(er.Content), true
		}}, nil
}

// supported reports whether caps, the client's declared capabilities,
// include what in needs.
func (in *input) supported(caps *mcpsdk.ClientCapabilities) bool {
	if caps == nil {
		return false
	}
	switch in.capability {
	case "sampling":
		return caps.Sampling != nil
	case "roots":
		return caps.RootsV2 != nil
	}
	if in.url {
		return caps.Elicitation != nil && caps.Elicitation.URL != nil
	}
	return caps.Elicitation != nil
}

// declined says how the person ended an elicitation that was not accepted.
func declined(er *mcpsdk.ElicitResult) string {
	if er.Action == "decline" {
		return "declined"
	}
	return "cancelled"
}

// missingCapabilities is the JSON-RPC error -32021 (SEP-2575) for a
// request that needs client capabilities the client did not declare; its
// data names them as a ClientCapabilities object.
func missingCapabilities(names []string) error {
	need := map[string]struct{}{}
	for _, n := range names {
		need[n] = struct{}{}
	}
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": need})
	return &jsonrpc.Error{Code: mcpsdk.CodeMissingRequiredClientCapabilities,
		Message: "this call needs client capabilities the client did not declare: " + strings.Join(names, ", "), Data: data}
}

// askSession puts one input request to a client of an earlier revision,
// as the server request of its kind.
func askSession(ctx context.Context, ss *mcpsdk.ServerSession, r mcpsdk.InputRequest) (mcpsdk.InputResponse, error) {
	if ss == nil {
		return nil, errors.New("no session")
	}
	switch r := r.(type) {
	case *mcpsdk.ElicitParams:
		return ss.Elicit(ctx, r)
	case *mcpsdk.CreateMessageParams:
		return ss.CreateMessage(ctx, r)
	case *mcpsdk.ListRootsParams:
		return ss.ListRoots(ctx, r)
	}
	return nil, fmt.Errorf("unknown input request %T", r)
}

func errResult(msg string) toolnexus.Result {
	return toolnexus.Result{Output: msg, IsError: true}
}

// approvalAnswer is a person's answer to an approval request, kept with
// the request so that any replica can key it (toolnexus.RekeyApproval).
type approvalAnswer struct {
	Request toolnexus.PendingRequest `json:"request"`
	Answer  toolnexus.Answer         `json:"answer"`
}

// answer is the answer under this process's ApprovalID of its call.
func (ap approvalAnswer) answer() toolnexus.Answer {
	a, _ := toolnexus.RekeyApproval(ap.Request, ap.Answer)
	return a
}

// inputState is what a requestState carries from one round of input
// requests to the retried call: the call it belongs to, when it expires,
// and the answers so far.
type inputState struct {
	Tool    string             `json:"tool"`
	Args    string             `json:"args"` // argsDigest of the call's arguments
	Expires int64              `json:"exp"`  // Unix seconds
	Rounds  int                `json:"rounds"`
	Answers []toolnexus.Answer `json:"answers,omitempty"`
	// Approvals are the approvals answered, by the call they approve
	// rather than by their ID: an approval's ID is keyed by a secret of
	// the process that asked (toolnexus.ApprovalID), and the retried call
	// may reach another replica.
	Approvals []approvalAnswer `json:"approvals,omitempty"`
	// Asked are the requests of the round this state was issued with, so
	// the retried call matches its responses without running the tool
	// first.
	Asked []toolnexus.PendingRequest `json:"asked,omitempty"`
}

// argsDigest is the hex SHA-256 of args in a canonical form (object keys
// sorted, no white space), so a client that re-encodes the same arguments
// is not refused.
func argsDigest(args json.RawMessage) string {
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if d.Decode(&v) == nil {
		if b, err := json.Marshal(v); err == nil {
			args = b
		}
	}
	sum := sha256.Sum256(args)
	return hex.EncodeToString(sum[:])
}

// claim marks sealed, a requestState, as used until expires (Unix
// seconds) in the server's store; a state already claimed is the JSON-RPC
// error -32602.
func (s *Server) claim(ctx context.Context, sealed string, expires int64) error {
	sum := sha256.Sum256([]byte(sealed))
	ttl := time.Until(time.Unix(expires, 0)) + time.Second
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	ok, err := s.store.CompareAndSwap(ctx, "toolnexus/claim/"+hex.EncodeToString(sum[:]), nil, []byte{1}, ttl)
	switch {
	case err != nil:
		return storeErr(err)
	case !ok:
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "requestState: was already used (the answers of one round run the tool once)"}
	}
	return nil
}

// sealState encodes st as base64url(JSON) "." base64url(HMAC-SHA256).
func (s *Server) sealState(st *inputState) string {
	body, _ := json.Marshal(st)
	mac := hmac.New(sha256.New, s.stateKey)
	mac.Write(body)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(body) + "." + enc.EncodeToString(mac.Sum(nil))
}

// openState verifies sealed and decodes it over st, which holds the tool
// name and arguments digest of the call it must belong to. It returns
// sealed as sealState spells it: base64 decoding ignores newlines and a
// last character's unused bits, so one state has many spellings, and a
// claim (see claim) must be of the state, not of its spelling.
func (s *Server) openState(sealed string, st *inputState) (string, error) {
	enc := base64.RawURLEncoding
	b64, sig64, ok := strings.Cut(sealed, ".")
	body, err1 := enc.DecodeString(b64)
	sig, err2 := enc.DecodeString(sig64)
	mac := hmac.New(sha256.New, s.stateKey)
	mac.Write(body)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(sig, mac.Sum(nil)) {
		return "", errors.New("does not verify (it was not issued by this server, or was changed)")
	}
	var got inputState
	if err := json.Unmarshal(body, &got); err != nil {
		return "", errors.New("does not verify")
	}
	switch {
	case got.Tool != st.Tool || got.Args != st.Args:
		return "", errors.New("was issued for another call")
	case time.Now().Unix() > got.Expires:
		return "", errors.New("has expired")
	}
	*st = got
	return enc.EncodeToString(body) + "." + enc.EncodeToString(sig), nil
}

// formFor is the requested schema for p and the function that turns the
// accepted form into an Answer. Questions become one property per
// question ("q1", "q2", ...), a string whose options are an enum (an
// array of enum strings when several may be chosen); approvals become one
// boolean "approve"; forms (toolnexus.PendingKindForm) send their schema
// as it is; other kinds one string "answer".
func formFor(p *toolnexus.PendingRequest) (map[string]any, func(map[string]any) toolnexus.Answer) {
	switch p.Kind {
	case toolnexus.PendingKindQuestion:
		var d struct {
			Questions []struct {
				Question string   `json:"question"`
				Header   string   `json:"header"`
				Options  []string `json:"options"`
				Multiple bool     `json:"multiple"`
			} `json:"questions"`
		}
		_ = json.Unmarshal(p.Data, &d)
		props := map[string]any{}
		var req []string
		for i, q := range d.Questions {
			k := fmt.Sprintf("q%d", i+1)
			title := q.Header
			if title == "" {
				title = q.Question
			}
			prop := map[string]any{"type": "string", "title": title, "description": q.Question}
			if len(q.Options) > 0 {
				if q.Multiple {
					prop = map[string]any{"type": "array", "title": title, "description": q.Question,
						"items": map[string]any{"type": "string", "enum": q.Options}}
				} else {
					prop["enum"] = q.Options
				}
			}
			props[k] = prop
			req = append(req, k)
		}
		return map[string]any{"type": "object", "properties": props, "required": req},
			func(c map[string]any) toolnexus.Answer {
				answers := make([][]string, len(d.Questions))
				for i := range d.Questions {
					switch v := c[fmt.Sprintf("q%d", i+1)].(type) {
					case string:
						answers[i] = []string{v}
					case []any:
						for _, x := range v {
							if s, ok := x.(string); ok {
								answers[i] = append(answers[i], s)
							}
						}
					}
					if answers[i] == nil {
						answers[i] = []string{}
					}
				}
				data, _ := json.Marshal(map[string]any{"answers": answers})
				return toolnexus.Answer{ID: p.ID, OK: true, Data: data}
			}
	case toolnexus.PendingKindForm:
		var d struct {
			Schema map[string]any `json:"schema"`
		}
		_ = json.Unmarshal(p.Data, &d)
		if d.Schema == nil {
			d.Schema = map[string]any{"type": "object", "properties": map[string]any{}}
		}
		return d.Schema, func(c map[string]any) toolnexus.Answer {
			data, _ := json.Marshal(c)
			return toolnexus.Answer{ID: p.ID, OK: true, Data: data}
		}
	case toolnexus.PendingKindApproval:
		return map[string]any{"type": "object", "properties": map[string]any{
				"approve": map[string]any{"type": "boolean", "title": "Approve", "description": p.Prompt}},
				"required": []string{"approve"}},
			func(c map[string]any) toolnexus.Answer {
				ok, _ := c["approve"].(bool)
				return toolnexus.Answer{ID: p.ID, OK: ok}
			}
	}
	return map[string]any{"type": "object", "properties": map[string]any{
			"answer": map[string]any{"type": "string", "title": "Answer"}}, "required": []string{"answer"}},
		func(c map[string]any) toolnexus.Answer {
			data, _ := json.Marshal(c["answer"])
			return toolnexus.Answer{ID: p.ID, OK: true, Data: data}
		}
}

// elicitationHandler hands a server's elicitation request to answer as a
// pending request (see LoadOptions.Answer).
func elicitationHandler(server string, answer func(context.Context, string, toolnexus.PendingRequest) (toolnexus.Answer, error)) func(context.Context, *mcpsdk.ElicitRequest) (*mcpsdk.ElicitResult, error) {
	return func(ctx context.Context, req *mcpsdk.ElicitRequest) (*mcpsdk.ElicitResult, error) {
		ep := req.Params
		if ep == nil {
			return &mcpsdk.ElicitResult{Action: "cancel"}, nil
		}
		p := toolnexus.PendingRequest{Prompt: ep.Message}
		var data []byte
		if ep.Mode == "url" {
			p.Kind = toolnexus.PendingKindURL
			data, _ = json.Marshal(map[string]string{"url": ep.URL})
		} else {
			p.Kind = toolnexus.PendingKindForm
			data, _ = json.Marshal(map[string]any{"schema": ep.RequestedSchema})
		}
		p.Data = data
		sum := sha256.Sum256(append([]byte(ep.Message+"\x00"+ep.ElicitationID+"\x00"), data...))
		p.ID = "elicit_" + hex.EncodeToString(sum[:8])
		a, err := answer(ctx, server, p)
		switch {
		case err != nil:
			return &mcpsdk.ElicitResult{Action: "cancel"}, nil
		case !a.OK:
			return &mcpsdk.ElicitResult{Action: "decline"}, nil
		case p.Kind == toolnexus.PendingKindURL:
			return &mcpsdk.ElicitResult{Action: "accept"}, nil
		}
		var content map[string]any
		if len(a.Data) > 0 {
			if err := json.Unmarshal(a.Data, &content); err != nil {
				return &mcpsdk.ElicitResult{Action: "cancel"}, nil
			}
		}
		return &mcpsdk.ElicitResult{Action: "accept", Content: content}, nil
	}
}
