package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

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
	dir := os.Getenv("TOOLNEXUS_TSSDK_DIR")
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
	url := startServe(t, nil, "--http", "127.0.0.1:0", "--no-auth")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	script, _ := filepath.Abs(filepath.Join("testdata", "tssdk_question.cjs"))
	cmd := exec.CommandContext(ctx, node, script, dir, url)
	cmd.Env = envWithoutToken()
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node %s: %v\n%s", script, err, stderr)
	}
	want := `{"elicitation":{"mode":"form","message":"Which color? (options: red, blue)\nWhy?",` +
		`"requestedSchema":{"type":"object","properties":{` +
		`"q1":{"type":"string","title":"Which color?","description":"Which color?","enum":["red","blue"]},` +
		`"q2":{"type":"string","title":"Why?","description":"Why?"}},"required":["q1","q2"]}},` +
		`"result":{"content":[{"type":"text","text":"{\"answers\":[[\"blue\"],[\"it is calm\"]]}"}]}}` + "\n"
	if string(out) != want {
		t.Errorf("the TypeScript client printed\n%s\nwant\n%s", out, want)
	}
}
