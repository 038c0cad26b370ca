package toolnexus

import (
	"errors"
	"fmt"
	"strings"

	jschema "github.com/toolnexus/toolnexus/schema"
)

// ruleNames maps the engine's keywords to the ArgumentError.Rule names
// Execute has always used (validator's words where they exist).
var ruleNames = map[string]string{
	"enum":                 "oneof",
	"minimum":              "min",
	"maximum":              "max",
	"exclusiveMinimum":     "gt",
	"exclusiveMaximum":     "lt",
	"minLength":            "min",
	"maxLength":            "max",
	"minItems":             "min",
	"maxItems":             "max",
	"minProperties":        "min",
	"maxProperties":        "max",
	"additionalProperties": "unknown",
	"duplicateKey":         "duplicate",
	"uniqueItems":          "unique",
}

// problemErrors maps the engine's problems to ArgumentErrors (at most
// maxProblems). fatal reports a problem that stops everything else
// (malformed JSON, too deep, too complex).
func problemErrors(tool string, err error) (errs []*ArgumentError, fatal bool) {
	var ve *jschema.ValidationError
	if !errors.As(err, &ve) {
		return []*ArgumentError{{Tool: tool, Rule: "schema", Msg: "arguments could not be checked: " + cutText(err.Error())}}, true
	}
	errs = make([]*ArgumentError, 0, min(len(ve.Problems), maxProblems))
	for _, p := range ve.Problems {
		if len(errs) == maxProblems {
			break
		}
		rule := p.Keyword
		if r, ok := ruleNames[rule]; ok {
			rule = r
		}
		if (rule == "min" || rule == "max") && strings.Contains(p.Message, " must have exactly ") {
			rule = "len"
		}
		switch p.Keyword {
		case "syntax", "depth", "complexity":
			fatal = true
		}
		errs = append(errs, &ArgumentError{Tool: tool, Path: p.Path, Rule: rule, Param: p.Param, Msg: p.Message})
	}
	return errs, fatal
}

// diagnose explains, with the decoder's tables, what encoding/json refuses
// and the engine does not see (a Go integer range, a base64 or text form),
// and gives problems at a value with a text form (netip.Addr, big.Rat, ...)
// that form's words. rewritten is args with integral numbers written with
// a fraction or exponent rewritten as plain integers, when the decoder
// found nothing else wrong; nil otherwise.
func diagnose(tool string, args []byte, spec *valSpec, engine []*ArgumentError) (errs []*ArgumentError, rewritten []byte) {
	sc := scanner{data: args, tool: tool}
	sc.top(spec)
	errs = make([]*ArgumentError, 0, len(engine)+len(sc.errs))
	for _, e := range engine {
		if d := problemAt(sc.errs, e.Path); d != nil {
			e = d
		} else if vs := specAt(spec, e.Path); vs != nil && vs.want != "" {
			{
				e = &ArgumentError{Tool: tool, Path: e.Path, Rule: "format", Param: vs.want,
					Msg: fmt.Sprintf("%q must be %s", e.Path, vs.want)}
			}
		}
		errs = append(errs, e)
	}
	errs = mergeProblems(errs, sc.errs)
	if len(sc.errs) == 0 && len(sc.rewrites) > 0 {
		rewritten = applyRewrites(args, sc.rewrites)
	}
	return errs, rewritten
}

// problemAt returns the decoder's type or text-form problem at
// path, whose words know the Go type; nil if there is none.
func problemAt(errs []*ArgumentError, path string) *ArgumentError {
	for _, e := range errs {
		if e.Path == path && (e.Rule == "type" || e.Rule == "format") {
			return e
		}
	}
	return nil
}

// syntaxErrors words malformed arguments as Execute always has (the
// decoder's scanner tells "not JSON" from "not one object"); engine is the
// engine's problem, kept when the scanner finds none.
func syntaxErrors(tool string, args []byte, engine []*ArgumentError) []*ArgumentError {
	sc := scanner{data: args, tool: tool}
	sc.top(rawObjectSpec)
	if len(sc.errs) > 0 && sc.errs[0].Rule == "syntax" {
		return sc.errs[:1]
	}
	return engine
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
			i, ok := vs.obj.index[key]
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
