package interop

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

// capture is a loopback stand-in for a provider API: it records each
// request body and answers with a fixed, minimal valid response.
type capture struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies [][]byte
	paths  []string
}

func newCapture(t *testing.T, response string) *capture {
	t.Helper()
	c := &capture{}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.bodies = append(c.bodies, b)
		c.paths = append(c.paths, r.URL.Path)
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, response)
	}))
	t.Cleanup(c.srv.Close)
	return c
}

// tools returns the raw bytes of the "tools" member of the only request
// received, exactly as they were on the wire.
func (c *capture) tools(t *testing.T) json.RawMessage {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.bodies) != 1 {
		t.Fatalf("server got %d requests, want 1", len(c.bodies))
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(c.bodies[0], &body); err != nil {
		t.Fatalf("request body is not a JSON object: %v\n%s", err, c.bodies[0])
	}
	tools, ok := body["tools"]
	if !ok {
		t.Fatalf("request has no tools: %s", c.bodies[0])
	}
	return tools
}

// noProviderEnv blanks the environment variables the SDKs read, so nothing
// here can pick up a real key or endpoint.
func noProviderEnv(t *testing.T) {
	for _, k := range []string{
		"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_ADMIN_KEY",
		"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN",
		"GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_ENTERPRISE",
		"GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_GEMINI_BASE_URL", "GOOGLE_VERTEX_BASE_URL",
	} {
		t.Setenv(k, "")
	}
}

// caseTools is the shared renderer case list.
func caseTools() []toolnexus.Tool { return rendertest.Tools() }

// requireBytes fails unless got and want are the same bytes.
func requireBytes(t *testing.T, what string, got, want []byte) {
	t.Helper()
	t.Logf("%s: comparing %d received bytes with %d rendered bytes", what, len(got), len(want))
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: received bytes differ from the render\n got %s\nwant %s", what, got, want)
	}
}

// requireSameJSON fails unless got and want decode to equal values.
func requireSameJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: got is not JSON: %v", what, err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("%s: want is not JSON: %v", what, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("%s: received JSON differs from the render\n got %s\nwant %s", what, got, want)
	}
}

func containsBytes(b, sub []byte) bool { return bytes.Contains(b, sub) }
