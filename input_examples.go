package toolnexus

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// inputExamplesMethod is the name of the method an argument type may have
// to give its tool example inputs (see [Tool.InputExamples]).
const inputExamplesMethod = "InputExamples"

// inputExamples returns the example inputs of h's argument type: the
// values its InputExamples method returns, each marshalled with
// encoding/json and checked as a call's arguments are (compiled schema,
// then validate rules), or nil when the type has no such method. A
// method with another signature, a panic in it, or an example that fails
// to marshal, is not a JSON object (a nil pointer) or fails the checks is
// an error naming the tool, the
// example's index and the problem.
func inputExamples[A any](h *typedHandler[A]) ([]json.RawMessage, error) {
	t := reflect.TypeFor[A]()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	em := examplesMethodOf(t)
	if em == nil {
		return nil, nil
	}
	m, recv := em.m, reflect.Zero(t)
	if em.ptr {
		recv = reflect.New(t)
	}
	prefix := fmt.Sprintf("toolnexus: tool %q: method %s.%s", h.name, t, inputExamplesMethod)
	mt := m.Type // with the receiver as first argument
	if mt.NumIn() != 1 || mt.NumOut() != 1 || (mt.Out(0) != reflect.SliceOf(t) && mt.Out(0) != reflect.SliceOf(reflect.PointerTo(t))) {
		sig := strings.TrimPrefix(mt.String(), "func("+mt.In(0).String())
		return nil, fmt.Errorf("%s: must be func() []%s, is func(%s", prefix, t, strings.TrimPrefix(sig, ", "))
	}
	list, err := callExamples(m.Func, recv)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", prefix, err)
	}
	if list.Len() == 0 {
		return nil, nil
	}
	check := &typedHandler[A]{name: h.name, info: h.info, elem: h.elem,
		fn: func(context.Context, A) Result { return Result{} }}
	out := make([]json.RawMessage, list.Len())
	for i := range out {
		b, err := json.Marshal(list.Index(i).Interface())
		if err != nil {
			return nil, fmt.Errorf("toolnexus: tool %q: input example %d: %v", h.name, i, err)
		}
		if b[0] != '{' { // a nil *A (null), or a MarshalJSON of another kind: a call would read null as {}
			return nil, fmt.Errorf("toolnexus: tool %q: input example %d (%.64s) is not a JSON object", h.name, i, b)
		}
		if r := check.Call(context.Background(), b); r.IsError {
			return nil, fmt.Errorf("toolnexus: tool %q: input example %d (%s) is refused: %s", h.name, i, b, r.Output)
		}
		out[i] = b
	}
	return out, nil
}

// examplesMethod is the InputExamples method of a struct type; ptr when
// its receiver is a pointer.
type examplesMethod struct {
	m   reflect.Method
	ptr bool
}

// examplesMethods caches examplesMethodOf: reflect.Type (a struct type)
// -> *examplesMethod (nil: none). A race only costs a second lookup.
var examplesMethods sync.Map

// examplesMethodOf returns the InputExamples method of t or *t, or nil.
func examplesMethodOf(t reflect.Type) *examplesMethod {
	if v, ok := examplesMethods.Load(t); ok {
		return v.(*examplesMethod)
	}
	var em *examplesMethod
	if m, ok := t.MethodByName(inputExamplesMethod); ok {
		em = &examplesMethod{m: m}
	} else if m, ok := reflect.PointerTo(t).MethodByName(inputExamplesMethod); ok {
		em = &examplesMethod{m: m, ptr: true}
	}
	examplesMethods.Store(t, em)
	return em
}

// callExamples calls fn(recv) and returns the slice it returned, or an
// error when it panicked.
func callExamples(fn, recv reflect.Value) (list reflect.Value, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panicked: %v", v)
		}
	}()
	return fn.Call([]reflect.Value{recv})[0], nil
}
