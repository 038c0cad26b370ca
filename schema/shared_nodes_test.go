package schema

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCompileBooleanSubschemasConcurrently: the schemas true and false are
// shared nodes; compiling documents that hold them (here concurrently, so
// the race detector sees a write) must not write to them. An earlier
// fast path once stored its data in the shared true node.
func TestCompileBooleanSubschemasConcurrently(t *testing.T) {
	doc := []byte(`{"type":"object","properties":{"a":true,"b":false,"c":{"items":true}},"additionalProperties":true}`)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				v, err := Compile(doc, nil)
				if !assert.NoError(t, err) {
					return
				}
				assert.NoError(t, v.Validate([]byte(`{"a":1,"c":[1,"x"],"d":null}`)))
				err = v.Validate([]byte(`{"b":1}`))
				assert.Error(t, err, `{"b":1} accepted; b is false`)
			}
		}()
	}
	wg.Wait()
}
