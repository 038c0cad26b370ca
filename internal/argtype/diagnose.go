package argtype

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"
)

// decodeError turns an encoding/json error that neither the engine nor
// the decoder's tables explained into a model-facing problem without Go
// type, package or method names.
func decodeError(err error) *Problem {
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		path := ute.Field
		what := "a valid value"
		switch ute.Type.Kind() {
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
			what = fmt.Sprintf("an integer between %d and %d", minInt(ute.Type.Bits()), maxInt(ute.Type.Bits()))
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint, reflect.Uintptr:
			what = fmt.Sprintf("an integer between 0 and %d", maxUint(ute.Type.Bits()))
		case reflect.Float32, reflect.Float64:
			what = "a number in range"
		}
		return &Problem{Path: path, Rule: "range",
			Msg: fmt.Sprintf("%q must be %s, got %s", path, what, cutText(ute.Value))}
	}
	return &Problem{Rule: "decode", Msg: "arguments could not be decoded: " + cutText(stripGo(err.Error()))}
}

// stripGo removes the "json: " prefix and Go type names from an
// encoding/json error text.
func stripGo(s string) string {
	s = strings.TrimPrefix(s, "json: ")
	if i := strings.Index(s, " of type "); i >= 0 {
		s = s[:i]
	}
	return s
}

var (
	validatorOnce sync.Once
	validatorInst *validator.Validate
)

// diagnose explains, with the decoder's tables, what encoding/json refuses
// and the engine does not see (a Go integer range, a base64 or text form),
// and gives problems at a value with a text form (netip.Addr, big.Rat, ...)
// that form's words. rewritten is args with integral numbers written with
// a fraction or exponent rewritten as plain integers, when the decoder
// found nothing else wrong; nil otherwise.
func diagnose(args []byte, spec *valSpec, engine []*Problem) (errs []*Problem, rewritten []byte) {
	sc := scanner{data: args}
	sc.top(spec)
	errs = make([]*Problem, 0, len(engine)+len(sc.errs))
	for _, e := range engine {
		if d := problemAt(sc.errs, e.Path); d != nil {
			e = d
		} else if vs := specAt(spec, e.Path); vs != nil && vs.want != "" {
			{
				e = &Problem{Path: e.Path, Rule: "format", Param: vs.want,
					Msg: fmt.Sprintf("%q must be %s", e.Path, vs.want)}
			}
		}
		errs = append(errs, e)
	}
	errs = Merge(errs, sc.errs)
	if len(sc.errs) == 0 && len(sc.rewrites) > 0 {
		rewritten = applyRewrites(args, sc.rewrites)
	}
	return errs, rewritten
}

// problemAt returns the decoder's type or text-form problem at
// path, whose words know the Go type; nil if there is none.
func problemAt(errs []*Problem, path string) *Problem {
	for _, e := range errs {
		if e.Path == path && (e.Rule == "type" || e.Rule == "format") {
			return e
		}
	}
	return nil
}

func applyRewrites(args []byte, rw []rewrite) []byte {
	out := make([]byte, 0, len(args))
	at := 0
	for _, r := range rw {
		out = append(out, args[at:r.start]...)
		out = append(out, r.text...)
		at = r.end
	}
	return append(out, args[at:]...)
}

// specAt returns the decoder's spec for the value at a JSON path
// ("stops[2].city", "counts.ab"), or nil.
func specAt(vs *valSpec, path string) *valSpec {
	for path != "" && vs != nil {
		switch {
		case path[0] == '[':
			end := strings.IndexByte(path, ']')
			if end < 0 || vs.kind != kArray {
				return nil
			}
			vs, path = vs.elem, path[end+1:]
			continue
		case path[0] == '.':
			path = path[1:]
			continue
		}
		end := strings.IndexAny(path, ".[")
		if end < 0 {
			end = len(path)
		}
		key := path[:end]
		path = path[end:]
		switch vs.kind {
		case kObject:
			i, ok := vs.obj.lookup([]byte(key))
			if !ok {
				return nil
			}
			vs = vs.obj.fields[i].val
		case kMap:
			vs = vs.elem
		default:
			return nil
		}
	}
	return vs
}

// Merge appends the problems of more whose path first does not already
// report, up to MaxProblems, and returns the extended first.
func Merge(first, more []*Problem) []*Problem {
	for _, v := range more {
		dup := false
		for _, c := range first {
			if c.Path == v.Path {
				dup = true
				break
			}
		}
		if !dup && len(first) < MaxProblems {
			first = append(first, v)
		}
	}
	return first
}
