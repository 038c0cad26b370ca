package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"
)

// typedMarker marks handlers that check their arguments themselves, so the
// Registry skips its own object check.
type typedMarker interface{ typedArgs() }

// NewTool builds a typed tool from a function. A is the arguments type: a
// struct or a pointer to a struct. Its JSON Schema is reflected once (and
// cached per type) from the struct's tags and compiled by package schema:
//
//   - json: property names; a field is required unless its json tag has
//     omitempty or omitzero (or its jsonschema tag says required, or its
//     validate tag starts with required)
//   - jsonschema, jsonschema_description, jsonschema_extras:
//     invopop/jsonschema keywords (description=, enum=, default=,
//     minimum=, pattern=, format=, const=, ...), and JSONSchema /
//     JSONSchemaExtend methods on the types
//   - validate: go-playground/validator rules, shown in the schema where a
//     keyword says the same (oneof → enum, min/max/len → bounds or lengths,
//     email, url, uuid → format, unique → uniqueItems, required on a string
//     → minLength 1) and checked from it; the others (cross-field, ...)
//     run in the validator
//
// Every call of the tool then, before fn runs: requires one JSON object,
// applies the schema's defaults, checks the arguments against the compiled
// schema (unknown, repeated and case-mismatched keys, required properties,
// null only for optional properties, JSON types and every keyword, with
// their paths), decodes into A (integral numbers written 30.0 or 1e2 are
// integers), and runs the validator. All problems come back in one error
// result; fn is not called.
//
// Errors (test with errors.Is): ErrInvalidName, ErrInvalidSchema (A is not a
// struct, a field has an unsupported type such as chan, func, complex,
// time.Duration or a type that decodes itself without a JSONSchema method,
// a jsonschema tag is prose, a keyword cannot be enforced, ...), and a
// description longer than 1024 characters. NewTool never panics.
func NewTool[A any](name, description string, fn func(context.Context, A) (string, error)) (Tool, error) {
	if fn == nil {
		return Tool{}, fmt.Errorf("toolnexus: NewTool %q: function is nil", name)
	}
	return newTyped[A](name, description, func(ctx context.Context, a A) Result {
		out, err := fn(ctx, a)
		if err != nil {
			return Result{Output: err.Error(), IsError: true, Err: err}
		}
		return Result{Output: out}
	})
}

// NewResultTool is [NewTool] for a function that builds its own [Result],
// for example to attach Metadata such as a pending request.
func NewResultTool[A any](name, description string, fn func(context.Context, A) Result) (Tool, error) {
	if fn == nil {
		return Tool{}, fmt.Errorf("toolnexus: NewResultTool %q: function is nil", name)
	}
	return newTyped[A](name, description, fn)
}

func newTyped[A any](name, description string, fn func(context.Context, A) Result) (Tool, error) {
	if err := CheckName(name); err != nil {
		return Tool{}, err
	}
	t := reflect.TypeFor[A]()
	info, err := typeInfoFor(t)
	if err != nil {
		return Tool{}, &wrapError{msg: fmt.Sprintf("toolnexus: tool %q: invalid input schema: %v", name, err), target: ErrInvalidSchema}
	}
	h := &typedHandler[A]{name: name, info: info, fn: fn}
	if t.Kind() == reflect.Pointer {
		h.elem = t.Elem()
	}
	tool := Tool{Name: name, Description: description, InputSchema: info.schema, Source: "native", Handler: h}
	if err := checkTool(&tool); err != nil {
		return Tool{}, err
	}
	return tool, nil
}

// Register builds a typed tool with [NewTool] and adds it to r. It returns
// the errors of NewTool and of [Registry.Add] (ErrDuplicateTool when the
// name is taken); on error nothing is added.
func Register[A any](r *Registry, name, description string, fn func(context.Context, A) (string, error)) error {
	t, err := NewTool(name, description, fn)
	if err != nil {
		return err
	}
	return r.Add(t)
}

// RegisterResult is [Register] for a function that builds its own [Result].
func RegisterResult[A any](r *Registry, name, description string, fn func(context.Context, A) Result) error {
	t, err := NewResultTool(name, description, fn)
	if err != nil {
		return err
	}
	return r.Add(t)
}

// MustRegister is like [Register] but panics on error. Use it only where a
// failure is a programming error, such as package initialisation.
func MustRegister[A any](r *Registry, name, description string, fn func(context.Context, A) (string, error)) {
	if err := Register(r, name, description, fn); err != nil {
		panic(err)
	}
}

// SchemaFor returns the input schema reflected from A, the same bytes a
// typed tool with arguments A carries. The bytes are shared; do not modify
// them.
func SchemaFor[A any]() (json.RawMessage, error) {
	info, err := typeInfoFor(reflect.TypeFor[A]())
	if err != nil {
		return nil, err
	}
	return info.schema, nil
}

type typedHandler[A any] struct {
	name string
	info *typeInfo
	elem reflect.Type // non-nil when A is a pointer type
	fn   func(context.Context, A) Result
}

func (*typedHandler[A]) typedArgs() {}

// Call implements Handler: defaults, check, decode, validate, call.
//
// The compiled schema (the engine) checks the arguments first and reports
// every problem; the arguments are then decoded even when it found some,
// so that the validator's own rules (cross-field, ...) are reported in the
// same message. The decoder's tables explain what encoding/json refuses
// (a Go range, a text form), and rewrite integral numbers written 30.0 or
// 1e2, which JSON Schema counts as integers, for decoding.
func (h *typedHandler[A]) Call(ctx context.Context, args json.RawMessage) Result {
	args = normalizeArgs(args)
	info := h.info
	if out, changed, err := info.check.ApplyDefaults(args); err == nil && changed {
		args = out
	}
	var errs []*ArgumentError
	if err := info.check.Validate(args); err != nil {
		var fatal bool
		errs, fatal = problemErrors(h.name, err)
		if fatal {
			if errs[0].Rule == "syntax" {
				errs = syntaxErrors(h.name, args, errs)
			}
			return argumentsResult(h.name, errs)
		}
	}
	var a A
	target := h.target(&a)
	if derr := json.Unmarshal(args, target); derr != nil {
		var rewritten json.RawMessage
		errs, rewritten = diagnose(h.name, args, info.spec, errs)
		switch {
		case rewritten != nil:
			a = *new(A)
			target = h.target(&a)
			if derr = json.Unmarshal(rewritten, target); derr != nil {
				errs = mergeProblems(errs, []*ArgumentError{decodeError(h.name, derr)})
				return argumentsResult(h.name, errs)
			}
		case len(errs) == 0:
			return argumentsResult(h.name, []*ArgumentError{decodeError(h.name, derr)})
		default:
			return argumentsResult(h.name, errs)
		}
	} else if len(errs) > 0 {
		errs, _ = diagnose(h.name, args, info.spec, errs)
	}
	if info.needValidator {
		if err := validate().Struct(target); err != nil {
			errs = mergeProblems(errs, validationErrors(h.name, reflect.TypeOf(target).Elem(), err))
		}
	}
	if len(errs) > 0 {
		return argumentsResult(h.name, errs)
	}
	return h.fn(ctx, a)
}

// target returns what encoding/json decodes into: a itself, or when A is a
// pointer type, a new value that *a is set to point to.
func (h *typedHandler[A]) target(a *A) any {
	if h.elem != nil {
		*a = reflect.New(h.elem).Interface().(A)
		return *a
	}
	return a
}

// decodeError turns an encoding/json error that neither the engine nor
// the decoder's tables explained into a model-facing problem without Go
// type, package or method names.
func decodeError(tool string, err error) *ArgumentError {
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
		return &ArgumentError{Tool: tool, Path: path, Rule: "range",
			Msg: fmt.Sprintf("%q must be %s, got %s", path, what, cutText(ute.Value))}
	}
	return &ArgumentError{Tool: tool, Rule: "decode", Msg: "arguments could not be decoded: " + cutText(stripGo(err.Error()))}
}

func minInt(bits int) int64 { return -1 << (bits - 1) }
func maxInt(bits int) int64 { return 1<<(bits-1) - 1 }
func maxUint(bits int) uint64 {
	if bits == 64 {
		return ^uint64(0)
	}
	return 1<<bits - 1
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

// validate returns the shared validator. It is configured once, before its
// first use, as validator requires.
func validate() *validator.Validate {
	validatorOnce.Do(func() {
		validatorInst = validator.New(validator.WithRequiredStructEnabled())
	})
	return validatorInst
}

// validationErrors maps validator failures to problems named by JSON path.
func validationErrors(tool string, root reflect.Type, err error) []*ArgumentError {
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return []*ArgumentError{{Tool: tool, Rule: "validate", Msg: "arguments failed validation: " + stripGo(err.Error())}}
	}
	out := make([]*ArgumentError, 0, len(verrs))
	for _, fe := range verrs {
		path, parent := jsonPath(root, fe.StructNamespace())
		param := fe.Param()
		if strings.HasSuffix(fe.Tag(), "field") && param != "" && !strings.Contains(param, ".") {
			param = jsonFieldName(parent, param) // eqfield=Start → "start"
		}
		out = append(out, &ArgumentError{Tool: tool, Path: path, Rule: fe.Tag(), Param: param,
			Msg: ruleMessage(path, param, fe)})
		if len(out) == maxProblems {
			break
		}
	}
	return out
}

// jsonPath converts a validator namespace of Go field names
// ("Args.Stops[2].City", "Args.Counts[ab]") into a JSON path
// ("stops[2].city", "counts.ab"). It also returns the struct type holding
// the last field, to translate cross-field rule parameters.
func jsonPath(root reflect.Type, ns string) (string, reflect.Type) {
	parts := strings.Split(ns, ".")
	if len(parts) > 0 {
		parts = parts[1:] // the root type name
	}
	t := root
	parent := root
	var b strings.Builder
	for _, part := range parts {
		name, rest, _ := strings.Cut(part, "[")
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		sf, ok := reflect.StructField{}, false
		if t.Kind() == reflect.Struct {
			sf, ok = t.FieldByName(name)
		}
		if !ok {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(part)
			continue
		}
		parent = t
		t = sf.Type
		jname, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if sf.Anonymous && jname == "" {
			et := sf.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				continue // embedded: its fields are promoted
			}
		}
		if jname == "" {
			jname = sf.Name
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(jname)
		for rest != "" { // "2]", "ab]", "1][0]"
			key, after, _ := strings.Cut(rest, "]")
			for t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			if t.Kind() == reflect.Map {
				b.WriteByte('.')
				b.WriteString(key)
			} else {
				b.WriteString("[" + key + "]")
			}
			if t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
				t = t.Elem()
			}
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return b.String(), parent
}

// jsonFieldName returns the JSON name of Go field goName in struct t, or
// goName when there is none.
func jsonFieldName(t reflect.Type, goName string) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return goName
	}
	sf, ok := t.FieldByName(goName)
	if !ok {
		return goName
	}
	if jname, _, _ := strings.Cut(sf.Tag.Get("json"), ","); jname != "" && jname != "-" {
		return jname
	}
	return goName
}

func ruleMessage(path, param string, fe validator.FieldError) string {
	p := fmt.Sprintf("%q", path)
	k := fe.Kind()
	for k == reflect.Pointer {
		k = reflect.Invalid
	}
	isStr := fe.Kind() == reflect.String
	isList := fe.Kind() == reflect.Slice || fe.Kind() == reflect.Array || fe.Kind() == reflect.Map
	unit := ""
	if isStr {
		unit = " characters"
	} else if isList {
		unit = " items"
	}
	if param == "1" {
		unit = strings.TrimSuffix(unit, "s")
	}
	switch fe.Tag() {
	case "required", "required_if", "required_unless", "required_with", "required_without":
		// The property is present (the checker reports missing ones) but
		// holds its zero value, which validator's required refuses.
		switch fe.Kind() {
		case reflect.String:
			return p + " must not be empty"
		case reflect.Slice, reflect.Map, reflect.Array:
			return p + " must not be empty"
		case reflect.Bool:
			return p + " must be true"
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
			reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			return p + " must not be 0"
		}
		return p + " is required"
	case "oneof":
		return fmt.Sprintf("%s must be one of [%s]", p, enumList(oneofValues(param)))
	case "min", "gte":
		if isStr || isList {
			return fmt.Sprintf("%s must have at least %s%s", p, param, unit)
		}
		return fmt.Sprintf("%s must be at least %s", p, param)
	case "max", "lte":
		if isStr || isList {
			return fmt.Sprintf("%s must have at most %s%s", p, param, unit)
		}
		return fmt.Sprintf("%s must be at most %s", p, param)
	case "gt":
		if isStr || isList {
			return fmt.Sprintf("%s must have more than %s%s", p, param, unit)
		}
		return fmt.Sprintf("%s must be greater than %s", p, param)
	case "lt":
		if isStr || isList {
			return fmt.Sprintf("%s must have fewer than %s%s", p, param, unit)
		}
		return fmt.Sprintf("%s must be less than %s", p, param)
	case "len":
		if isStr || isList {
			return fmt.Sprintf("%s must have exactly %s%s", p, param, unit)
		}
		return fmt.Sprintf("%s must be exactly %s", p, param)
	case "eq":
		return fmt.Sprintf("%s must be %s", p, param)
	case "ne":
		return fmt.Sprintf("%s must not be %s", p, param)
	case "email":
		return p + " must be a valid email address"
	case "url", "uri", "http_url":
		return p + " must be a valid URL"
	case "uuid", "uuid3", "uuid4", "uuid5", "uuid_rfc4122", "uuid4_rfc4122":
		return p + " must be a valid UUID"
	case "alpha":
		return p + " must contain only letters"
	case "alphanum":
		return p + " must contain only letters and digits"
	case "numeric", "number":
		return p + " must contain only digits"
	case "unique":
		return p + " must not contain duplicates"
	case "eqfield":
		return fmt.Sprintf("%s must equal %q", p, param)
	case "nefield":
		return fmt.Sprintf("%s must differ from %q", p, param)
	case "gtfield":
		return fmt.Sprintf("%s must be greater than %q", p, param)
	case "gtefield":
		return fmt.Sprintf("%s must be at least %q", p, param)
	case "ltfield":
		return fmt.Sprintf("%s must be less than %q", p, param)
	case "ltefield":
		return fmt.Sprintf("%s must be at most %q", p, param)
	case "ip", "ipv4", "ipv6", "hostname", "hostname_rfc1123", "datetime", "json", "base64":
		return fmt.Sprintf("%s must be a valid %s%s", p, fe.Tag(), suffixParam(param))
	}
	if param != "" {
		return fmt.Sprintf("%s failed the rule %s=%s", p, fe.Tag(), param)
	}
	return fmt.Sprintf("%s failed the rule %s", p, fe.Tag())
}

func suffixParam(p string) string {
	if p == "" {
		return ""
	}
	return " (" + p + ")"
}

// mergeProblems appends the validator's problems whose path the checker has
// not already reported (the checker enforces the schema keywords that the
// validate tags were mirrored into, with the same wording).
func mergeProblems(checked, validated []*ArgumentError) []*ArgumentError {
	for _, v := range validated {
		dup := false
		for _, c := range checked {
			if c.Path == v.Path {
				dup = true
				break
			}
		}
		if !dup && len(checked) < maxProblems {
			checked = append(checked, v)
		}
	}
	return checked
}

// enumList formats allowed values for a message: space-separated, or as
// JSON strings when a value is empty or holds a space.
func enumList(vals []string) string {
	quote := false
	for _, v := range vals {
		if v == "" || strings.ContainsAny(v, " \t\n") {
			quote = true
		}
	}
	if !quote {
		return strings.Join(vals, " ")
	}
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
