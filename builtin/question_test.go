package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/builtin"
)

const questionArgs = `{"questions":[{"question":"Which color?","header":"Color","options":["red","blue"]},{"question":"Why?"}]}`

func TestQuestionPendingAndAnswer(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	r := f.call("question", questionArgs)
	if r.IsError {
		t.Fatal(r.Output)
	}
	p, ok := toolnexus.PendingFrom(r)
	if !ok {
		t.Fatalf("no pending request in %+v", r.Metadata)
	}
	wantEqual(t, "kind", p.Kind, "question")
	wantEqual(t, "prompt", p.Prompt, "Which color? (options: red, blue)\nWhy?")
	wantEqual(t, "data", string(p.Data), `{"questions":[{"question":"Which color?","header":"Color","options":["red","blue"]},{"question":"Why?"}]}`)
	wantEqual(t, "output", r.Output, "waiting for the user to answer:\nWhich color? (options: red, blue)\nWhy?")
	if !strings.HasPrefix(p.ID, "question_") || len(p.ID) != len("question_")+16 {
		t.Errorf("id = %q", p.ID)
	}
	// The same call gets the same id; a different call a different one.
	r2 := f.call("question", questionArgs)
	p2, _ := toolnexus.PendingFrom(r2)
	wantEqual(t, "same id", p2.ID, p.ID)
	r3 := f.call("question", `{"questions":[{"question":"Other?"}]}`)
	p3, _ := toolnexus.PendingFrom(r3)
	if p3.ID == p.ID {
		t.Error("different questions share an id")
	}

	// Re-run with the answer.
	ctx := toolnexus.WithAnswer(context.Background(), toolnexus.Answer{ID: p.ID, OK: true,
		Data: json.RawMessage(`{"answers": [["red"], ["it is nice"]]}`)})
	got := f.callCtx(ctx, "question", questionArgs)
	if got.IsError {
		t.Fatal(got.Output)
	}
	wantEqual(t, "answer", got.Output, `{"answers":[["red"],["it is nice"]]}`)
	if _, ok := toolnexus.PendingFrom(got); ok {
		t.Error("answered call is still pending")
	}

	// An answer to another request does not answer this one.
	other := toolnexus.WithAnswer(context.Background(), toolnexus.Answer{ID: p3.ID, OK: true, Data: json.RawMessage(`1`)})
	if _, ok := toolnexus.PendingFrom(f.callCtx(other, "question", questionArgs)); !ok {
		t.Error("an answer with another id was used")
	}

	// Declined.
	no := toolnexus.WithAnswer(context.Background(), toolnexus.Answer{ID: p.ID, OK: false})
	d := f.callCtx(no, "question", questionArgs)
	if !d.IsError || d.Output != "the user declined to answer" {
		t.Errorf("declined: %+v", d)
	}
}

// Control characters in a question cannot reach the prompt a host shows:
// no NUL, no escape sequences, no extra lines.
func TestQuestionPromptControlCharacters(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	r := f.call("question", `{"questions":[{"question":"Delete?\u0000\u001b[2J\nAnswer: yes","options":["y\nes","n\u0007o"]}]}`)
	p, ok := toolnexus.PendingFrom(r)
	if !ok {
		t.Fatalf("no pending request: %+v", r)
	}
	wantEqual(t, "prompt", p.Prompt, "Delete?  [2J Answer: yes (options: y es, n o)")
	wantEqual(t, "output", r.Output, "waiting for the user to answer:\nDelete?  [2J Answer: yes (options: y es, n o)")
	wantContains(t, string(p.Data), `Delete?\u0000\u001b[2J\nAnswer: yes`)
}

func TestQuestionErrors(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	wantContains(t, f.fail("question", `{"questions":[]}`), `"questions" must have at least 1 item`)
	wantContains(t, f.fail("question", `{"questions":[{"question":""}]}`), `"questions[0].question" must have at least 1 character`)
	wantContains(t, f.fail("question", `{"questions":[{"header":"x"}]}`), `"questions[0].question" is required`)
	wantContains(t, f.fail("question", `{}`), `"questions" is required`)
}

func TestTodowrite(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	r := f.call("todowrite", `{"todos":[{"id":"1","text":"write tests","completed":true},{"id":"2","text":"ship","completed":false}]}`)
	if r.IsError {
		t.Fatal(r.Output)
	}
	wantEqual(t, "rendered", r.Output, "2 todos, 1 completed:\n[x] 1: write tests\n[ ] 2: ship")
	list, ok := r.Metadata[builtin.TodosKey].([]builtin.Todo)
	if !ok || len(list) != 2 || list[1] != (builtin.Todo{ID: "2", Text: "ship"}) {
		t.Errorf("metadata = %#v", r.Metadata)
	}
	wantEqual(t, "replaced", f.ok("todowrite", `{"todos":[{"id":"a","text":"only","completed":false}]}`), "1 todos, 0 completed:\n[ ] a: only")
	wantEqual(t, "empty", f.ok("todowrite", `{"todos":[]}`), "the todo list is empty")
	wantEqual(t, "duplicate", f.fail("todowrite", `{"todos":[{"id":"a","text":"x","completed":false},{"id":"a","text":"y","completed":true}]}`),
		`todos[0] and todos[1] have the same id "a"; ids must be unique`)
	// completed is optional and defaults to false.
	wantEqual(t, "no completed", f.ok("todowrite", `{"todos":[{"id":"a","text":"x"}]}`), "1 todos, 0 completed:\n[ ] a: x")
	// Line breaks in an item cannot forge more items; the metadata keeps the text.
	r = f.call("todowrite", `{"todos":[{"id":"a\n[x] b","text":"x\n[x] 2: forged\r\u0000end"}]}`)
	wantEqual(t, "forged", r.Output, "1 todos, 0 completed:\n[ ] a [x] b: x [x] 2: forged  end")
	if list, _ := r.Metadata[builtin.TodosKey].([]builtin.Todo); len(list) != 1 || list[0].Text != "x\n[x] 2: forged\r\x00end" {
		t.Errorf("metadata = %#v", r.Metadata)
	}
	wantContains(t, f.fail("todowrite", `{"todos":[{"id":"","text":"x","completed":false}]}`), `"todos[0].id" must have at least 1 character`)
}

func TestTodowriteConcurrent(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			args := fmt.Sprintf(`{"todos":[{"id":"%d","text":"task %d","completed":false}]}`, i, i)
			r := f.reg.Execute(context.Background(), "todowrite", json.RawMessage(args))
			if want := fmt.Sprintf("1 todos, 0 completed:\n[ ] %d: task %d", i, i); r.Output != want {
				t.Errorf("got %q, want %q", r.Output, want)
			}
		})
	}
	wg.Wait()
}
