package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestToolsOpenAPI(t *testing.T) {
	o := cli(t, "", "tools", "--openapi", "openapi/testdata/petstore.yaml", "--no-builtins")
	want := "addPet deletePet findPetsByStatus getCategory getCategory_2 getPetById " +
		"placeOrder put_store_payment store_note updatePet updatePetWithForm"
	if got := toolNames(t, o.stdout); o.code != 0 || got != want {
		t.Errorf("exit %d, tools %v, want %v; stderr %s", o.code, got, want, o.stderr)
	}
	// the operations that cannot be expressed are listed, with the reason
	for _, s := range []string{
		"skipped POST /pet/{petId}/uploadImage (uploadFile): request body media type multipart/form-data (multipart upload) is not supported",
		"skipped GET /store/inventory: required cookie parameter \"session\": cookie parameters are not supported",
	} {
		if !strings.Contains(o.stderr, "toolnexus: openapi openapi/testdata/petstore.yaml: "+s+"\n") {
			t.Errorf("stderr lacks %q:\n%s", s, o.stderr)
		}
	}

	shared := filepath.Join(repoRoot, "..", "shared", "openapi", "petstore.yaml")
	if _, err := os.Stat(shared); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and the shared OpenAPI documents are missing: %v", err)
		}
		t.Skipf("the official petstore.yaml is not at %s (../shared/openapi beside the repository): %v", shared, err)
	}
	o = cli(t, "", "tools", "--openapi", shared, "--no-builtins")
	if got := toolNames(t, o.stdout); o.code != 0 || got != "createPets listPets showPetById" || o.stderr != "" {
		t.Errorf("official petstore: exit %d, tools %v, stderr %q", o.code, got, o.stderr)
	}
}

func TestCallOpenAPI(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.RequestURI())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":7,"name":"doggie"}`))
	}))
	defer srv.Close()
	base := srv.URL + "/v3"
	o := cli(t, "", "call", "getPetById", `{"petId":7}`, "--openapi", "openapi/testdata/petstore.yaml", "--openapi-base-url", base)
	if o.code != 0 || o.stdout != `{"id":7,"name":"doggie"}`+"\n" || strings.Count(o.stderr, "\n") != strings.Count(o.stderr, ": skipped ") {
		t.Errorf("getPetById: exit %d, stdout %q, stderr %q", o.code, o.stdout, o.stderr)
	}
	mu.Lock()
	if !slices.Equal(seen, []string{"GET /v3/pet/7"}) {
		t.Errorf("server saw %q, want GET /v3/pet/7", seen)
	}
	seen = nil
	mu.Unlock()

	// a wrongly typed argument is refused before any request is sent
	o = cli(t, "", "call", "getPetById", `{"petId":"seven"}`, "--openapi", "openapi/testdata/petstore.yaml", "--openapi-base-url", base)
	if o.code != 1 || !strings.HasSuffix(o.stderr, `invalid arguments for "getPetById": "petId" must be an integer, got a string`+"\n") || o.stdout != "" {
		t.Errorf("bad petId: exit %d, stdout %q, stderr %q", o.code, o.stdout, o.stderr)
	}
	mu.Lock()
	if len(seen) != 0 {
		t.Errorf("a request was sent for refused arguments: %q", seen)
	}
	mu.Unlock()
}

// serve offers the imported tools over MCP and they reach the API.
func TestServeOpenAPI(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.RequestURI())
		mu.Unlock()
		w.Write([]byte(`[]`))
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "serve", "--no-builtins", "--openapi", "openapi/testdata/petstore.yaml", "--openapi-base-url", srv.URL+"/v3")
	cmd.Dir = repoRoot
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 11 {
		t.Errorf("tools/list has %d tools, want 11", len(res.Tools))
	}
	if text, isErr := mcpCall(t, ctx, cs, "findPetsByStatus", `{"status":["sold"],"limit":2}`); text != "[]" || isErr {
		t.Errorf("findPetsByStatus = %q, %v", text, isErr)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(seen, []string{"GET /v3/pet/findByStatus?limit=2&status=sold"}) {
		t.Errorf("server saw %q", seen)
	}
}

// TestToolsRenameKeys: the petstore's header parameter X-Request-ID breaks
// Gemini's parameter name rule: tools --format gemini refuses it and says
// what to pass; with --rename-keys it is sent as X_Request_ID.
func TestToolsRenameKeys(t *testing.T) {
	o := cli(t, "", "tools", "--openapi", "openapi/testdata/petstore.yaml", "--no-builtins", "--format", "gemini")
	if o.code != 1 || !strings.Contains(o.stderr, `the property key "X-Request-ID" does not match ^[A-Za-z_][A-Za-z0-9_]{0,63}$`) ||
		!strings.Contains(o.stderr, "toolnexus tools: pass --rename-keys to send such keys renamed\n") {
		t.Errorf("exit %d, stderr %s", o.code, o.stderr)
	}
	o = cli(t, "", "tools", "--openapi", "openapi/testdata/petstore.yaml", "--no-builtins", "--format", "gemini", "--rename-keys")
	if o.code != 0 || !strings.Contains(o.stdout, `"X_Request_ID":`) || strings.Contains(o.stdout, `"X-Request-ID"`) {
		t.Errorf("exit %d, stdout %.300s, stderr %s", o.code, o.stdout, o.stderr)
	}
	o = cli(t, "", "tools", "--no-builtins", "--format", "mcp", "--rename-keys")
	if o.code != exitUsage || o.stderr != "toolnexus tools: --rename-keys applies to the anthropic and gemini formats, not \"mcp\"\n" {
		t.Errorf("exit %d, stderr %q", o.code, o.stderr)
	}
}
