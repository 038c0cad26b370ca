package toolnexus

import (
	"reflect"

	"github.com/go-playground/validator/v10"

	"github.com/toolnexus/toolnexus/internal/argtype"
)

func reflectTypeFor[T any]() reflect.Type { return reflect.TypeFor[T]() }

// typeInfoFor and validate give the tests the machinery behind typed tools.
func typeInfoFor(t reflect.Type) (*argtype.Info, error) { return typeInfo(t) }

// testValidator is a go-playground validator configured as typed tools
// configure theirs: the baseline of the benchmarks and the fuzz oracle.
var testValidator = validator.New(validator.WithRequiredStructEnabled())

func validate() *validator.Validate { return testValidator }

// forgetType clears the per-type cache of t, so the next NewTool with
// arguments t is cold again (BenchmarkNewToolCold).
func forgetType(t reflect.Type) { typeInfos.Delete(t) }
