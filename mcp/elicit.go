package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
)

// maxElicitRounds bounds how many times one tools/call asks the client:
// a tool that keeps returning new pending requests gets an error result.
const maxElicitRounds = 4

// askPerson turns a pending result into the tool's answer through
// elicitation (form mode) when the client supports it, as an input
// request of the multi-round-trip protocol (2026-07-28; the go-sdk sends
// an elicitation/create request itself to a client of an older version):
// the pending request becomes a form whose input request id is the
// PendingRequest.ID, an accepted form is the Answer the tool is run again
// with, and decline or cancel is an error result. No state is kept between
// rounds: the retried tools/call carries the responses, and the pending
// request's ID is derived from the arguments (an approval's, keyed by a
// secret of the process: see toolnexus.ApprovalID). A client without
// elicitation gets an error result saying the tool needs a person. With
// serverApproves, an approval is never asked (ServerOptions.RequireApprover).
func askPerson(ctx context.Context, req *mcpsdk.CallToolRequest, name string, run func(context.Context) toolnexus.Result, serverApproves bool) *mcpsdk.CallToolResult {
	var responses mcpsdk.InputResponseMap
	if req != nil && req.Params != nil {
		responses = req.Params.InputResponses
	}
	for round := 0; ; round++ {
		res := run(ctx)
		p, ok := toolnexus.PendingFrom(res)
		if !ok {
			return callResult(res)
		}
		if serverApproves && p.Kind == toolnexus.PendingKindApproval {
			return callResult(errResult(fmt.Sprintf("tool %q needs approval, and this server takes it only from its own approver (ServerOptions.RequireApprover), which did not decide", name)))
		}
		if round == maxElicitRounds {
			return callResult(errResult(fmt.Sprintf("tool %q still needs a person after %d answers", name, round)))
		}
		if !canElicit(req) {
			return callResult(errResult(fmt.Sprintf("tool %q needs a person to answer (%s), and this MCP client does not support elicitation", name, p.Kind)))
		}
		schema, decode := formFor(p)
		er, answered := responses[p.ID].(*mcpsdk.ElicitResult)
		if !answered {
			return &mcpsdk.CallToolResult{InputRequests: mcpsdk.InputRequestMap{
				p.ID: &mcpsdk.ElicitParams{Mode: "form", Message: p.Prompt, RequestedSchema: schema}}}
		}
		switch er.Action {
		case "accept":
			ctx = toolnexus.WithAnswer(ctx, decode(er.Content))
		case "decline":
			return callResult(errResult(fmt.Sprintf("tool %q: the person declined", name)))
		default:
			return callResult(errResult(fmt.Sprintf("tool %q: the person cancelled", name)))
		}
	}
}

func errResult(msg string) toolnexus.Result {
	return toolnexus.Result{Output: msg, IsError: true}
}

func canElicit(req *mcpsdk.CallToolRequest) bool {
	if req == nil || req.Session == nil {
		return false
	}
	ip := req.Session.InitializeParams()
	return ip != nil && ip.Capabilities != nil && ip.Capabilities.Elicitation != nil
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
