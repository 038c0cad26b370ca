package toolnexus

import (
	"reflect"

	"github.com/go-playground/validator/v10"

	"github.com/toolnexus/toolnexus/internal/argtype"
)

func reflectTypeFor[T any]() reflect.Type { return reflect.TypeFor[T]() }

// typeInfoFor and validate give the tests the machinery behind typed tools.
func typeInfoFor(t reflect.Type) (*argtype.Info, error) { return argtype.For(t) }
func validate() *validator.Validate                     { return argtype.Validator() }

// forgetType clears the per-type cache of t, so the next NewTool with
// arguments t is cold again (BenchmarkNewToolCold).
func forgetType(t reflect.Type) { argtype.Forget(t) }

// Every argument type the tests register is built a second time with
// invopop reflecting it, and a schema or error that differs from our own
// reflection's panics (argtype.VerifyOwnReflect).
func init() { argtype.VerifyOwnReflect(true) }

// verifyOwnReflect turns that check off for benchmarks of cold registration.
func verifyOwnReflect(on bool) { argtype.VerifyOwnReflect(on) }
