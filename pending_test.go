package toolnexus_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolnexus/toolnexus"
)

func TestPendingFromForms(t *testing.T) {
	want := toolnexus.PendingRequest{ID: "q_1", Kind: toolnexus.PendingKindQuestion, Prompt: "Color?",
		Data: json.RawMessage(`{"questions":[{"question":"Color?"}]}`)}
	res := toolnexus.PendingResult("waiting", want)

	check := func(name string, r toolnexus.Result) {
		t.Helper()
		p, ok := toolnexus.PendingFrom(r)
		if !ok {
			t.Fatalf("%s: PendingFrom found nothing", name)
		}
		if p.ID != want.ID || p.Kind != want.Kind || p.Prompt != want.Prompt || string(p.Data) != string(want.Data) {
			t.Fatalf("%s: PendingFrom = %+v, want %+v", name, *p, want)
		}
	}
	check("pointer", res)
	check("value", toolnexus.Result{Metadata: map[string]any{toolnexus.PendingKey: want}})

	// After a JSON round trip the metadata is a map[string]any.
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `{"output":"waiting","metadata":{"pending":{"id":"q_1","kind":"question","prompt":"Color?","data":{"questions":[{"question":"Color?"}]}}}}` {
		t.Fatalf("marshalled result = %s", got)
	}
	var decoded toolnexus.Result
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	check("decoded map", decoded)
	check("raw", toolnexus.Result{Metadata: map[string]any{toolnexus.PendingKey: json.RawMessage(`{"id":"q_1","kind":"question","prompt":"Color?","data":{"questions":[{"question":"Color?"}]}}`)}})
}

func TestPendingFromNone(t *testing.T) {
	cases := map[string]toolnexus.Result{
		"no metadata":  {Output: "x"},
		"other key":    {Metadata: map[string]any{"x": 1}},
		"nil pointer":  {Metadata: map[string]any{toolnexus.PendingKey: (*toolnexus.PendingRequest)(nil)}},
		"wrong type":   {Metadata: map[string]any{toolnexus.PendingKey: 42}},
		"no id":        {Metadata: map[string]any{toolnexus.PendingKey: map[string]any{"kind": "question"}}},
		"bad json":     {Metadata: map[string]any{toolnexus.PendingKey: json.RawMessage(`{`)}},
		"error result": {IsError: true, Metadata: map[string]any{toolnexus.PendingKey: &toolnexus.PendingRequest{ID: "a"}}},
	}
	for name, r := range cases {
		if p, ok := toolnexus.PendingFrom(r); ok {
			t.Errorf("%s: PendingFrom = %+v, want none", name, p)
		}
	}
}

func TestAnswers(t *testing.T) {
	ctx := context.Background()
	if _, ok := toolnexus.AnswerFrom(ctx); ok {
		t.Fatal("AnswerFrom on a bare context found an answer")
	}
	if _, ok := toolnexus.AnswerFor(ctx, "a"); ok {
		t.Fatal("AnswerFor on a bare context found an answer")
	}
	ctx = toolnexus.WithAnswer(ctx, toolnexus.Answer{ID: "a", OK: true, Data: json.RawMessage(`1`)})
	ctx = toolnexus.WithAnswer(ctx, toolnexus.Answer{ID: "b", OK: false})
	ctx = toolnexus.WithAnswer(ctx, toolnexus.Answer{ID: "a", OK: true, Data: json.RawMessage(`2`)})

	last, ok := toolnexus.AnswerFrom(ctx)
	if !ok || last.ID != "a" || string(last.Data) != "2" {
		t.Fatalf("AnswerFrom = %+v, %v", last, ok)
	}
	a, ok := toolnexus.AnswerFor(ctx, "a")
	if !ok || string(a.Data) != "2" {
		t.Fatalf("AnswerFor(a) = %+v, %v; want the latest answer with data 2", a, ok)
	}
	b, ok := toolnexus.AnswerFor(ctx, "b")
	if !ok || b.OK {
		t.Fatalf("AnswerFor(b) = %+v, %v", b, ok)
	}
	if _, ok := toolnexus.AnswerFor(ctx, "c"); ok {
		t.Fatal("AnswerFor(c) found an answer")
	}
}

func TestAnswerOutput(t *testing.T) {
	cases := []struct {
		a       toolnexus.Answer
		out     string
		isError bool
	}{
		{toolnexus.Answer{ID: "a", OK: true, Data: json.RawMessage(` {"answers": [["red"]]} `)}, `{"answers":[["red"]]}`, false},
		{toolnexus.Answer{ID: "a", OK: true}, `null`, false},
		{toolnexus.Answer{ID: "a", OK: false}, `the user declined to answer`, true},
		{toolnexus.Answer{ID: "a", OK: false, Data: json.RawMessage(`"not now"`)}, `the user declined to answer: "not now"`, true},
		{toolnexus.Answer{ID: "a", OK: true, Data: json.RawMessage(`{`)}, `the answer to request "a" is not valid JSON: unexpected end of JSON input`, true},
	}
	for _, c := range cases {
		r := toolnexus.AnswerOutput(c.a)
		if r.Output != c.out || r.IsError != c.isError {
			t.Errorf("AnswerOutput(%+v) = %q (error %v), want %q (error %v)", c.a, r.Output, r.IsError, c.out, c.isError)
		}
		if r.IsError && r.Err == nil {
			t.Errorf("AnswerOutput(%+v): error result without Err", c.a)
		}
	}
}

// A tool asks the human; the host detects the pending request, asks, and
// re-runs the call with the answer.
func ExamplePendingFrom() {
	ask, _ := toolnexus.NewResultTool("ask", "Ask the user a yes/no question.",
		func(ctx context.Context, args struct {
			Q string `json:"q"`
		}) toolnexus.Result {
			id := "ask_" + args.Q
			if a, ok := toolnexus.AnswerFor(ctx, id); ok {
				return toolnexus.AnswerOutput(a)
			}
			return toolnexus.PendingResult("waiting for the user", toolnexus.PendingRequest{
				ID: id, Kind: toolnexus.PendingKindQuestion, Prompt: args.Q})
		})
	reg := toolnexus.NewRegistry()
	_ = reg.Add(ask)

	ctx := context.Background()
	args := json.RawMessage(`{"q":"Deploy?"}`)
	res := reg.Execute(ctx, "ask", args)
	if p, ok := toolnexus.PendingFrom(res); ok {
		fmt.Println("ask the human:", p.Prompt)
		ctx = toolnexus.WithAnswer(ctx, toolnexus.Answer{ID: p.ID, OK: true, Data: json.RawMessage(`"yes"`)})
		res = reg.Execute(ctx, "ask", args)
	}
	fmt.Println(res.Output)
	// Output:
	// ask the human: Deploy?
	// "yes"
}

// A tool may ask several things at once; every form the Result takes
// through JSON keeps them all, in order, and PendingFrom gives the first.
func TestPendingAll(t *testing.T) {
	a := toolnexus.PendingRequest{ID: "a", Kind: toolnexus.PendingKindForm, Prompt: "Name?"}
	b := toolnexus.PendingRequest{ID: "b", Kind: "sampling", Data: json.RawMessage(`{"maxTokens":5}`)}
	res := toolnexus.PendingResult("waiting", a, b)
	raw, err := json.Marshal(res.Metadata[toolnexus.PendingKey])
	if err != nil {
		t.Fatal(err)
	}
	var decoded any
	if err := json.Unmarshal(raw, &decoded); err != nil {
		t.Fatal(err)
	}
	forms := map[string]any{"stored": res.Metadata[toolnexus.PendingKey], "raw": json.RawMessage(raw),
		"bytes": raw, "decoded": decoded, "pointers": []*toolnexus.PendingRequest{&a, nil, &b}}
	for name, v := range forms {
		r := toolnexus.Result{Metadata: map[string]any{toolnexus.PendingKey: v}}
		got := toolnexus.PendingAll(r)
		if len(got) != 2 || got[0].ID != "a" || got[1].ID != "b" || string(got[1].Data) != `{"maxTokens":5}` {
			t.Errorf("%s: PendingAll = %+v, want a then b", name, got)
		}
		if p, ok := toolnexus.PendingFrom(r); !ok || p.ID != "a" {
			t.Errorf("%s: PendingFrom = %+v, %v, want a", name, p, ok)
		}
	}
	if got := toolnexus.PendingAll(toolnexus.PendingResult("w", a)); len(got) != 1 || got[0].ID != "a" {
		t.Errorf("one request: PendingAll = %+v", got)
	}
	noID := toolnexus.Result{Metadata: map[string]any{toolnexus.PendingKey: []toolnexus.PendingRequest{{Kind: "form"}, b}}}
	if got := toolnexus.PendingAll(noID); len(got) != 1 || got[0].ID != "b" {
		t.Errorf("a request without an ID counted: %+v", got)
	}
}
