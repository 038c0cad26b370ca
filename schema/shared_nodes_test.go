package schema

import (
	"sync"
	"testing"
)

// TestCompileBooleanSubschemasConcurrently: the schemas true and false are
// shared nodes; compiling documents that hold them (here concurrently, so
// the race detector sees a write) must not write to them. (an earlier
// fast path once stored its data in the shared true node.)
func TestCompileBooleanSubschemasConcurrently(t *testing.T) {
	doc := []byte(`{"type":"object","properties":{"a":true,"b":false,"c":{"items":true}},"additionalProperties":true}`)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				v, err := Compile(doc, nil)
				if err != nil {
					t.Error(err)
					return
				}
				if err := v.Validate([]byte(`{"a":1,"c":[1,"x"],"d":null}`)); err != nil {
					t.Error(err)
				}
				if err := v.Validate([]byte(`{"b":1}`)); err == nil {
					t.Error(`{"b":1} accepted; b is false`)
				}
			}
		}()
	}
	wg.Wait()
}
