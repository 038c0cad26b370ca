package exec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/internal/golden"
	"github.com/toolnexus/toolnexus/render"
)

// ForecastArgs are the arguments of the forecast test tool.
type ForecastArgs struct {
	City string `json:"city"`
	Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=14"`
}

// searchRegistry is testRegistry plus forecast (typed) and send_invoice
// (raw); searchOptions defer get_weather, forecast and send_invoice.
func searchRegistry(t testing.TB) *toolnexus.Registry {
	t.Helper()
	reg := testRegistry(t)
	if err := toolnexus.Register(reg, "forecast", "Weather forecast for the next days",
		func(_ context.Context, a ForecastArgs) (string, error) { return "sun in " + a.City, nil }); err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(toolnexus.Tool{Name: "send_invoice", Description: "Email an invoice to a customer",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"customer":{"type":"string"}},"required":["customer"]}`),
		Handler:     toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "sent", nil })}); err != nil {
		t.Fatal(err)
	}
	return reg
}

func searchOptions(conc int) *exec.Options {
	return &exec.Options{Concurrency: conc, ToolSearch: &exec.ToolSearch{Deferred: []string{"get_weather", "forecast", "send_invoice", "no_such_tool"}}}
}

var searchProviders = map[string]struct {
	stream streamRun
	whole  wholeRun
	feed   feedRun
}{
	"responses": streamProviders["openai_responses"],
	"anthropic": streamProviders["anthropic"],
}

// TestToolSearchGolden runs the recorded streams of
// testdata/toolsearch/<provider>*.sse (text between calls, pings, a
// server-executed search, a cut-off stream) and compares each answer
// with testdata/golden/toolsearch/<case>.json byte for byte, at three
// concurrency settings; a complete stream's answer must equal that of the
// same reply sent whole (<provider>.whole.json).
func TestToolSearchGolden(t *testing.T) {
	reg := searchRegistry(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "toolsearch", "*.sse"))
	if len(files) != 4 {
		t.Fatalf("%d recorded streams, want 4", len(files))
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".sse")
		provider, _, cut := strings.Cut(name, "_")
		t.Run(name, func(t *testing.T) {
			p := searchProviders[provider]
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var outs []string
			for _, conc := range []int{1, 0, -1} {
				v, err := p.stream(exec.New(reg, searchOptions(conc)), context.Background(), bytes.NewReader(raw))
				if cut != (err != nil) || err != nil && !errors.Is(err, exec.ErrStreamIncomplete) {
					t.Fatalf("Concurrency %d: error %v", conc, err)
				}
				errText := ""
				if err != nil {
					errText = err.Error()
				}
				outs = append(outs, mustJSON(t, struct {
					Answer any    `json:"answer"`
					Error  string `json:"error,omitempty"`
				}{v, errText})+"\n")
			}
			if outs[0] != outs[1] || outs[0] != outs[2] {
				t.Fatalf("answers differ between concurrency settings:\n%s%s%s", outs[0], outs[1], outs[2])
			}
			golden.Check(t, filepath.Join("testdata", "golden", "toolsearch", name+".json"), []byte(outs[0]))
			if cut {
				return
			}
			whole, err := os.ReadFile(filepath.Join("testdata", "toolsearch", provider+".whole.json"))
			if err != nil {
				t.Fatal(err)
			}
			v, err := p.whole(exec.New(reg, searchOptions(0)), context.Background(), whole)
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"answer":` + mustJSON(t, v) + "}\n"; outs[0] != want {
				t.Errorf("stream answer differs from the whole reply's:\nstream %swhole  %s", outs[0], want)
			}
		})
	}
}

// TestToolSearchAnswers checks the answers field by field, so the golden
// files cannot drift unnoticed.
func TestToolSearchAnswers(t *testing.T) {
	ctx := context.Background()
	e := exec.New(searchRegistry(t), searchOptions(0))
	raw, err := os.ReadFile("testdata/toolsearch/responses.whole.json")
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.ResponsesJSON(ctx, raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 || out[0].CallID != "call_search" || out[1].CallID != "call_echo" || out[2].CallID != "call_bad" {
		t.Fatalf("outputs %+v, want call_search, call_echo, call_bad in item order", out)
	}
	var first struct {
		Type, CallID, Execution, Status string
		Tools                           []map[string]any
	}
	if err := json.Unmarshal([]byte(mustJSON(t, out[0])), &first); err != nil {
		t.Fatal(err)
	}
	if first.Type != "tool_search_output" || first.Execution != "client" || first.Status != "completed" || len(first.Tools) != 2 ||
		first.Tools[0]["name"] != "forecast" || first.Tools[1]["name"] != "get_weather" ||
		first.Tools[0]["defer_loading"] != true || first.Tools[0]["type"] != "function" {
		t.Errorf("first search: %s", mustJSON(t, out[0]))
	}
	if got := mustJSON(t, out[2]); got != `{"type":"tool_search_output","call_id":"call_bad","execution":"client","status":"completed","tools":[]}` {
		t.Errorf("bad arguments: %s", got)
	}
	if out[2].Output != `error: invalid arguments for "tool_search": unknown property "q"; allowed: query` {
		t.Errorf("bad arguments Output: %q", out[2].Output)
	}

	raw, err = os.ReadFile("testdata/toolsearch/anthropic.whole.json")
	if err != nil {
		t.Fatal(err)
	}
	msg, err := e.AnthropicJSON(ctx, raw)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"role":"user","content":[` +
		`{"type":"tool_result","tool_use_id":"toolu_s1","content":[{"type":"tool_reference","tool_name":"forecast"},{"type":"tool_reference","tool_name":"get_weather"}]},` +
		`{"type":"tool_result","tool_use_id":"toolu_s2","content":"No tool matches \"zebra\"."},` +
		`{"type":"tool_result","tool_use_id":"toolu_s3","content":"invalid arguments for \"tool_search\": \"query\" is required","is_error":true},` +
		`{"type":"tool_result","tool_use_id":"toolu_e","content":"{\"a\":1}"}]}`
	if got := mustJSON(t, msg); got != want {
		t.Errorf("Anthropic:\ngot  %s\nwant %s", got, want)
	}

	// Without Options.ToolSearch a client search finds nothing, and an
	// Anthropic call of tool_search is an ordinary (here unknown) tool.
	plain := exec.New(searchRegistry(t), nil)
	out, err = plain.ResponsesJSON(ctx, []byte(`[{"type":"tool_search_call","call_id":"c","execution":"client","arguments":{"query":"weather"}}]`))
	if err != nil || mustJSON(t, out) != `[{"type":"tool_search_output","call_id":"c","execution":"client","status":"completed","tools":[]}]` {
		t.Errorf("no ToolSearch: %s, %v", mustJSON(t, out), err)
	}
	msg, err = plain.AnthropicJSON(ctx, []byte(`[{"type":"tool_use","id":"t","name":"tool_search","input":{"query":"weather"}}]`))
	if err != nil || !msg.Content[0].IsError || !strings.HasPrefix(msg.Content[0].Content, `unknown tool "tool_search"`) {
		t.Errorf("no ToolSearch, Anthropic: %s, %v", mustJSON(t, msg), err)
	}
}

// TestToolSearchRenderOptions: the found tools are rendered with
// ToolSearch.OpenAI, so a strict host shows strict schemas in the search
// output too; Limit caps the answer.
func TestToolSearchRenderOptions(t *testing.T) {
	reg := searchRegistry(t)
	opts := &exec.ToolSearch{Deferred: []string{"forecast", "get_weather"}, Limit: 1, OpenAI: render.OpenAIOptions{Strict: true}}
	out, err := exec.New(reg, &exec.Options{ToolSearch: opts}).ResponsesJSON(context.Background(),
		[]byte(`[{"type":"tool_search_call","call_id":"c","execution":"client","arguments":"{\"query\":\"weather\"}"}]`))
	if err != nil {
		t.Fatal(err)
	}
	top, _ := reg.Get("get_weather") // 6 points; forecast 2
	want, err := render.OpenAIResponsesWith([]toolnexus.Tool{top}, render.OpenAIOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	want[0].DeferLoading = true
	if len(out) != 1 || len(out[0].Tools) != 1 || mustJSON(t, out[0].Tools) != mustJSON(t, want) || !out[0].Tools[0].Strict {
		t.Errorf("got %s\nwant tools %s", mustJSON(t, out), mustJSON(t, want))
	}
}

// A Responses reply with a client-executed tool search, and the same
// search made through the Anthropic search tool.
func ExampleToolSearch() {
	reg := toolnexus.NewRegistry()
	_ = reg.Add(toolnexus.Tool{Name: "forecast", Description: "Weather forecast for a city",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
		Handler:     toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "sun", nil })})
	e := exec.New(reg, &exec.Options{ToolSearch: &exec.ToolSearch{Deferred: []string{"forecast"}}})
	ctx := context.Background()

	out, _ := e.ResponsesJSON(ctx, []byte(`{"output":[{"type":"tool_search_call","id":"tsc_1","call_id":"call_1",`+
		`"execution":"client","arguments":{"query":"weather"},"status":"completed"}]}`))
	b, _ := json.Marshal(out)
	fmt.Println(string(b))

	msg, _ := e.AnthropicJSON(ctx, []byte(`[{"type":"tool_use","id":"toolu_1","name":"tool_search","input":{"query":"forecast"}}]`))
	b, _ = json.Marshal(msg)
	fmt.Println(string(b))
	// Output:
	// [{"type":"tool_search_output","call_id":"call_1","execution":"client","status":"completed","tools":[{"type":"function","name":"forecast","description":"Weather forecast for a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"defer_loading":true,"strict":false}]}]
	// {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"tool_reference","tool_name":"forecast"}]}]}
}

// TestToolSearchInvalidPartial: with ToolSearch set, the early report
// checks a streamed call of the Anthropic search tool against
// render.ToolSearchSchema, not the registry (where it is no tool).
func TestToolSearchInvalidPartial(t *testing.T) {
	stream := func(input string) string {
		b, _ := json.Marshal(input)
		return "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"tool_search\",\"input\":{}}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":" + string(b) + "}}\n\n" +
			"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	}
	for _, c := range []struct {
		search        bool
		input, report string
	}{
		{true, `{"query":"weather"}`, ""},
		{true, `{"q":"weather"}`, `unknown property "q"; allowed: query`},
		{false, `{"query":"weather"}`, `unknown tool "tool_search"`},
	} {
		var reports []string
		opts := &exec.Options{Concurrency: 1, OnInvalidPartial: func(_ exec.Call, problem string) { reports = append(reports, problem) }}
		if c.search {
			opts.ToolSearch = &exec.ToolSearch{Deferred: []string{"forecast"}}
		}
		if _, err := exec.New(searchRegistry(t), opts).AnthropicStream(context.Background(), strings.NewReader(stream(c.input))); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(reports, "; "); got != c.report {
			t.Errorf("search %v, %s: reports %q, want %q", c.search, c.input, got, c.report)
		}
	}
}

// BenchmarkToolSearch answers one Responses tool_search_call over 200
// deferred tools (ranking, rendering the 5 found) and one Anthropic call.
func BenchmarkToolSearch(b *testing.B) {
	reg := toolnexus.NewRegistry()
	var names []string
	for i := 0; i < 200; i++ {
		name := fmt.Sprintf("tool_%03d_%s", i, []string{"weather", "invoice", "calendar", "files", "mail"}[i%5])
		names = append(names, name)
		if err := reg.Add(toolnexus.Tool{Name: name, Description: "Does " + name + " things for a user account",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
			Handler:     toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil })}); err != nil {
			b.Fatal(err)
		}
	}
	e := exec.New(reg, &exec.Options{Concurrency: 1, ToolSearch: &exec.ToolSearch{Deferred: names}})
	ctx := context.Background()
	b.Run("responses", func(b *testing.B) {
		raw := []byte(`[{"type":"tool_search_call","call_id":"c","execution":"client","arguments":{"query":"weather for my account"}}]`)
		for b.Loop() {
			if out, err := e.ResponsesJSON(ctx, raw); err != nil || len(out[0].Tools) != 5 {
				b.Fatal(err)
			}
		}
	})
	b.Run("anthropic", func(b *testing.B) {
		raw := []byte(`[{"type":"tool_use","id":"t","name":"tool_search","input":{"query":"weather for my account"}}]`)
		for b.Loop() {
			if msg, err := e.AnthropicJSON(ctx, raw); err != nil || len(msg.Content[0].Blocks) != 5 {
				b.Fatal(err)
			}
		}
	})
}

// TestResponsesStreamItemsBounded: the items a Responses stream holds
// (function calls, tool searches: their arguments come whole in
// output_item events) count against MaxStreamBytes, so many large items
// end the stream instead of piling up.
func TestResponsesStreamItemsBounded(t *testing.T) {
	e := exec.New(searchRegistry(t), &exec.Options{MaxStreamBytes: 4000, ToolSearch: &exec.ToolSearch{}})
	for _, item := range []string{
		`{"type":"function_call","call_id":"c%d","name":"echo","arguments":"{\"a\":\"%s\"}"}`,
		`{"type":"tool_search_call","call_id":"c%d","execution":"client","arguments":{"query":"%s"}}`,
	} {
		var sb strings.Builder
		for i := 0; i < 10; i++ {
			it := fmt.Sprintf(item, i, strings.Repeat("x", 1000))
			fmt.Fprintf(&sb, "data: {\"type\":\"response.output_item.done\",\"output_index\":%d,\"item\":%s}\n\n", i, it)
		}
		sb.WriteString("data: {\"type\":\"response.completed\",\"response\":{\"output\":[]}}\n\n")
		out, err := e.ResponsesStream(context.Background(), strings.NewReader(sb.String()))
		if !errors.Is(err, exec.ErrStreamIncomplete) || !strings.Contains(err.Error(), "the calls' data is larger than the limit of 4000 bytes") {
			t.Errorf("%.20s: %d outputs, error %v", item, len(out), err)
		}
	}
}

// TestToolSearchNamespaces: found tools of a known namespace come back in
// one namespace entry (short names, each deferred), placed where the best
// of them ranks, and the model's namespaced call runs the registry tool.
func TestToolSearchNamespaces(t *testing.T) {
	reg := customRegistry(t) // crm__lookup, crm__note (freeform), run_sql, ...
	if err := reg.Add(toolnexus.Tool{Name: "send_invoice", Description: "Email an invoice to a customer",
		Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "sent", nil })}); err != nil {
		t.Fatal(err)
	}
	e := exec.New(reg, &exec.Options{ToolSearch: &exec.ToolSearch{
		Deferred:   []string{"crm__lookup", "crm__note", "send_invoice"},
		Namespaces: map[string]string{"crm": "Customer records"},
	}})
	out, err := e.ResponsesJSON(context.Background(), []byte(`[{"type":"tool_search_call","call_id":"c","execution":"client","arguments":{"query":"customer note invoice"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	// send_invoice: "invoice" 4+2, "customer" 2 (8); crm__note: "note"
	// 4+2 (6); crm__lookup: "customer" 2. So send_invoice, then crm (note,
	// lookup).
	want := `[{"type":"tool_search_output","call_id":"c","execution":"client","status":"completed","tools":[` +
		`{"type":"function","name":"send_invoice","description":"Email an invoice to a customer","parameters":{"type":"object","properties":{}},"defer_loading":true,"strict":false},` +
		`{"type":"namespace","name":"crm","description":"Customer records","tools":[` +
		`{"type":"custom","name":"note","description":"Add a note","format":{"type":"text"},"defer_loading":true},` +
		`{"type":"function","name":"lookup","description":"Look up a customer","parameters":{"type":"object","properties":{}},"defer_loading":true,"strict":false}]}]}]`
	if got := mustJSON(t, out); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	calls, err := e.ResponsesJSON(context.Background(), []byte(`[{"type":"function_call","call_id":"c2","namespace":"crm","name":"lookup","arguments":"{\"id\":1}"}]`))
	if err != nil || calls[0].Output != `customer {"id":1}` {
		t.Errorf("namespaced call: %+v, %v", calls, err)
	}
}

// A tool the render options refuse is left out of a tool_search_output,
// and the Result's Output names only the tools returned.
func TestToolSearchOutputNamesOnlyReturnedTools(t *testing.T) {
	reg := searchRegistry(t)
	if err := reg.Add(toolnexus.Tool{Name: "pick_weather", Description: "Weather by city or by coordinates",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"lat":{"type":"number"}},"anyOf":[{"required":["city"]},{"required":["lat"]}]}`),
		Handler:     toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "sun", nil })}); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	opts := &exec.Options{ToolSearch: &exec.ToolSearch{Deferred: []string{"pick_weather", "get_weather"}},
		Logger: slog.New(slog.NewTextHandler(&logs, nil)), LogOutput: true}
	out, err := exec.New(reg, opts).ResponsesJSON(context.Background(),
		[]byte(`[{"type":"tool_search_call","call_id":"c","execution":"client","arguments":"{\"query\":\"weather\"}"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || len(out[0].Tools) != 1 || out[0].Tools[0].Name != "get_weather" {
		t.Fatalf("tool_search_output = %s, want get_weather only (pick_weather has a root anyOf)", mustJSON(t, out))
	}
	if got := out[0].Output; got != "Tools found: get_weather" {
		t.Errorf("Output = %q, want %q", got, "Tools found: get_weather")
	}
	if !strings.Contains(logs.String(), `output="Tools found: get_weather"`) {
		t.Errorf("log = %s, want output=\"Tools found: get_weather\"", logs.String())
	}

	opts.ToolSearch.Deferred = []string{"pick_weather"}
	out, err = exec.New(reg, opts).ResponsesJSON(context.Background(),
		[]byte(`[{"type":"tool_search_call","call_id":"c","execution":"client","arguments":"{\"query\":\"weather\"}"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || len(out[0].Tools) != 0 || out[0].Output != `No tool matches "weather".` {
		t.Errorf("only a refused tool found: %s, Output %q; want no tools and \"No tool matches\"", mustJSON(t, out), out[0].Output)
	}
}
