package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/builtin"
)

// Register the built-in tools confined to a workspace and call a few.
func ExampleTools() {
	ws, _ := os.MkdirTemp("", "workspace")
	defer os.RemoveAll(ws)

	tools, err := builtin.Tools(&builtin.Options{Workspace: ws})
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(tools...); err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	for _, call := range []struct{ name, args string }{
		{"write", `{"path":"notes/todo.txt","content":"buy milk\ncall Bob\n"}`},
		{"edit", `{"path":"notes/todo.txt","oldString":"Bob","newString":"Alice"}`},
		{"read", `{"path":"notes/todo.txt"}`},
		{"glob", `{"pattern":"**/*.txt"}`},
		{"read", `{"path":"../etc/passwd"}`},
	} {
		res := reg.Execute(ctx, call.name, json.RawMessage(call.args))
		fmt.Printf("%s error=%v\n%s\n", call.name, res.IsError, res.Output)
	}
	// Output:
	// write error=false
	// wrote 18 bytes to notes/todo.txt
	// edit error=false
	// replaced 1 occurrence in notes/todo.txt
	// read error=false
	// buy milk
	// call Alice
	//
	// glob error=false
	// notes/todo.txt
	// read error=true
	// path "../etc/passwd" is outside the workspace; use a path inside it (relative paths are relative to the workspace root)
}

// The question tool does not block: the host answers its pending request
// and runs the call again.
func ExampleTools_question() {
	tools, _ := builtin.Tools(&builtin.Options{Workspace: os.TempDir()})
	reg := toolnexus.NewRegistry()
	_ = reg.Add(tools...)

	args := json.RawMessage(`{"questions":[{"question":"Deploy now?","options":["yes","no"]}]}`)
	res := reg.Execute(context.Background(), "question", args)
	p, ok := toolnexus.PendingFrom(res)
	fmt.Println(ok, p.Kind)
	fmt.Println(p.Prompt)

	ctx := toolnexus.WithAnswer(context.Background(),
		toolnexus.Answer{ID: p.ID, OK: true, Data: json.RawMessage(`{"answers":[["yes"]]}`)})
	res = reg.Execute(ctx, "question", args)
	fmt.Println(res.Output)
	// Output:
	// true question
	// Deploy now? (options: yes, no)
	// {"answers":[["yes"]]}
}
