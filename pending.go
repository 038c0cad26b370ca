package toolnexus

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// PendingKey is the [Result.Metadata] key under which a tool that needs the
// human stores its [PendingRequest] (a *PendingRequest value). Use
// [PendingFrom] to read it rather than indexing the map yourself.
const PendingKey = "pending"

// PendingKindQuestion is the [PendingRequest.Kind] of the built-in
// "question" tool: the human is asked one or more questions.
const PendingKindQuestion = "question"

// PendingRequest is what a tool hands to the host when it cannot finish
// without the human. It travels in a normal (non-error) Result, under
// Metadata[PendingKey]; its JSON shape is
//
//	{"id":"q_3f2a…","kind":"question","prompt":"Which color? (options: red, blue)","data":{"questions":[…]}}
//
// The host shows Prompt (and whatever it understands of Data) to the human,
// then re-runs the same tool call with the [Answer] attached to the context
// by [WithAnswer]. A tool derives ID from its arguments, so the re-run finds
// the answer meant for it with [AnswerFor].
type PendingRequest struct {
	// ID identifies the request; an Answer must carry the same ID.
	ID string `json:"id"`
	// Kind says what is asked for, e.g. PendingKindQuestion.
	Kind string `json:"kind"`
	// Prompt is plain text for the human, one line per question.
	Prompt string `json:"prompt"`
	// Data is the request's structured content as JSON (for a question:
	// {"questions":[{"question","header","options","multiple"}…]}).
	Data json.RawMessage `json:"data,omitempty"`
}

// Answer is the human's reply to a [PendingRequest]; its JSON shape is
// {"id","ok","data"}.
type Answer struct {
	// ID is the PendingRequest.ID being answered.
	ID string `json:"id"`
	// OK is false when the human declined or dismissed the request; the
	// re-run tool then returns an error result.
	OK bool `json:"ok"`
	// Data is the answer as JSON, for example {"answers":[["red"]]}; the
	// question tool returns these bytes (compacted) as its output.
	Data json.RawMessage `json:"data,omitempty"`
}

// PendingResult returns a successful Result whose Output is output and
// whose Metadata carries p under [PendingKey], and any more requests the
// tool asks at the same time (a form and a sampling request, say): then
// the value stored is a []PendingRequest, p first. A host that handles one
// request at a time answers [PendingFrom]'s, and the re-run tool asks again
// for what is still unanswered; one that asks all at once (package mcp
// sends them as one round of input requests) reads [PendingAll].
func PendingResult(output string, p PendingRequest, more ...PendingRequest) Result {
	if len(more) == 0 {
		return Result{Output: output, Metadata: map[string]any{PendingKey: &p}}
	}
	return Result{Output: output, Metadata: map[string]any{PendingKey: append([]PendingRequest{p}, more...)}}
}

// PendingFrom reports whether r carries a pending request and returns it
// (the first, when the tool asked several: see [PendingAll]). It accepts
// the value a tool stored (*PendingRequest, PendingRequest or a slice of
// them) and also the forms it takes after the Result went through JSON
// (map[string]any or []any, json.RawMessage, []byte), so hosts may call it
// on a decoded Result. An error result never counts as pending.
func PendingFrom(r Result) (*PendingRequest, bool) {
	all := PendingAll(r)
	if len(all) == 0 {
		return nil, false
	}
	return &all[0], true
}

// PendingAll returns every pending request r carries, in the order the
// tool gave them, or nil when it carries none (see [PendingFrom] for the
// forms accepted). A request without an ID is not counted.
func PendingAll(r Result) []PendingRequest {
	if r.IsError || r.Metadata == nil {
		return nil
	}
	var out []PendingRequest
	switch v := r.Metadata[PendingKey].(type) {
	case *PendingRequest:
		if v != nil {
			out = []PendingRequest{*v}
		}
	case PendingRequest:
		out = []PendingRequest{v}
	case []PendingRequest:
		out = slices.Clone(v)
	case []*PendingRequest:
		for _, p := range v {
			if p != nil {
				out = append(out, *p)
			}
		}
	case json.RawMessage:
		out = decodePending(v)
	case []byte:
		out = decodePending(v)
	case map[string]any, []any:
		b, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		out = decodePending(b)
	}
	return slices.DeleteFunc(out, func(p PendingRequest) bool { return p.ID == "" })
}

// decodePending reads one request ({"id",…}) or a list of them.
func decodePending(b []byte) []PendingRequest {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var ps []PendingRequest
		if json.Unmarshal(b, &ps) != nil {
			return nil
		}
		return ps
	}
	var p PendingRequest
	if json.Unmarshal(b, &p) != nil {
		return nil
	}
	return []PendingRequest{p}
}

// answerNode is one link of the answers attached to a context.
type answerNode struct {
	a    Answer
	prev *answerNode
}

type answerKey struct{}

// WithAnswer returns a copy of ctx that carries a. Answers accumulate:
// attaching answers to several pending requests (one per tool call in a
// batch) keeps them all, and a later answer with the same ID shadows an
// earlier one.
func WithAnswer(ctx context.Context, a Answer) context.Context {
	prev, _ := ctx.Value(answerKey{}).(*answerNode)
	return context.WithValue(ctx, answerKey{}, &answerNode{a: a, prev: prev})
}

// AnswerFrom returns the answer most recently attached to ctx by
// [WithAnswer], whatever its ID.
func AnswerFrom(ctx context.Context) (Answer, bool) {
	n, _ := ctx.Value(answerKey{}).(*answerNode)
	if n == nil {
		return Answer{}, false
	}
	return n.a, true
}

// AnswerFor returns the answer attached to ctx whose ID is id (the most
// recent one if several match). Tools use it on a re-run to pick the answer
// to their own request.
func AnswerFor(ctx context.Context, id string) (Answer, bool) {
	n, _ := ctx.Value(answerKey{}).(*answerNode)
	for ; n != nil; n = n.prev {
		if n.a.ID == id {
			return n.a, true
		}
	}
	return Answer{}, false
}

// AnswerOutput is how a tool turns an answer into its re-run Result: for
// OK answers, a successful Result whose Output is the compacted Data
// ("null" when Data is empty); for declined ones, an error result saying
// the human declined, with Data appended when present. Invalid JSON in Data
// gives an error result.
func AnswerOutput(a Answer) Result {
	data := bytes.TrimSpace(a.Data)
	var buf bytes.Buffer
	if len(data) > 0 {
		if err := json.Compact(&buf, data); err != nil {
			return ErrorResult(fmt.Errorf("the answer to request %q is not valid JSON: %w", a.ID, err))
		}
	}
	if !a.OK {
		msg := "the user declined to answer"
		if buf.Len() > 0 && buf.String() != "null" {
			msg += ": " + buf.String()
		}
		return Result{Output: msg, IsError: true, Err: fmt.Errorf("toolnexus: pending request %q declined", a.ID)}
	}
	if buf.Len() == 0 {
		return Result{Output: "null"}
	}
	return Result{Output: buf.String()}
}

// PendingKindForm is the [PendingRequest.Kind] of a tool that asks a person
// to fill in a form: Data is {"schema":{…}}, a flat JSON Schema object of
// the MCP elicitation kind (string, number, integer, boolean and enum
// properties). The Answer's Data is the filled-in object. Served over MCP
// (package mcp), the schema is sent to the client as it is.
const PendingKindForm = "form"

// PendingKindURL is the [PendingRequest.Kind] of a request to open a web
// page and finish something there (MCP URL-mode elicitation): Data is
// {"url":"https://…"}. An OK Answer says the person did it.
const PendingKindURL = "url"
