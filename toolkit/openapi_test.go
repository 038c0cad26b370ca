package toolkit

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestBuildOpenAPI(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.URL.RequestURI())
		io.WriteString(w, "pet 7")
	}))
	defer srv.Close()
	tk, err := Build(t.Context(), &Config{NoBuiltins: true, OpenAPI: []string{"../openapi/testdata/petstore.yaml"}, OpenAPIBaseURL: srv.URL + "/v3"})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if n := len(tk.Tools()); n != 11 {
		t.Errorf("%d tools, want 11", n)
	}
	reports := tk.OpenAPI()
	if len(reports) != 1 || reports[0].Document != "../openapi/testdata/petstore.yaml" || len(reports[0].Skipped) != 3 || len(reports[0].Notes) != 1 {
		t.Errorf("reports %+v", reports)
	}
	res := tk.Execute(t.Context(), "getPetById", json.RawMessage(`{"petId":7}`))
	if res.IsError || res.Output != "pet 7" || strings.Join(got, ",") != "GET /v3/pet/7" {
		t.Errorf("getPetById: %+v, server saw %v", res, got)
	}

	// a missing document is a Build error
	if _, err := Build(t.Context(), &Config{NoBuiltins: true, OpenAPI: []string{"no-such.yaml"}}); err == nil ||
		!strings.HasPrefix(err.Error(), "openapi: open no-such.yaml") {
		t.Errorf("missing document: %v", err)
	}
}
