package openapi

import (
	"os"
	"testing"
)

// FuzzImport: no document makes Import panic, and every tool it returns
// has an object schema.
func FuzzImport(f *testing.F) {
	if b, err := os.ReadFile("testdata/petstore.yaml"); err == nil {
		f.Add(b)
	}
	f.Add(generated(8))
	f.Add([]byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/a/{b}":{"parameters":[{"name":"b","in":"path","required":true}],"get":{"requestBody":{"content":{}}}}}}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		res, err := Import(doc, &Options{BaseURL: "https://api.example.test"})
		if err != nil {
			return
		}
		for _, tl := range res.Tools {
			if len(tl.InputSchema) == 0 || tl.InputSchema[0] != '{' || tl.Handler == nil {
				t.Fatalf("tool %q: schema %s", tl.Name, tl.InputSchema)
			}
		}
	})
}
