package schema

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const weather = `{"type":"object","properties":{
	"city":{"type":"string","minLength":2,"maxLength":40},
	"days":{"type":"integer","minimum":1,"maximum":14},
	"unit":{"type":"string","enum":["celsius","fahrenheit"]}},
	"required":["city"],"additionalProperties":false}`

func mustCompile(t testing.TB, schema string, opts *Options) *Validator {
	t.Helper()
	v, err := Compile([]byte(schema), opts)
	require.NoError(t, err, "Compile(%s)", schema)
	return v
}

// problems returns Validate's problems (nil when the instance is valid).
func problems(t testing.TB, v *Validator, instance string) []Problem {
	t.Helper()
	err := v.Validate([]byte(instance))
	if err == nil {
		return nil
	}
	var ve *ValidationError
	require.ErrorAs(t, err, &ve, "Validate(%s) = %T %v, want *ValidationError", instance, err, err)
	require.False(t, ve.Error() == "", "empty error text")
	return ve.Problems
}

func TestConcurrent(t *testing.T) {
	v := mustCompile(t, weather, nil)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				if err := v.Validate([]byte(`{"city":"Paris","days":3}`)); !assert.NoError(t, err) {
					return
				}
				ps := problems(t, v, `{"days":15}`)
				if !assert.Len(t, ps, 2, "got %+v", ps) {
					return
				}
			}
		}()
	}
	wg.Wait()
}
