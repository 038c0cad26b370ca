package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServer starts the server on a free loopback port, reads its URL from
// the first line, and calls every tool as the conformance scenarios do.
func TestServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, "127.0.0.1:0", false, pw) }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSpace(line)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("first line = %q, want http://127.0.0.1:PORT/mcp", line)
	}

	var mu sync.Mutex
	var progress []float64
	var logs []string
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "t", Version: "1"}, &mcpsdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcpsdk.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, r.Params.Progress)
			mu.Unlock()
		},
		ElicitationHandler: func(_ context.Context, r *mcpsdk.ElicitRequest) (*mcpsdk.ElicitResult, error) {
			schema, _ := json.Marshal(r.Params.RequestedSchema)
			return &mcpsdk.ElicitResult{Action: "accept", Content: map[string]any{"name": string(schema[:9])}}, nil
		},
		CreateMessageHandler: func(_ context.Context, r *mcpsdk.CreateMessageRequest) (*mcpsdk.CreateMessageResult, error) {
			q := r.Params.Messages[0].Content.(*mcpsdk.TextContent).Text
			return &mcpsdk.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcpsdk.TextContent{Text: "echo " + q}}, nil
		},
		LoggingMessageHandler: func(_ context.Context, r *mcpsdk.LoggingMessageRequest) {
			mu.Lock()
			logs = append(logs, r.Params.Data.(string))
			mu.Unlock()
		},
	})
	cs, err := c.Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: url}, &mcpsdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.SetLoggingLevel(ctx, &mcpsdk.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	call := func(name string, token any) *mcpsdk.CallToolResult {
		t.Helper()
		p := &mcpsdk.CallToolParams{Name: name, Arguments: map[string]any{}}
		if token != nil {
			p.SetProgressToken(token)
		}
		res, err := cs.CallTool(ctx, p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	// A form tool asks through elicitation, with its schema as it is (the
	// go-sdk client fills in the defaults the person left out).
	if res := call("test_elicitation_sep1034_defaults", nil); res.IsError || len(res.Content) != 1 ||
		res.Content[0].(*mcpsdk.TextContent).Text != `Elicitation completed: action=accept, content={"age":30,"name":"{\"propert","score":95.5,"status":"active","verified":true}` {
		t.Errorf("test_elicitation_sep1034_defaults = %+v", res.Content[0])
	}
	kinds := func(res *mcpsdk.CallToolResult) string {
		var k []string
		for _, c := range res.Content {
			switch c := c.(type) {
			case *mcpsdk.TextContent:
				k = append(k, "text")
			case *mcpsdk.ImageContent:
				k = append(k, "image:"+c.MIMEType)
			case *mcpsdk.AudioContent:
				k = append(k, "audio:"+c.MIMEType)
			case *mcpsdk.EmbeddedResource:
				k = append(k, "resource:"+c.Resource.URI)
			}
		}
		return strings.Join(k, " ")
	}
	for name, want := range map[string]string{
		"test_simple_text":            "text",
		"test_image_content":          "image:image/png",
		"test_audio_content":          "audio:audio/wav",
		"test_embedded_resource":      "resource:test://embedded-resource",
		"test_multiple_content_types": "text image:image/png resource:test://mixed-content-resource",
	} {
		if got := kinds(call(name, nil)); got != want {
			t.Errorf("%s content = %s, want %s", name, got, want)
		}
	}
	if res := call("test_error_handling", nil); !res.IsError || kinds(res) != "text" {
		t.Errorf("test_error_handling = %+v, want one text block with isError", res)
	}
	// A tool asks the client's model (sampling) and, in one round, a form,
	// a sample and the roots.
	sampled, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "test_sampling", Arguments: map[string]any{"prompt": "hi"}})
	if err != nil || sampled.IsError || sampled.Content[0].(*mcpsdk.TextContent).Text != "LLM response: echo hi" {
		t.Errorf("test_sampling = %+v, %v", sampled, err)
	}
	if got := call("test_input_required_result_multiple_inputs", nil).Content[0].(*mcpsdk.TextContent).Text; got != `Hello, {"propert! echo Generate a greeting Roots: {"roots":[]}` {
		t.Errorf("test_input_required_result_multiple_inputs = %q", got)
	}
	// Prompts, resources and completions are the SDK server's own.
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 5 {
		t.Errorf("prompts/list = %+v, %v", prompts, err)
	}
	text, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: "test://template/7/data"})
	if err != nil || text.Contents[0].Text != `{"data":"Data for ID: 7","id":"7","templateTest":true}` {
		t.Errorf("resources/read = %+v, %v", text, err)
	}
	done2, err := cs.Complete(ctx, &mcpsdk.CompleteParams{Ref: &mcpsdk.CompleteReference{Type: "ref/prompt", Name: "test_prompt_with_arguments"},
		Argument: mcpsdk.CompleteParamsArgument{Name: "arg1", Value: "par"}})
	if err != nil || strings.Join(done2.Completion.Values, ",") != "paris,park,party" {
		t.Errorf("completion/complete = %+v, %v", done2, err)
	}
	call("test_tool_with_logging", nil)
	call("test_tool_with_progress", "p1")
	// Notification handlers run concurrently with the result's delivery.
	var gotLogs string
	var gotProgress []float64
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		gotLogs, gotProgress = strings.Join(logs, "|"), append([]float64(nil), progress...)
		mu.Unlock()
		if strings.Count(gotLogs, "|") >= 2 && len(gotProgress) >= 3 {
			break
		}
	}
	if gotLogs != "Tool execution started|Tool processing data|Tool execution completed" {
		t.Errorf("logs = %q", gotLogs)
	}
	if len(gotProgress) != 3 || gotProgress[0] != 0 || gotProgress[1] != 50 || gotProgress[2] != 100 {
		t.Errorf("progress = %v, want [0 50 100]", gotProgress)
	}
	cs.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}
