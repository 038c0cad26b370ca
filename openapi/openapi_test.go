package openapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/httptool"
	"github.com/toolnexus/toolnexus/render"
	"go.yaml.in/yaml/v3"
)

type arrival struct {
	method, uri, body string
	header            http.Header
}

// standIn is an httptest server for the API; it records every request.
func standIn(t *testing.T) (*httptest.Server, func() []arrival) {
	var mu sync.Mutex
	var got []arrival
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, arrival{r.Method, r.URL.RequestURI(), string(b), r.Header.Clone()})
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"done":true}`)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []arrival {
		mu.Lock()
		defer mu.Unlock()
		out := got
		got = nil
		return out
	}
}

func importPetstore(t *testing.T, base string) (map[string]toolnexus.Tool, *Result) {
	t.Helper()
	u, _ := url.Parse(base)
	env := map[string]string{"API_KEY": "k-123", "BEARERAUTH": "tok", "PET_BASIC": "ann:pw"}
	res, err := ImportFile(t.Context(), "testdata/petstore.yaml", &Options{
		BaseURL:     base,
		SecurityEnv: map[string]string{"basicAuth": "PET_BASIC"},
		HTTP:        &httptool.Options{AllowHosts: []string{u.Hostname()}, Getenv: func(k string) string { return env[k] }},
	})

	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]toolnexus.Tool{}
	for _, tl := range res.Tools {
		tools[tl.Name] = tl
	}
	return tools, res
}

func TestPetstoreRequests(t *testing.T) {
	srv, arrivals := standIn(t)
	tools, _ := importPetstore(t, srv.URL+"/v3")
	for _, c := range []struct {
		tool, args         string
		method, uri, body  string
		header, headerWant string
	}{
		{"getPetById", `{"petId":7}`, "GET", "/v3/pet/7", "", "Authorization", "Bearer tok"},
		{"findPetsByStatus", `{"status":["available","sold"],"limit":5,"X-Request-ID":"7d444840-9dc0-11d1-b245-5ffdce74fad2"}`,
			"GET", "/v3/pet/findByStatus?limit=5&status=available&status=sold", "", "X-Request-Id", "7d444840-9dc0-11d1-b245-5ffdce74fad2"},
		{"addPet", `{"body":{"id":1,"name":"Rex","tag":null,"category":{"name":"dogs","parent":null,"children":[{"name":"pups"}]}}}`,
			"POST", "/v3/pet", `{"id":1,"name":"Rex","tag":null,"category":{"name":"dogs","parent":null,"children":[{"name":"pups"}]}}`, "X-Api-Key", "k-123"},
		{"updatePetWithForm", `{"petId":3,"body":{"name":"Rex","status":"sold"}}`, "POST", "/v3/pet/3", "name=Rex&status=sold", "Content-Type", "application/x-www-form-urlencoded"},
		{"deletePet", `{"petId":3,"query_petId":"q","body":"b","request_body":{"reason":null}}`, "DELETE", "/v3/pet/3?body=b&petId=q", `{"reason":null}`,
			"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte("ann:pw"))},
		{"store_note", `{"body":"hello"}`, "POST", "/v3/store/note", "hello", "Content-Type", "text/plain"},
		{"put_store_payment", `{"body":{"method":{"kind":"card","number":"1234567812345678"}}}`, "PUT", "/v3/store/payment", `{"method":{"kind":"card","number":"1234567812345678"}}`, "", ""},
	} {
		res := tools[c.tool].Handler.Call(t.Context(), json.RawMessage(c.args))
		got := arrivals()
		if res.IsError || res.Output != `{"done":true}` || len(got) != 1 {
			t.Errorf("%s: %+v, %d requests", c.tool, res, len(got))
			continue
		}
		a := got[0]
		if a.method != c.method || a.uri != c.uri || a.body != c.body || (c.header != "" && a.header.Get(c.header) != c.headerWant) {
			t.Errorf("%s arrived as %s %s %q %s=%q", c.tool, a.method, a.uri, a.body, c.header, a.header.Get(c.header))
		}
	}
}

// Arguments the document's schema refuses never reach the API, and the
// model is told what is wrong.
func TestPetstoreRefusedBeforeRequest(t *testing.T) {
	srv, arrivals := standIn(t)
	tools, _ := importPetstore(t, srv.URL)
	for _, c := range []struct{ tool, args, want string }{
		{"getPetById", `{"petId":"7"}`, `"petId" must be an integer, got a string`},
		{"getPetById", `{}`, `"petId" is required`},
		{"getPetById", `{"petId":7,"extra":1}`, `"extra"`},
		{"findPetsByStatus", `{"status":["lost"]}`, `"status[0]"`},
		{"findPetsByStatus", `{"limit":101}`, `"limit"`},
		{"findPetsByStatus", `{"X-Request-ID":"nope"}`, `must be a UUID`},
		{"addPet", `{"body":{"name":"Rex"}}`, `"body.id" is required`},
		{"addPet", `{"body":{"id":1,"name":"Rex","category":{"children":[{"parent":{}}]}}}`, `name`},
		{"put_store_payment", `{"body":{"method":{"kind":"card","iban":"DE00"}}}`, `"body.method"`},
		{"placeOrder", `{"body":{"quantity":0}}`, `"body.quantity"`},
		{"store_note", `{"body":"` + strings.Repeat("x", 201) + `"}`, `"body"`},
	} {
		res := tools[c.tool].Handler.Call(t.Context(), json.RawMessage(c.args))
		if n := len(arrivals()); !res.IsError || n != 0 || !strings.Contains(res.Output, c.want) {
			t.Errorf("%s %s: %q (%d requests), want an error containing %q", c.tool, c.args, res.Output, n, c.want)
		}
	}
}

func TestPetstoreReport(t *testing.T) {
	tools, res := importPetstore(t, "https://api.example.test")
	var skipped []string
	for _, s := range res.Skipped {
		skipped = append(skipped, s.String())
	}
	want := []string{
		"POST /pet/{petId}/uploadImage (uploadFile): request body media type multipart/form-data (multipart upload) is not supported",
		"GET /reports (getReport): request body media type application/pdf is not supported (want JSON, form or text/plain)",
		"GET /store/inventory: required cookie parameter \"session\": cookie parameters are not supported",
	}
	if !slices.Equal(skipped, want) {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(skipped, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(res.Notes, []string{`placeOrder: security scheme "oauth" (oauth2 ) is not supported: requests are sent without credentials`}) {
		t.Errorf("notes: %q", res.Notes)
	}
	if len(tools) != len(res.Tools) || len(res.Tools)+len(res.Skipped) != 14 {
		t.Errorf("%d tools and %d skipped for 14 operations", len(res.Tools), len(res.Skipped))
	}
	// a $ref cycle is kept as $defs
	var s struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(tools["getCategory_2"].InputSchema, &s); err != nil || string(s.Defs["Category"]) !=
		`{"properties":{"children":{"items":{"$ref":"#/$defs/Category"},"type":"array"},"name":{"type":"string"},"parent":{"anyOf":[{"$ref":"#/$defs/Category"},{"type":"null"}]}},"required":["name"],"type":"object"}` {
		t.Errorf("Category: %v %s", err, s.Defs["Category"])
	}
	if d := tools["findPetsByStatus"].Description; d != "Finds pets by status\n\nMultiple status values can be provided." {
		t.Errorf("description %q", d)
	}
	if a := tools["deletePet"].Annotations; a == nil || a.DestructiveHint == nil || !*a.DestructiveHint || a.ReadOnlyHint {
		t.Errorf("deletePet annotations %+v", a)
	}
}

func TestFilterPrefixAndNames(t *testing.T) {
	data, err := os.ReadFile("testdata/petstore.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Import(data, &Options{Prefix: "shop_", Filter: func(op Operation) bool {
		return slices.Contains(op.Tags, "store") && op.Method != "GET"
	}})

	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	if !slices.Equal(names, []string{"shop_store_note", "shop_placeOrder", "shop_put_store_payment"}) || len(res.Skipped) != 0 {
		t.Errorf("names %v, skipped %v", names, res.Skipped)
	}
	im := &importer{names: map[string]bool{}, opts: Options{}}
	long := strings.Repeat("x", 70)
	im.names[long[:64]] = true
	for _, c := range []struct{ method, path, id, want string }{
		{"GET", "/a/{b}/c", "", "get_a_b_c"},
		{"GET", "/a", "héllo wörld", "h_llo_w_rld"},
		{"GET", "/a", long, long[:62] + "_2"},
	} {
		if got := im.name(c.method, c.path, c.id); got != c.want {
			t.Errorf("name(%s %s %q) = %q, want %q", c.method, c.path, c.id, got, c.want)
		}
	}
}

func TestBaseURL(t *testing.T) {
	doc := func(servers string) []byte {
		return []byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},` + servers +
			`"paths":{"/x":{"get":{"operationId":"x","responses":{"200":{"description":"ok"}}}}}}`)
	}
	for _, c := range []struct {
		servers, location, base, want, err string
	}{
		{`"servers":[{"url":"{scheme}://api.test/{v}","variables":{"scheme":{"default":"https"},"v":{"default":"v2"}}}],`, "", "", "https://api.test/v2/x", ""},
		{`"servers":[{"url":"/api"}],`, "https://docs.test/spec/openapi.json", "", "https://docs.test/api/x", ""},
		{``, "https://docs.test/spec/openapi.json", "", "https://docs.test/x", ""},
		{`"servers":[{"url":"/api"}],`, "openapi.json", "", "", `openapi: the document's server URL "/api" is relative and the document was not read from a URL: set the base URL`},
		{`"servers":[{"url":"/api"}],`, "", "http://127.0.0.1:9/v1/", "http://127.0.0.1:9/v1/x", ""},
		{``, "", "/v1", "", `openapi: base URL "/v1": want an absolute http or https URL`},
	} {
		res, err := Import(doc(c.servers), &Options{Location: c.location, BaseURL: c.base})
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: error %v, want %q", c.servers, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.servers, err)
			continue
		}
		if h := res.Tools[0].Handler; h == nil {
			t.Fatal("no handler")
		}
		if got := reqURL(t, res.Tools[0]); got != c.want {
			t.Errorf("%s: URL %q, want %q", c.servers, got, c.want)
		}
	}
}

// reqURL runs the tool with a cancelled context: the error names the
// method and URL template ("GET https://... was cancelled").
func reqURL(t *testing.T, tl toolnexus.Tool) string {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res := tl.Handler.Call(ctx, json.RawMessage(`{}`))
	out := strings.TrimPrefix(res.Output, "GET ")
	i := strings.Index(out, " ")
	if i < 0 {
		t.Fatalf("unexpected output %q", res.Output)
	}
	return out[:i]
}

func TestImportErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{}}`, `openapi: version "": want 3.0 or 3.1`},
		{`openapi: [`, `openapi: `},
		{`{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"parameters":[{"name":"a","in":"query","schema":{"$ref":"other.yaml#/A"}}],"responses":{}}}}}`, `openapi: `},
	} {
		if _, err := Import([]byte(c.doc), &Options{BaseURL: "https://x.test"}); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Import(%.40s) = %v, want prefix %q", c.doc, err, c.want)
		}
	}
	if _, err := Load(t.Context(), "testdata/no-such.yaml"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of a missing file: %v", err)
	}
}

// sharedDir is ../shared/openapi beside the module root; the test is
// skipped when it is absent, and fails when CI=true.
func sharedDir(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "shared", "openapi")
	if _, err := os.Stat(filepath.Join(dir, "petstore.yaml")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and the shared OpenAPI documents are missing: %v", err)
		}
		t.Skipf("the official OpenAPI examples are not in %s (../shared/openapi beside the module root): %v", dir, err)
	}
	return dir
}

func TestOfficialExamples(t *testing.T) {
	dir := sharedDir(t)
	want := map[string]string{
		"petstore.yaml":          "listPets createPets showPetById",
		"petstore-expanded.yaml": "findPets addPet find_pet_by_id deletePet",
		"uspto.yaml":             "list-data-sets list-searchable-fields perform-search",
		"link-example.yaml":      "getRepositoriesByOwner getRepository getPullRequestsByRepository getPullRequestsById mergePullRequest getUserByName",
		"callback-example.yaml":  "post_streams",
		"api-with-examples.yaml": "listVersionsv2 getVersionDetailsv2",
	}
	for file, names := range want {
		// Location: three documents have no servers (so "/"), resolved
		// against where the document was published.
		res, err := ImportFile(t.Context(), filepath.Join(dir, file), &Options{Location: "https://docs.example.test/" + file})
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		var got []string
		for _, tl := range res.Tools {
			got = append(got, tl.Name)
		}
		if strings.Join(got, " ") != names || len(res.Skipped) != 0 {
			t.Errorf("%s: tools %v skipped %v, want %s", file, got, res.Skipped, names)
		}
		checkRenders(t, file, res.Tools)
		if file == "petstore-expanded.yaml" && !slices.Contains(res.Notes, "findPets: description cut at 1,024 bytes") {
			t.Errorf("%s: notes %q lack the cut description", file, res.Notes)
		}
	}
}

// checkRenders renders every tool for OpenAI strict (or records why it
// falls back) and for Gemini and Anthropic with RenameKeys (header
// parameters such as X-Request-ID break Gemini's key rule), which must
// succeed.
func checkRenders(t *testing.T, doc string, tools []toolnexus.Tool) (strict, fallback int) {
	t.Helper()
	for _, tl := range tools {
		one := []toolnexus.Tool{tl}
		if _, err := render.OpenAIStrict(one); err != nil {
			var se *render.SchemaError
			if !errors.As(err, &se) || se.Msg == "" {
				t.Errorf("%s %s: OpenAI strict failed without a reason: %v", doc, tl.Name, err)
			}
			t.Logf("%s %s: OpenAI strict falls back: %v", doc, tl.Name, err)
			fallback++
		} else {
			strict++
		}
		if _, err := render.GeminiWith(one, render.GeminiOptions{RenameKeys: true}); err != nil {
			t.Errorf("%s %s: Gemini: %v", doc, tl.Name, err)
		}
		if _, err := render.AnthropicWith(one, render.AnthropicOptions{RenameKeys: true}); err != nil {
			t.Errorf("%s %s: Anthropic: %v", doc, tl.Name, err)
		}
	}
	if _, err := render.OpenAIWith(tools, render.OpenAIOptions{Strict: true, Fallback: true}); err != nil {
		t.Errorf("%s: OpenAI strict with Fallback: %v", doc, err)
	}
	return strict, fallback
}

func TestPetstoreRenders(t *testing.T) {
	_, res := importPetstore(t, "https://api.example.test")
	strict, fallback := checkRenders(t, "petstore", res.Tools)
	if strict != 9 || fallback != 2 || len(res.Tools) != 11 {
		t.Errorf("strict %d, fallback %d of %d", strict, fallback, len(res.Tools))
	}
	t.Logf("OpenAI strict: %d tools, fallback with a reason: %d", strict, fallback)
}

// generated builds a document with n operations over n/4 resources, each
// with path, query and header parameters, a body with allOf, oneOf,
// nullable and a $ref cycle.
func generated(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"generated","version":"1"},"servers":[{"url":"https://api.example.test/v1"}],` +
		`"components":{"securitySchemes":{"key":{"type":"apiKey","in":"header","name":"X-Key"}},"schemas":{` +
		`"Node":{"type":"object","properties":{"name":{"type":"string"},"next":{"nullable":true,"allOf":[{"$ref":"#/components/schemas/Node"}]}}},`)
	for r := 0; r < n/4; r++ {
		fmt.Fprintf(&b, `"Item%d":{"allOf":[{"$ref":"#/components/schemas/Node"},{"type":"object","required":["kind"],"properties":{"kind":{"oneOf":[{"type":"string","enum":["a","b"]},{"type":"integer","minimum":0}]},"count":{"type":"integer","format":"int32","nullable":true}}}]},`, r)
	}
	b.WriteString(`"Last":{"type":"string"}}},"security":[{"key":[]}],"paths":{`)
	for r := 0; r < n/4; r++ {
		if r > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/items%d":{"get":{"operationId":"list%d","summary":"List items %d","parameters":[{"name":"limit","in":"query","schema":{"type":"integer","maximum":100}},{"name":"X-Trace","in":"header","schema":{"type":"string"}}],"responses":{"200":{"description":"ok"}}},`+
			`"post":{"operationId":"create%d","requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Item%d"}}}},"responses":{"201":{"description":"ok"}}}},`+
			`"/items%d/{id}":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"string"}}],"get":{"operationId":"get%d","responses":{"200":{"description":"ok"}}},`+
			`"delete":{"operationId":"delete%d","responses":{"204":{"description":"ok"}}}}`, r, r, r, r, r, r, r, r)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

func TestGeneratedThousand(t *testing.T) {
	res, err := Import(generated(1000), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1000 || len(res.Skipped) != 0 || len(res.Notes) != 0 {
		t.Fatalf("%d tools, skipped %v, notes %v", len(res.Tools), res.Skipped, res.Notes[:min(3, len(res.Notes))])
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(res.Tools...); err != nil {
		t.Fatal(err)
	}
	if strict, _ := checkRenders(t, "generated", res.Tools[:40]); strict != 30 {
		t.Errorf("generated: %d of 40 tools render strict, want 30 (the 10 create tools have allOf bodies)", strict)
	}
	bad := reg.Execute(t.Context(), "create3", json.RawMessage(`{"body":{"kind":true}}`))
	if !bad.IsError || !strings.Contains(bad.Output, `"body.kind"`) {
		t.Errorf("create3 with a bad kind: %q", bad.Output)
	}
}

func TestSchemaConversion(t *testing.T) {
	doc := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"x",
	"parameters":[{"name":"n","in":"query","description":"how many","schema":{"type":"integer","format":"int32","maximum":9}}],
	"requestBody":{"content":{"application/json":{"schema":{"type":"object","x-internal":true,"example":{"c":"red"},
	"discriminator":{"propertyName":"c"},"properties":{"c":{"type":"string","enum":["red","blue"],"nullable":true},
	"r":{"type":"number","format":"double","minimum":0,"exclusiveMinimum":true},"q":{"type":"integer","maximum":5,"exclusiveMaximum":false}}}}}},
	"responses":{"200":{"description":"ok"}}}}}}`
	res, err := Import([]byte(doc), &Options{BaseURL: "https://x.test"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"additionalProperties":false,"properties":{"body":{"properties":{"c":{"enum":["red","blue",null],"type":["string","null"]},` +
		`"q":{"maximum":5,"type":"integer"},"r":{"exclusiveMinimum":0,"type":"number"}},"type":"object"},` +
		`"n":{"description":"how many","maximum":9,"minimum":-2147483648,"type":"integer"}},"type":"object"}`
	if got := string(res.Tools[0].InputSchema); got != want || len(res.Notes) != 0 {
		t.Errorf("schema\n%s\nwant\n%s\nnotes %q", got, want, res.Notes)
	}
}

// The same document as YAML and as JSON (two parse paths) gives the same
// tools.
func TestYAMLAndJSONAgree(t *testing.T) {
	y, err := os.ReadFile("testdata/petstore.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(y, &v); err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	fromYAML, err1 := Import(y, &Options{})
	fromJSON, err2 := Import(j, &Options{})
	if err1 != nil || err2 != nil || len(fromYAML.Tools) != 11 || len(fromJSON.Tools) != 11 {
		t.Fatalf("%v %v", err1, err2)
	}
	for i, a := range fromYAML.Tools {
		b := fromJSON.Tools[i]
		if a.Name != b.Name || string(a.InputSchema) != string(b.InputSchema) || a.Description != b.Description {
			t.Errorf("tool %d: YAML %s %s\nJSON %s %s", i, a.Name, a.InputSchema, b.Name, b.InputSchema)
		}
	}
	if !slices.Equal(fromYAML.Notes, fromJSON.Notes) || len(fromYAML.Skipped) != len(fromJSON.Skipped) {
		t.Errorf("notes %q / %q, skipped %v / %v", fromYAML.Notes, fromJSON.Notes, fromYAML.Skipped, fromJSON.Skipped)
	}
}

// Import and ImportFile with nil Options are the zero Options; ImportFile
// leaves the caller's Options alone.
func TestImportNilOptions(t *testing.T) {
	path := filepath.Join("testdata", "petstore.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Import(data, &Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Import(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Tools) == 0 || len(got.Tools) != len(want.Tools) {
		t.Errorf("Import(nil) gave %d tools, Import(&Options{}) %d", len(got.Tools), len(want.Tools))
	}
	if _, err := ImportFile(context.Background(), path, nil); err != nil {
		t.Errorf("ImportFile(nil): %v", err)
	}
	opts := &Options{}
	if _, err := ImportFile(context.Background(), path, opts); err != nil || opts.Location != "" {
		t.Errorf("ImportFile changed opts.Location to %q (err %v)", opts.Location, err)
	}
}

// A parameter or request body whose $ref is cyclic has no value: the
// operation is skipped, naming the parameter and the cycle, instead of
// being imported without it. Other operations still import.
func TestCyclicRefSkipsOperation(t *testing.T) {
	for _, format := range []string{"json", "yaml"} {
		doc := map[string]any{"openapi": "3.0.3", "info": map[string]any{"title": "t", "version": "1"},
			"components": map[string]any{
				"parameters": map[string]any{
					"A":    map[string]any{"$ref": "#/components/parameters/B"},
					"B":    map[string]any{"$ref": "#/components/parameters/A"},
					"Self": map[string]any{"$ref": "#/components/parameters/Self"},
				},
				"requestBodies": map[string]any{"Loop": map[string]any{"$ref": "#/components/requestBodies/Loop"}},
			},
			"paths": map[string]any{
				"/a":    map[string]any{"get": op("getA", map[string]any{"$ref": "#/components/parameters/A"})},
				"/self": map[string]any{"parameters": []any{map[string]any{"$ref": "#/components/parameters/Self"}}, "get": op("getSelf")},
				"/body": map[string]any{"post": map[string]any{"operationId": "postBody", "requestBody": map[string]any{"$ref": "#/components/requestBodies/Loop"},
					"responses": map[string]any{"200": map[string]any{"description": "ok"}}}},
				"/ok": map[string]any{"get": op("getOK", map[string]any{"name": "q", "in": "query", "schema": map[string]any{"type": "string"}})},
			}}
		res, err := Import(encode(t, format, doc), &Options{BaseURL: "https://x.test"})
		require.NoError(t, err, format)
		require.Len(t, res.Tools, 1, format)
		assert.Equal(t, "getOK", res.Tools[0].Name, format)
		var skipped []string
		for _, s := range res.Skipped {
			skipped = append(skipped, s.String())
		}
		assert.Equal(t, []string{
			`GET /a (getA): parameter $ref "#/components/parameters/A" is cyclic: #/components/parameters/A -> #/components/parameters/B -> #/components/parameters/A`,
			`POST /body (postBody): request body $ref "#/components/requestBodies/Loop" is cyclic: #/components/requestBodies/Loop -> #/components/requestBodies/Loop`,
			`GET /self (getSelf): parameter $ref "#/components/parameters/Self" is cyclic: #/components/parameters/Self -> #/components/parameters/Self`,
		}, skipped, format)
	}
}

// op is a GET operation with an id and parameters, answering 200.
func op(id string, params ...any) map[string]any {
	return map[string]any{"operationId": id, "parameters": params, "responses": map[string]any{"200": map[string]any{"description": "ok"}}}
}

// refChainDoc is a document whose components of kind are n $refs in a
// chain, P0 -> P1 -> ... -> P(n-1), ending at P0 again when cyclic and at a
// query parameter otherwise, with m operations whose one parameter is a
// $ref to P0.
func refChainDoc(t *testing.T, format string, n, m int, cyclic bool) []byte {
	t.Helper()
	params := map[string]any{}
	for i := range n {
		params[fmt.Sprint("P", i)] = map[string]any{"$ref": fmt.Sprint("#/components/parameters/P", (i+1)%n)}
	}
	if !cyclic {
		params[fmt.Sprint("P", n-1)] = map[string]any{"name": "q", "in": "query", "schema": map[string]any{"type": "string"}}
	}
	paths := map[string]any{}
	for j := range m {
		paths[fmt.Sprint("/p", j)] = map[string]any{"get": op(fmt.Sprint("g", j), map[string]any{"$ref": "#/components/parameters/P0"})}
	}
	doc := map[string]any{"openapi": "3.0.3", "info": map[string]any{"title": "t", "version": "1"},
		"components": map[string]any{"parameters": params}, "paths": paths}
	return encode(t, format, doc)
}

// encode is doc as format, "json" or "yaml".
func encode(t *testing.T, format string, doc any) []byte {
	t.Helper()
	var data []byte
	var err error
	if format == "json" {
		data, err = json.Marshal(doc)
	} else {
		data, err = yaml.Marshal(doc)
	}
	require.NoError(t, err)
	return data
}

// A chain of more than 64 $refs from component to component, cyclic or
// not, is refused before the parser follows it (which it does from every
// component and every operation, at a cost growing with the chain's
// length times theirs: 3,000 links and 3,000 operations took 106 s and
// 13 GB); a shorter cycle skips each operation with a reason of bounded
// length, and a chain of 64 $refs (65 components) imports.
func TestLongRefChainRefused(t *testing.T) {
	for _, format := range []string{"json", "yaml"} {
		for _, cyclic := range []bool{true, false} {
			_, err := Import(refChainDoc(t, format, 3000, 300, cyclic), &Options{BaseURL: "https://x.test"})
			require.Error(t, err, format)
			assert.Regexp(t, `^openapi: \$ref "#/components/parameters/P\d+" starts a chain of more than 64 \$refs: #/components/parameters/P\d+ -> #/components/parameters/P\d+ -> #/components/parameters/P\d+ -> …$`, err.Error(), format)
		}
		_, err := Import(refChainDoc(t, format, 66, 1, false), &Options{BaseURL: "https://x.test"})
		assert.ErrorContains(t, err, "more than 64 $refs", format)

		res, err := Import(refChainDoc(t, format, 65, 3, false), &Options{BaseURL: "https://x.test"})
		require.NoError(t, err, format)
		assert.Len(t, res.Tools, 3, format)

		res, err = Import(refChainDoc(t, format, 64, 300, true), &Options{BaseURL: "https://x.test"})
		require.NoError(t, err, format)
		require.Len(t, res.Skipped, 300, format)
		total := 0
		for _, s := range res.Skipped {
			total += len(s.Reason)
		}
		assert.Equal(t, 300*len(res.Skipped[0].Reason), total, format)
		assert.Equal(t, `parameter $ref "#/components/parameters/P0" is cyclic: #/components/parameters/P0 -> #/components/parameters/P1 -> #/components/parameters/P2 -> … -> #/components/parameters/P0 (64 links)`,
			res.Skipped[0].Reason, format)
	}
}
