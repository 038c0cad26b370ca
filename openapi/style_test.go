package openapi

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus/httptool"
)

const styledDoc = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{
 "/items/{ids}/{coords}":{"get":{"operationId":"find","parameters":[
  {"name":"ids","in":"path","required":true,"style":"label","explode":true,"schema":{"type":"array","items":{"type":"integer"}}},
  {"name":"coords","in":"path","required":true,"style":"matrix","schema":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}}},
  {"name":"tags","in":"query","style":"pipeDelimited","explode":false,"schema":{"type":"array","items":{"type":"string"}}},
  {"name":"filter","in":"query","style":"deepObject","explode":true,"schema":{"type":"object","properties":{"status":{"type":"string"},"owner":{"type":"string"}}}},
  {"name":"page","in":"query","schema":{"type":"object","properties":{"size":{"type":"integer"}}}},
  {"name":"X-Ids","in":"header","schema":{"type":"array","items":{"type":"integer"}}}],
  "responses":{"200":{"description":"ok"}}}},
 "/bad":{"get":{"operationId":"bad","parameters":[{"name":"q","in":"header","style":"form","schema":{"type":"string"}}],
  "responses":{"200":{"description":"ok"}}}}}}`

// TestParameterStyles: arrays and objects in path, query and header
// parameters are sent as the document's style and explode say; a style the
// location does not take skips the operation with the reason.
func TestParameterStyles(t *testing.T) {
	srv, arrivals := standIn(t)
	u, _ := url.Parse(srv.URL)
	res, err := Import([]byte(styledDoc), &Options{BaseURL: srv.URL, HTTP: &httptool.Options{AllowHosts: []string{u.Hostname()}}})
	require.NoError(t, err)
	require.Len(t, res.Tools, 1)
	assert.Equal(t, []string{`bad: httptool "bad": Params: "q": style "form" does not apply to a header parameter (want one of simple)`}, skipReasons(res))
	r := res.Tools[0].Handler.Call(t.Context(), json.RawMessage(
		`{"ids":[3,4,5],"coords":{"x":1,"y":2},"tags":["a","b"],"filter":{"status":"open","owner":"ann"},"page":{"size":10},"X-Ids":[7,8]}`))
	require.False(t, r.IsError, r.Output)
	got := arrivals()
	require.Len(t, got, 1)
	uri, err := url.PathUnescape(got[0].uri)
	require.NoError(t, err)
	assert.Equal(t, "/items/.3.4.5/;coords=x,1,y,2?filter[owner]=ann&filter[status]=open&size=10&tags=a|b", uri)
	assert.Equal(t, "7,8", got[0].header.Get("X-Ids"))
}

// TestPetstoreExpandedTags: the official petstore-expanded document's
// "tags" query parameter (style form, explode by default) repeats its key.
func TestPetstoreExpandedTags(t *testing.T) {
	srv, arrivals := standIn(t)
	u, _ := url.Parse(srv.URL)
	res, err := ImportFile(t.Context(), filepath.Join(sharedDir(t), "petstore-expanded.yaml"),
		&Options{BaseURL: srv.URL, HTTP: &httptool.Options{AllowHosts: []string{u.Hostname()}}})
	require.NoError(t, err)
	for _, tl := range res.Tools {
		if tl.Name == "findPets" {
			r := tl.Handler.Call(t.Context(), json.RawMessage(`{"tags":["cat","dog"],"limit":2}`))
			require.False(t, r.IsError, r.Output)
			assert.Equal(t, "/pets?limit=2&tags=cat&tags=dog", arrivals()[0].uri)
			return
		}
	}
	t.Fatal("findPets not imported")
}

func skipReasons(res *Result) []string {
	var out []string
	for _, s := range res.Skipped {
		out = append(out, s.ID+": "+s.Reason)
	}
	return out
}
