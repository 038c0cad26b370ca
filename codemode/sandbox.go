package codemode

import (
	"fmt"

	"github.com/dop251/goja"
)

// removed are globals a program has no use for that allocate at once
// whatever length they are given (typed arrays), or watch the collector.
var removed = []string{"ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Uint8Array",
	"Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array",
	"Float64Array", "BigInt64Array", "BigUint64Array", "WeakRef", "FinalizationRegistry"}

// arrayMethods are the Array.prototype methods guarded by MaxLength: each
// of them can loop natively over every index up to this.length.
var arrayMethods = []string{"at", "concat", "copyWithin", "entries", "every", "fill", "filter", "find",
	"findIndex", "findLast", "findLastIndex", "flat", "flatMap", "forEach", "includes", "indexOf", "join",
	"keys", "lastIndexOf", "map", "pop", "push", "reduce", "reduceRight", "reverse", "shift", "slice",
	"some", "sort", "splice", "toLocaleString", "toReversed", "toSorted", "toSpliced", "toString",
	"unshift", "values", "with"}

// setupSandbox makes vm's globals what a program may use: console (into
// r.print), length checks on the built-ins that loop natively (where an
// interrupt cannot stop them), and none of removed.
func (r *run) setupSandbox() error {
	vm := r.vm
	g := vm.GlobalObject()
	for _, name := range removed {
		if err := g.Delete(name); err != nil {
			return err
		}
	}
	jsonObj := vm.Get("JSON").ToObject(vm)

	console := vm.NewObject()
	logf := func(call goja.FunctionCall) goja.Value {
		line := make([]byte, 0, 64)
		for i, a := range call.Arguments {
			if i > 0 {
				line = append(line, ' ')
			}
			line = append(line, r.format(a)...)
		}
		r.print(string(line))
		return goja.Undefined()
	}
	for _, name := range []string{"log", "info", "debug", "warn", "error"} {
		if err := console.Set(name, logf); err != nil {
			return err
		}
	}
	if err := g.Set("console", console); err != nil {
		return err
	}

	arrayLength := func(what string, v goja.Value) {
		o, ok := v.(*goja.Object)
		if !ok {
			return
		}
		if n := o.Get("length"); n != nil && n.ToFloat() > MaxLength {
			panic(r.rangeError(fmt.Sprintf("%s of %v elements is over the sandbox's limit of %d", what, n, MaxLength)))
		}
	}
	array := vm.Get("Array").ToObject(vm)
	proto := array.Get("prototype").ToObject(vm)
	for _, name := range arrayMethods {
		r.guard(proto, name, func(this goja.Value, _ []goja.Value) { arrayLength("an array", this) })
	}
	r.guard(array, "from", func(_ goja.Value, args []goja.Value) { arrayLength("an array-like", arg(args, 0)) })
	r.guard(jsonObj, "stringify", func(_ goja.Value, args []goja.Value) { arrayLength("an array", arg(args, 0)) })
	object := vm.Get("Object").ToObject(vm)
	for _, name := range []string{"keys", "values", "entries", "assign", "fromEntries"} {
		r.guard(object, name, func(_ goja.Value, args []goja.Value) { arrayLength("an array", arg(args, 0)) })
	}
	stringLength := func(n float64) {
		if n > MaxStringLength {
			panic(r.rangeError(fmt.Sprintf("a string of %v characters is over the sandbox's limit of %d", n, MaxStringLength)))
		}
	}
	sproto := vm.Get("String").ToObject(vm).Get("prototype").ToObject(vm)
	r.guard(sproto, "repeat", func(this goja.Value, args []goja.Value) {
		stringLength(arg(args, 0).ToFloat() * float64(len(this.String())))
	})
	for _, name := range []string{"padStart", "padEnd"} {
		r.guard(sproto, name, func(_ goja.Value, args []goja.Value) { stringLength(arg(args, 0).ToFloat()) })
	}
	// new Array(n) and Array(n): the one way to get a long array at once
	// besides setting length, which the guarded methods then refuse.
	construct, _ := goja.AssertConstructor(array)
	call, _ := goja.AssertFunction(array)
	safe := vm.NewProxy(array, &goja.ProxyTrapConfig{
		Apply: func(_ *goja.Object, this goja.Value, args []goja.Value) goja.Value {
			if len(args) == 1 {
				arrayLength("an array", vm.ToValue(map[string]any{"length": args[0].Export()}))
			}
			v, err := call(this, args...)
			if err != nil {
				panic(err)
			}
			return v
		},
		Construct: func(_ *goja.Object, args []goja.Value, newTarget *goja.Object) *goja.Object {
			if len(args) == 1 {
				arrayLength("an array", vm.ToValue(map[string]any{"length": args[0].Export()}))
			}
			o, err := construct(nil, args...)
			if err != nil {
				panic(err)
			}
			return o
		},
	})
	r.stringify, _ = goja.AssertFunction(jsonObj.Get("stringify")) // guarded
	safeValue := vm.ToValue(safe)
	if err := proto.DefineDataProperty("constructor", safeValue, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	return g.Set("Array", safeValue)
}

// rangeError is a new RangeError with msg, to throw.
func (r *run) rangeError(msg string) *goja.Object {
	ctor, _ := goja.AssertConstructor(r.vm.Get("RangeError"))
	e, err := ctor(nil, r.vm.ToValue(msg))
	if err != nil {
		panic(err)
	}
	return e
}

func arg(args []goja.Value, i int) goja.Value {
	if i < len(args) {
		return args[i]
	}
	return goja.Undefined()
}

// guard replaces holder[name] with a function that runs check first (a
// check refuses by panicking with a JavaScript error).
func (r *run) guard(holder *goja.Object, name string, check func(this goja.Value, args []goja.Value)) {
	orig, ok := goja.AssertFunction(holder.Get(name))
	if !ok {
		return
	}
	f := func(call goja.FunctionCall) goja.Value {
		check(call.This, call.Arguments)
		v, err := orig(call.This, call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}
	_ = holder.DefineDataProperty(name, r.vm.ToValue(f), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// format is one console argument as text: strings as they are, errors as
// String(e) does, other values as JSON, or as String(v) where JSON cannot
// say them.
func (r *run) format(v goja.Value) string {
	if goja.IsString(v) {
		return v.String()
	}
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Error" {
		return v.String()
	}
	if s, err := r.stringify(goja.Undefined(), v); err == nil && !goja.IsUndefined(s) {
		return s.String()
	}
	return v.String()
}
