package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// tsSDK returns TOOLNEXUS_TSSDK_DIR and node's path, skipping the test
// without the variable outside CI (failing it under CI=true).
func tsSDK(t *testing.T) (dir, node string) {
	t.Helper()
	dir = os.Getenv("TOOLNEXUS_TSSDK_DIR")
	if dir == "" {
		msg := "TOOLNEXUS_TSSDK_DIR is not set (npm install --prefix DIR @modelcontextprotocol/sdk@1.32.2, then set it to DIR)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("TOOLNEXUS_TSSDK_DIR=%s: %v", dir, err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("TOOLNEXUS_TSSDK_DIR is set but node is not on PATH: %v", err)
	}
	return dir, node
}

// TestServeQuestionTypeScriptClient serves the built-ins over streamable
// HTTP and calls `question` with the TypeScript SDK's Client
// (testdata/tssdk_question.cjs), whose elicitation handler answers the
// form: the question's options arrive as an enum and the answers come back
// as the tool's result. TOOLNEXUS_TSSDK_DIR must name the prefix the SDK
// was installed into:
//
//	npm install --prefix "$DIR" @modelcontextprotocol/sdk@1.32.2
//	TOOLNEXUS_TSSDK_DIR="$DIR" go test ./cmd/toolnexus -run TypeScript
//
// Without it the test is skipped, except under CI=true, where it fails.
func TestServeQuestionTypeScriptClient(t *testing.T) {
	dir, node := tsSDK(t)
	url := startServe(t, nil, "--http", "127.0.0.1:0", "--no-auth")
	out := runNode(t, node, "tssdk_question.cjs", dir, url)
	want := `{"elicitation":{"mode":"form","message":"Which color? (options: red, blue)\nWhy?",` +
		`"requestedSchema":{"type":"object","properties":{` +
		`"q1":{"type":"string","title":"Which color?","description":"Which color?","enum":["red","blue"]},` +
		`"q2":{"type":"string","title":"Why?","description":"Why?"}},"required":["q1","q2"]}},` +
		`"result":{"content":[{"type":"text","text":"{\"answers\":[[\"blue\"],[\"it is calm\"]]}"}]}}` + "\n"
	if string(out) != want {
		t.Errorf("the TypeScript client printed\n%s\nwant\n%s", out, want)
	}
}

// TestServeCodeModeTypeScriptClient serves the built-ins with
// --code-mode and has the TypeScript SDK's Client list the one tool and
// run a program that calls read twice, in a loop, and catches a bad call.
// TOOLNEXUS_TSSDK_DIR as for TestServeQuestionTypeScriptClient.
func TestServeCodeModeTypeScriptClient(t *testing.T) {
	dir, node := tsSDK(t)
	ws := t.TempDir()
	for name, text := range map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url := startServe(t, nil, "--code-mode", "--http", "127.0.0.1:0", "--no-auth", "--workspace", ws)
	program := `const seen = [];
for (const path of ["a.txt", "b.txt"]) {
  const text = await tools.read({ path });
  seen.push(text.includes("alpha") ? "alpha" : text.includes("beta") ? "beta" : text);
}
try { await tools.read({ path: 7 }); } catch (e) { console.log("refused:", e.message.split("\n")[0]); }
return seen;`
	out := runNode(t, node, "tssdk_codemode.cjs", dir, url, program)
	want := `{"tools":["run_code"],"codeDeclares":true,"result":{"content":[{"type":"text","text":"refused: ` +
		`invalid arguments for \"read\": \"path\" must be a string, got a number\n[\"alpha\",\"beta\"]"}]}}` + "\n"
	if string(out) != want {
		t.Errorf("the TypeScript client printed\n%s\nwant\n%s", out, want)
	}
}

// TestServeTasksTypeScriptClient serves the built-ins with --tasks and has
// the TypeScript SDK's Client call bash as a task through its experimental
// tasks API (callToolStream: create, poll, result), then cancel a second
// task while it runs. TOOLNEXUS_TSSDK_DIR as for
// TestServeQuestionTypeScriptClient.
func TestServeTasksTypeScriptClient(t *testing.T) {
	dir, node := tsSDK(t)
	url := startServe(t, nil, "--tasks", "--http", "127.0.0.1:0", "--no-auth")
	out := runNode(t, node, "tssdk_tasks.cjs", dir, url)
	var got struct {
		Execution   map[string]string `json:"execution"`
		Messages    []string          `json:"messages"`
		TaskID      string            `json:"taskId"`
		Result      json.RawMessage   `json:"result"`
		Cancelled   string            `json:"cancelled"`
		AfterCancel string            `json:"afterCancel"`
		Listed      int               `json:"listed"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Execution["taskSupport"] != "optional" {
		t.Errorf("bash execution = %v, want taskSupport optional", got.Execution)
	}
	if len(got.Messages) < 2 || got.Messages[0] != "taskCreated" || got.Messages[len(got.Messages)-1] != "result" || got.TaskID == "" {
		t.Errorf("callToolStream messages = %v (task %q), want taskCreated ... result", got.Messages, got.TaskID)
	}
	want := `{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"` + got.TaskID + `"}},"content":[{"type":"text","text":"tasked\n"}]}`
	if string(got.Result) != want {
		t.Errorf("task result = %s, want %s", got.Result, want)
	}
	if got.Cancelled != "cancelled" || got.AfterCancel != "cancelled" || got.Listed != 2 {
		t.Errorf("cancel = %q, get after = %q, listed %d; want cancelled, cancelled, 2", got.Cancelled, got.AfterCancel, got.Listed)
	}
}

// TestCallTaskToolOfTypeScriptServer loads a TypeScript SDK server whose
// tool must be called as a task (testdata/tssdk_task_server.cjs) and calls
// it with toolnexus call: the loader makes the tools/call a task and
// fetches its result with tasks/result. TOOLNEXUS_TSSDK_DIR as for
// TestServeQuestionTypeScriptClient.
func TestCallTaskToolOfTypeScriptServer(t *testing.T) {
	dir, node := tsSDK(t)
	script, _ := filepath.Abs(filepath.Join("testdata", "tssdk_task_server.cjs"))
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"ts": map[string]any{"command": node, "args": []string{script, dir}}}})
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	o := cli(t, "", "call", "ts_slow_sum", `{"a":2,"b":40}`, "--mcp", cfg, "--no-builtins")
	if o.code != 0 || o.stdout != "sum 42\n" {
		t.Errorf("call ts_slow_sum: exit %d, stdout %q, stderr %q; want sum 42", o.code, o.stdout, o.stderr)
	}
}

// runNode runs testdata/script with node and args (at most 60 seconds,
// without TOOLNEXUS_TOKEN) and returns its standard output; it fails the
// test, showing standard error, when node does not exit 0.
func runNode(t *testing.T, node, script string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path, _ := filepath.Abs(filepath.Join("testdata", script))
	cmd := exec.CommandContext(ctx, node, append([]string{path}, args...)...)
	cmd.Env = envWithoutToken()
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node %s: %v\n%s", path, err, stderr)
	}
	return out
}
