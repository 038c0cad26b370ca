package codemode

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// removed are globals a program has no use for that allocate at once
// whatever length they are given (typed arrays), or watch the collector.
var removed = []string{"ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Uint8Array",
	"Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array",
	"Float64Array", "BigInt64Array", "BigUint64Array", "BigInt", "WeakRef", "FinalizationRegistry"}

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

	tooLong := func(what string, n float64) {
		if n > MaxLength {
			panic(r.newError("RangeError", fmt.Sprintf("%s of %s elements is over the sandbox's limit of %d", what, strconv.FormatFloat(n, 'f', -1, 64), MaxLength)))
		}
	}
	arrayLength := func(what string, v goja.Value) {
		if o, ok := v.(*goja.Object); ok {
			if n := o.Get("length"); n != nil {
				tooLong(what, n.ToFloat())
			}
		}
	}
	stringLength := func(n float64) {
		if n > MaxStringLength {
			panic(r.newError("RangeError", fmt.Sprintf("a string of %s characters is over the sandbox's limit of %d", strconv.FormatFloat(n, 'f', -1, 64), MaxStringLength)))
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
	// join, and the string methods whose result can be much longer than
	// their input, are refused when the result could pass MaxStringLength
	// (or split's, MaxLength).
	strLen := func(v goja.Value) float64 {
		if goja.IsString(v) {
			return float64(len(v.String()))
		}
		return 32 // a number, a boolean, an object's default String
	}
	r.guard(proto, "join", func(this goja.Value, args []goja.Value) {
		arrayLength("an array", this)
		o, ok := this.(*goja.Object)
		if !ok {
			return
		}
		n := int(o.Get("length").ToInteger())
		sep := 1.0
		if a := arg(args, 0); !goja.IsUndefined(a) {
			sep = strLen(a)
		}
		total := sep * float64(n)
		for i := 0; i < n; i++ {
			total += strLen(o.Get(fmt.Sprint(i)))
		}
		stringLength(total)
	})
	sproto := vm.Get("String").ToObject(vm).Get("prototype").ToObject(vm)
	r.guard(sproto, "concat", func(this goja.Value, args []goja.Value) {
		total := float64(len(this.String()))
		for _, a := range args {
			total += strLen(a)
		}
		stringLength(total)
	})
	for _, name := range []string{"replace", "replaceAll"} {
		r.guard(sproto, name, func(this goja.Value, args []goja.Value) {
			n := float64(len(this.String()))
			if repl := arg(args, 1); goja.IsString(repl) {
				stringLength(n + (n+1)*float64(len(repl.String())))
			}
		})
	}
	r.guard(sproto, "split", func(this goja.Value, args []goja.Value) {
		n := float64(len(this.String()))
		if sep := arg(args, 0); goja.IsString(sep) && len(sep.String()) > 1 {
			n /= float64(len(sep.String()))
		}
		if n > MaxLength {
			panic(r.newError("RangeError", fmt.Sprintf("splitting a string of %d characters could make more elements than the sandbox's limit of %d", len(this.String()), MaxLength)))
		}
	})
	r.guard(sproto, "repeat", func(this goja.Value, args []goja.Value) {
		stringLength(arg(args, 0).ToFloat() * float64(len(this.String())))
	})
	for _, name := range []string{"padStart", "padEnd"} {
		r.guard(sproto, name, func(_ goja.Value, args []goja.Value) { stringLength(arg(args, 0).ToFloat()) })
	}
	// lengthArg checks new Array(n)'s one argument when it is a length
	// (a number; anything else becomes the one element).
	lengthArg := func(v goja.Value) {
		if _, isObject := v.(*goja.Object); isObject || goja.IsString(v) {
			return
		}
		tooLong("an array", v.ToFloat())
	}
	// new Array(n) and Array(n): the one way to get a long array at once
	// besides setting length, which the guarded methods then refuse.
	construct, _ := goja.AssertConstructor(array)
	call, _ := goja.AssertFunction(array)
	safe := vm.NewProxy(array, &goja.ProxyTrapConfig{
		Apply: func(_ *goja.Object, this goja.Value, args []goja.Value) goja.Value {
			if len(args) == 1 {
				lengthArg(args[0])
			}
			v, err := call(this, args...)
			if err != nil {
				panic(err)
			}
			return v
		},
		Construct: func(_ *goja.Object, args []goja.Value, newTarget *goja.Object) *goja.Object {
			if len(args) == 1 {
				lengthArg(args[0])
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

// MaxNesting is the deepest nesting of brackets ((, [, {, and ${ in
// templates) a program's source may have: goja's parser recurses once
// per level, without a bound of its own.
const MaxNesting = 200

// checkSource refuses, before goja parses it, a program nested deeper
// than MaxNesting and one with a BigInt literal (BigInt arithmetic
// allocates natively, past any limit: 1n << 40000000000n). It skips
// strings, templates' text, comments and regular expressions' bodies as
// a tokenizer would, roughly: a regular expression is told from a
// division by what comes before it.
func checkSource(code string) error {
	var stack []byte // open brackets; '`' for a template's text
	prev := byte(0)  // the last significant character, for regexps
	for i := 0; i < len(code); i++ {
		c := code[i]
		if len(stack) > 0 && stack[len(stack)-1] == '`' {
			switch {
			case c == '\\':
				i++
			case c == '`':
				stack = stack[:len(stack)-1]
				prev = 'a'
			case c == '$' && i+1 < len(code) && code[i+1] == '{':
				i++
				stack = append(stack, '{')
			}
			continue
		}
		switch {
		case c == '"' || c == '\'':
			for i++; i < len(code) && code[i] != c && code[i] != '\n'; i++ {
				if code[i] == '\\' {
					i++
				}
			}
			prev = 'a'
			continue
		case c == '`':
			stack = append(stack, '`')
		case c == '/' && i+1 < len(code) && code[i+1] == '/':
			for i < len(code) && code[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(code) && code[i+1] == '*':
			end := strings.Index(code[i+2:], "*/")
			if end < 0 {
				return nil // goja reports the unclosed comment
			}
			i += end + 3
			continue
		case c == '/' && !strings.ContainsRune(")]}abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$", rune(prev)):
			inClass := false
			for i++; i < len(code) && code[i] != '\n'; i++ {
				if code[i] == '\\' {
					i++
				} else if code[i] == '[' {
					inClass = true
				} else if code[i] == ']' {
					inClass = false
				} else if code[i] == '/' && !inClass {
					break
				}
			}
			prev = 'a'
			continue
		case c == '(' || c == '[' || c == '{':
			stack = append(stack, c)
		case c == ')' || c == ']' || c == '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case c >= '0' && c <= '9' && !isIdentByte(prev):
			j := i
			for j < len(code) && (isIdentByte(code[j]) || code[j] == '.') {
				j++
			}
			if code[j-1] == 'n' && !strings.ContainsAny(code[i:j], ".eE") || code[j-1] == 'n' && strings.HasPrefix(code[i:j], "0x") {
				return fmt.Errorf("%s: BigInt is not available in the sandbox", code[i:j])
			}
			i = j - 1
			prev = '0'
			continue
		}
		if len(stack) > MaxNesting {
			return fmt.Errorf("the program nests brackets more than %d deep", MaxNesting)
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			prev = c
		}
	}
	return nil
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
