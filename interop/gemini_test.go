package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"google.golang.org/genai"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

const geminiResponse = `{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP"}]}`

func geminiClient(t *testing.T, url string) *genai.Client {
	noProviderEnv(t)
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey: "test-key", Backend: genai.BackendGeminiAPI, HTTPOptions: genai.HTTPOptions{BaseURL: url},
	})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// TestGeminiAllowlistIsGenaiSchema pins render.GeminiKeywords to the JSON
// fields of genai.Schema, the SDK's model of Gemini's "parameters".
func TestGeminiAllowlistIsGenaiSchema(t *testing.T) {
	var fields []string
	st := reflect.TypeFor[genai.Schema]()
	for i := range st.NumField() {
		name, _, _ := strings.Cut(st.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			fields = append(fields, name)
		}
	}
	slices.Sort(fields)
	if got := render.GeminiKeywords(); !slices.Equal(got, fields) {
		t.Fatalf("render.GeminiKeywords() = %v\ngenai.Schema fields  = %v", got, fields)
	}
}

func TestGeminiSDK(t *testing.T) {
	rendered, err := render.Gemini(caseTools())
	if err != nil {
		t.Fatal(err)
	}
	raw := rendered.AppendJSON(nil)
	// The rendered JSON decodes into the SDK's own types with no unknown
	// field anywhere (genai.Schema has no custom decoder, so
	// DisallowUnknownFields reaches every nested schema) ...
	var tools []*genai.Tool
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tools); err != nil {
		t.Fatalf("rendered Gemini tools do not decode into []*genai.Tool: %v", err)
	}
	if len(tools) != 1 || len(tools[0].FunctionDeclarations) != len(caseTools()) {
		t.Fatalf("decoded %d tools", len(tools))
	}
	// ... and what the SDK sends is the same JSON. genai turns the whole
	// request into map[string]any before sending, so every object's keys
	// come out sorted: compare values (an empty description, which genai
	// omits, counts as absent).
	c := newCapture(t, geminiResponse)
	client := geminiClient(t, c.srv.URL)
	resp, err := client.Models.GenerateContent(context.Background(), "gemini-test", genai.Text("weather in Paris?"),
		&genai.GenerateContentConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text() != "ok" {
		t.Fatalf("response not parsed: %q", resp.Text())
	}
	requireSameJSON(t, "gemini tools", c.tools(t), dropEmptyDescriptions(t, raw))
}

// TestGeminiSDKPropertyOrdering: with PropertyOrdering the field order
// survives the SDK's key sorting as data.
func TestGeminiSDKPropertyOrdering(t *testing.T) {
	rendered, err := render.GeminiWith(caseTools()[:1], render.GeminiOptions{PropertyOrdering: true})
	if err != nil {
		t.Fatal(err)
	}
	var tools []*genai.Tool
	if err := json.Unmarshal(rendered.AppendJSON(nil), &tools); err != nil {
		t.Fatal(err)
	}
	c := newCapture(t, geminiResponse)
	client := geminiClient(t, c.srv.URL)
	if _, err := client.Models.GenerateContent(context.Background(), "gemini-test", genai.Text("hi"),
		&genai.GenerateContentConfig{Tools: tools}); err != nil {
		t.Fatal(err)
	}
	got := c.tools(t)
	if !bytes.Contains(got, []byte(`"propertyOrdering":["city","unit","days"]`)) {
		t.Fatalf("property order lost: %s", got)
	}
	requireSameJSON(t, "gemini tools", got, rendered.AppendJSON(nil))
}

// dropEmptyDescriptions removes "description":"" from each declaration.
func dropEmptyDescriptions(t *testing.T, raw []byte) []byte {
	t.Helper()
	var v []map[string][]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	for _, tool := range v {
		for _, d := range tool["functionDeclarations"] {
			if string(d["description"]) == `""` {
				delete(d, "description")
			}
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGeminiSDKJSONSchema(t *testing.T) {
	rendered, err := render.GeminiWith(caseTools(), render.GeminiOptions{JSONSchema: true})
	if err != nil {
		t.Fatal(err)
	}
	decls := make([]*genai.FunctionDeclaration, 0, len(rendered[0].FunctionDeclarations))
	for _, d := range rendered[0].FunctionDeclarations {
		decls = append(decls, &genai.FunctionDeclaration{
			Name: d.Name, Description: d.Description,
			ParametersJsonSchema: d.ParametersJSONSchema, // json.RawMessage: sent as is
		})
	}
	c := newCapture(t, geminiResponse)
	client := geminiClient(t, c.srv.URL)
	if _, err := client.Models.GenerateContent(context.Background(), "gemini-test", genai.Text("hi"),
		&genai.GenerateContentConfig{Tools: []*genai.Tool{{FunctionDeclarations: decls}}}); err != nil {
		t.Fatal(err)
	}
	// genai re-encodes even a json.RawMessage ParametersJsonSchema through
	// map[string]any (keys sorted), so only the values can match.
	requireSameJSON(t, "gemini tools (parametersJsonSchema)", c.tools(t), dropEmptyDescriptions(t, rendered.AppendJSON(nil)))
}

func TestGeminiToolConfigSDK(t *testing.T) {
	b, err := render.GeminiToolConfig("VALIDATED", caseTools()[:1])
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var tc genai.ToolConfig
	if err := dec.Decode(&tc); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	fc := tc.FunctionCallingConfig
	if fc == nil || fc.Mode != genai.FunctionCallingConfigModeValidated || len(fc.AllowedFunctionNames) != 1 || fc.AllowedFunctionNames[0] != caseTools()[0].Name {
		t.Fatalf("decoded %+v from %s", fc, b)
	}
	again, _ := json.Marshal(tc)
	requireBytes(t, "toolConfig", again, b)
}

// TestGeminiSDKRefuseHidden: with RefuseHidden every case tool whose rules
// can all be shown renders exactly as without it and goes through the SDK
// unchanged, hints included; the recursive case (levels below the cut are
// checked but not shown) is refused with ErrHiddenRule.
func TestGeminiSDKRefuseHidden(t *testing.T) {
	var shown []toolnexus.Tool
	for _, c := range rendertest.Cases() {
		got, err := render.GeminiWith([]toolnexus.Tool{c.Tool}, render.GeminiOptions{RefuseHidden: true})
		if c.Name == "recursive" {
			if !errors.Is(err, render.ErrHiddenRule) {
				t.Errorf("recursive: err = %v, want ErrHiddenRule", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		plain, err := render.Gemini([]toolnexus.Tool{c.Tool})
		if err != nil {
			t.Fatal(err)
		}
		requireBytes(t, c.Name, got.AppendJSON(nil), plain.AppendJSON(nil))
		shown = append(shown, c.Tool)
	}
	rendered, err := render.GeminiWith(shown, render.GeminiOptions{RefuseHidden: true})
	if err != nil {
		t.Fatal(err)
	}
	raw := rendered.AppendJSON(nil)
	if !bytes.Contains(raw, []byte(`"description":"Must be greater than 0. Must be a multiple of 0.5."`)) {
		t.Fatalf("hint missing: %s", raw)
	}
	var tools []*genai.Tool
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tools); err != nil {
		t.Fatal(err)
	}
	c := newCapture(t, geminiResponse)
	client := geminiClient(t, c.srv.URL)
	if _, err := client.Models.GenerateContent(context.Background(), "gemini-test", genai.Text("hi"),
		&genai.GenerateContentConfig{Tools: tools}); err != nil {
		t.Fatal(err)
	}
	requireSameJSON(t, "gemini tools (RefuseHidden)", c.tools(t), dropEmptyDescriptions(t, raw))
}
