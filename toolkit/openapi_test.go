package toolkit

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuildOpenAPI(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.URL.RequestURI())
		io.WriteString(w, "pet 7")
	}))
	defer srv.Close()
	tk, err := Build(t.Context(), &Config{NoBuiltins: true, OpenAPI: []string{"../openapi/testdata/petstore.yaml"}, OpenAPIBaseURL: srv.URL + "/v3"})
	require.NoError(t, err)
	defer tk.Close()
	n := len(tk.Tools())
	assert.Equal(t, 11, n, "%d tools, want 11", n)
	reports := tk.OpenAPI()
	if assert.Len(t, reports, 1, "reports %+v", reports) {
		assert.Equal(t, "../openapi/testdata/petstore.yaml", reports[0].Document, "reports %+v", reports)
		if assert.Len(t, reports[0].Skipped, 3, "reports %+v", reports) {
			assert.Len(t, reports[0].Notes, 1, "reports %+v", reports)
		}
	}
	res := tk.Execute(t.Context(), "getPetById", json.RawMessage(`{"petId":7}`))
	assert.False(t, res.IsError, "getPetById: %+v, server saw %v", res, got)
	assert.Equal(t, "pet 7", res.Output, "getPetById: %+v, server saw %v", res, got)
	assert.Equal(t, "GET /v3/pet/7", strings.Join(got, ","), "getPetById: %+v, server saw %v", res, got)

	// a missing document is a Build error
	_, err = Build(t.Context(), &Config{NoBuiltins: true, OpenAPI: []string{"no-such.yaml"}})
	if assert.Error(t, err, "missing document: %v", err) {
		assert.True(t, strings.HasPrefix(err.Error(), "openapi: open no-such.yaml"), "missing document: %v", err)
	}
}
