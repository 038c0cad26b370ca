package builtin

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/toolnexus/toolnexus"
)

// TodosKey is the Result.Metadata key under which todowrite returns the
// new list (a []Todo, a copy), so a host can show it without parsing text.
const TodosKey = "todos"

// Todo is one entry of the todowrite list; its JSON shape is
// {"id":"1","text":"Write the tests","completed":false}. In the tool's
// input, completed is optional and defaults to false.
type Todo struct {
	// ID is a short identifier, unique in the list; never "".
	ID string `json:"id" jsonschema_description:"A short identifier, unique in the list." validate:"min=1"`
	// Text is what is to be done; never "".
	Text string `json:"text" jsonschema_description:"What is to be done." validate:"min=1"`
	// Completed reports whether the entry is done.
	Completed bool `json:"completed" jsonschema_description:"Whether it is done."`
}

// todoInput is a Todo as the model sends it: completed may be left out.
type todoInput struct {
	ID        string `json:"id" jsonschema_description:"A short identifier, unique in the list." validate:"min=1"`
	Text      string `json:"text" jsonschema_description:"What is to be done." validate:"min=1"`
	Completed bool   `json:"completed,omitempty" jsonschema_description:"Whether it is done (default false)."`
}

type todoArgs struct {
	Todos []todoInput `json:"todos" jsonschema_description:"The complete new list; it replaces the previous one."`
}

const todoDesc = `Replace your todo list for the current task with the given list and return it. ` +
	`Send the whole list every time (items left out are dropped); mark items completed as you finish them. ` +
	`Use it to plan and track multi-step work.`

// todoList is the state of one Tools call's todowrite tool.
type todoList struct {
	mu    sync.Mutex
	items []Todo
}

func todoTool(e *env) (toolnexus.Tool, error) {
	l := &todoList{}
	return newTool(e, "todowrite", "Write todo list", todoDesc,
		toolnexus.Annotations{DestructiveHint: new(false), IdempotentHint: true, OpenWorldHint: new(false)}, 0,
		func(ctx context.Context, a todoArgs) toolnexus.Result { return l.replace(a.Todos) })
}

func (l *todoList) replace(in []todoInput) toolnexus.Result {
	todos := make([]Todo, len(in))
	for i, t := range in {
		todos[i] = Todo(t)
	}
	seen := make(map[string]int, len(todos))
	for i, t := range todos {
		if j, dup := seen[t.ID]; dup {
			return toolnexus.ErrorResult(fmt.Errorf("todos[%d] and todos[%d] have the same id %q; ids must be unique", j, i, t.ID))
		}
		seen[t.ID] = i
	}
	items := slices.Clone(todos)
	l.mu.Lock()
	l.items = items
	l.mu.Unlock()
	return toolnexus.Result{Output: renderTodos(items), Metadata: map[string]any{TodosKey: slices.Clone(items)}}
}

// renderTodos renders a list as a header line and one "[x] id: text" or
// "[ ] id: text" line per item. Line breaks and other control characters in
// id and text are shown as spaces, so an item cannot forge more lines (the
// Metadata list keeps the text as given).
func renderTodos(items []Todo) string {
	if len(items) == 0 {
		return "the todo list is empty"
	}
	done := 0
	for _, t := range items {
		if t.Completed {
			done++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d todos, %d completed:", len(items), done)
	for _, t := range items {
		mark := "[ ]"
		if t.Completed {
			mark = "[x]"
		}
		fmt.Fprintf(&b, "\n%s %s: %s", mark, oneLine(t.ID), oneLine(t.Text))
	}
	return b.String()
}

// oneLine replaces every control character of s (line breaks, tabs, NUL,
// escape...) with a space, so s renders as part of a single line.
func oneLine(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}
