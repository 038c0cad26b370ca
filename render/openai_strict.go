package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// OpenAIStrict renders tools for Chat Completions in strict mode:
// OpenAIWith(tools, OpenAIOptions{Strict: true}).
//
// Each tool's schema is rewritten into a copy (the input bytes are never
// modified) following "Supported schemas" in OpenAI's Structured Outputs
// guide (https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas):
//   - every object gets "additionalProperties":false and lists all of its
//     properties in "required", in property order; an object without
//     properties gets "properties":{} and "required":[]
//   - a property that was optional becomes nullable: "type":"T" turns into
//     ["T","null"], null is appended to its enum, a const becomes a
//     two-value enum, an anyOf gains {"type":"null"}, a $ref is wrapped as
//     {"anyOf":[{"$ref":…},{"type":"null"}]}. Registry.Execute treats null
//     for an optional property as absent, so a model obeying the strict
//     schema never gets an error for it, while the string "null" is still
//     no valid enum value.
//   - oneOf becomes anyOf; $defs and local $ref (recursion included) are
//     kept. A $ref node keeps no sibling keywords (strict mode forbids
//     them): a description or title beside it is kept by inlining a copy
//     of the target with them (a target already being inlined is
//     referenced instead, and they are dropped); dropped annotations
//     (default, examples, …) go. An enum keeps each value once.
//   - a rule strict mode does not take but Execute enforces (uniqueItems,
//     minProperties, maxProperties, a format outside the profile's
//     list: date-time, time, date, duration, email, hostname, ipv4,
//     ipv6, uuid) is dropped from the copy and stated at the end of the
//     description ("Items must be unique.", "Format: uri."), as are
//     contentEncoding base64 (a []byte field, which a typed tool's
//     decoder reads as base64: "Base64-encoded."); annotations (default,
//     examples, $comment, …) are dropped. The keywords kept and the
//     limits are the "openai-chat-strict" row of [Profiles].
//
// Not strictable, an error wrapping [ErrNotStrict]: a free-form map
// (additionalProperties is a schema or true), a value of any type ({}, or
// an array without items), allOf, not, if/then/else, patternProperties,
// propertyNames, dependent*, unevaluated*, contains, prefixItems, a type
// array with two non-null types, a non-local $ref, a $ref with a sibling
// keyword other than annotations, a $ref pointing into a place the
// rewrite moves or drops (inside a oneOf, beside a $ref, under default),
// an enum or const value that is an object or an array, "items" as an
// array, a boolean schema. Errors wrapping [ErrUnsupportedSchema] (never
// rendered, even with Fallback): oneOf, anyOf or allOf at the root (which
// OpenAI refuses outside strict mode too), invalid
// JSON or UTF-8, a key repeated in one object, a $ref that does not
// resolve ($ref fragments are RFC 6901 JSON Pointers in URI fragment
// form: percent-decoded, then "~1" is "/" and "~0" is "~"), a cycle of
// $refs that never reaches a schema. A tool name outside
// ^[a-zA-Z0-9_-]{1,64}$ is an error wrapping [ErrUnsupportedName]. Over
// a limit ([StrictMaxDepth] object levels, [StrictMaxProperties]
// properties, [StrictMaxEnumValues] enum values, [StrictMaxStringLength]
// characters): an error wrapping [ErrSchemaLimit]. Set
// OpenAIOptions.Fallback to render such tools with "strict":false and
// their non-strict parameters (those of [OpenAIWith] without Strict)
// instead. A list of more than 128 tools is an error wrapping
// [ErrTooManyTools].
//
// Rewritten schemas are cached by their input bytes, so rendering the same
// tools again costs a map lookup per tool.
func OpenAIStrict(tools []toolnexus.Tool) (OpenAITools, error) {
	return OpenAIWith(tools, OpenAIOptions{Strict: true})
}

// OpenAI strict-mode limits, from the Structured Outputs guide, "Supported
// schemas" (https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas).
// A schema over a limit is an error wrapping [ErrSchemaLimit].
const (
	// StrictMaxDepth is the deepest object nesting allowed: the root object
	// is level 1, an object property of it level 2, and so on (arrays do
	// not add a level; $defs are counted from level 1 each).
	StrictMaxDepth = 10
	// StrictMaxProperties is the most object properties allowed in one
	// schema, counted over every object including $defs.
	StrictMaxProperties = 5000
	// StrictMaxEnumValues is the most enum values allowed in one schema.
	StrictMaxEnumValues = 1000
	// StrictMaxStringLength is the most characters allowed in property
	// names, $defs names, enum values and const values together.
	StrictMaxStringLength = 120000
	// StrictLargeEnum and StrictLargeEnumLength: a string enum with more
	// than StrictLargeEnum values may total at most StrictLargeEnumLength
	// characters.
	StrictLargeEnum       = 250
	StrictLargeEnumLength = 15000
)

// strictStats are the counts of one strict schema that a per-request
// limit sums over a list (StrictRules.MaxOptional, MaxUnions).
type strictStats struct{ optional, unions int }

// strictParams returns the strict form of t's schema under rules, or with
// fallback nil and strict=false when it cannot be made strict (the caller
// sends its non-strict form); errors name renderer and the tool.
func strictParams(t *toolnexus.Tool, rules *StrictRules, fallback bool, renderer string) (json.RawMessage, strictStats, bool, error) {
	r := rules.cache.entry(schemaOf(t), rules.rewrite)
	params, n, err := r.out, r.stats, r.err
	if err == nil {
		return params, n, true, nil
	}
	if fallback && (errors.Is(err, ErrNotStrict) || errors.Is(err, ErrSchemaLimit)) {
		return nil, strictStats{}, false, nil
	}
	return nil, strictStats{}, false, withTool(err, renderer, t.Name)
}

// strictStructural are the keywords the strict rewrite handles itself.
var strictStructural = map[string]bool{
	"type": true, "title": true, "description": true, "enum": true, "const": true,
	"format": true, "items": true, "anyOf": true, "oneOf": true, "properties": true,
	"required": true, "additionalProperties": true, "$defs": true, "definitions": true,
}

// rewrite returns a strict-mode copy of the schema in under rules r,
// following the rules documented on [OpenAIStrict], and its counts. The
// input is never modified.
func (r *StrictRules) rewrite(in []byte) rewritten {
	out, n, err := r.strict(in)
	return rewritten{out: out, stats: n, err: err}
}

// strict is rewrite's work.
func (r *StrictRules) strict(in []byte) (json.RawMessage, strictStats, error) {
	root, err := parseSchema(in)
	if err != nil {
		return nil, strictStats{}, err
	}
	if err := r.root.check(root, r.provider); err != nil {
		return nil, strictStats{}, err
	}
	s := &strictor{rules: r, root: root, outOf: make(map[*jsonx.Object]*jsonx.Object)}
	out, err := s.node(root, "", 0)
	if err == nil {
		err = s.checkRefs(out)
	}
	if err == nil && !r.Recursive {
		err = s.recursion()
	}
	if err != nil {
		return nil, strictStats{}, err
	}
	switch {
	case over(r.MaxProperties, s.props):
		err = overLimit("", fmt.Sprintf("%d object properties, more than the strict-mode limit of %d", s.props, r.MaxProperties.Max))
	case over(r.MaxEnumValues, s.enums):
		err = overLimit("", fmt.Sprintf("%d enum values, more than the strict-mode limit of %d", s.enums, r.MaxEnumValues.Max))
	case over(r.MaxStringLength, s.strLen):
		err = overLimit("", fmt.Sprintf("%d characters of property names, enum and const values, more than the strict-mode limit of %d", s.strLen, r.MaxStringLength.Max))
	case over(r.MaxOptional, s.stats.optional):
		err = overLimit("", fmt.Sprintf("%d optional properties, more than the strict-mode limit of %d per request", s.stats.optional, r.MaxOptional.Max))
	case over(r.MaxUnions, s.stats.unions):
		err = overLimit("", fmt.Sprintf("%d union-typed schemas (anyOf, or a type array), more than the strict-mode limit of %d per request", s.stats.unions, r.MaxUnions.Max))
	}
	if err != nil {
		return nil, strictStats{}, err
	}
	return jsonx.Marshal(out), s.stats, nil
}

// over reports whether n is past the limit l (never for no limit).
func over(l Limit, n int) bool { return l.Max > 0 && n > l.Max }

// recursion reports a schema whose $refs form a cycle (a definition that
// reaches itself), which rules without Recursive cannot take.
func (s *strictor) recursion() error {
	// a $ref "#/x" used at path P is an edge from every referenced
	// pointer that is a prefix of P to "/x"; refs are compared
	// percent-decoded ("#/$defs/a%20b" is "/$defs/a b"), as resolveRef reads them
	target := func(ref string) string {
		t := strings.TrimPrefix(ref, "#")
		if u, err := url.PathUnescape(t); err == nil {
			return u
		}
		return t
	}
	var targets []string
	for _, u := range s.refs {
		if t := target(u.ref); !slices.Contains(targets, t) {
			targets = append(targets, t)
		}
	}
	inside := func(p, t string) bool { return t == "" || p == t || strings.HasPrefix(p, t+"/") }
	// depth-first, each target once: 1 while on the path, 2 when done
	state := map[string]int{}
	var visit func(t string) *refUse
	visit = func(t string) *refUse {
		state[t] = 1
		for i := range s.refs {
			u := &s.refs[i]
			if !inside(u.path, t) {
				continue
			}
			next := target(u.ref)
			switch state[next] {
			case 1:
				return u
			case 0:
				if found := visit(next); found != nil {
					return found
				}
			}
		}
		state[t] = 2
		return nil
	}
	for _, t := range targets {
		if state[t] != 0 {
			continue
		}
		if u := visit(t); u != nil {
			return notStrict(u.path, fmt.Sprintf("the $ref %q makes the schema recursive, which this strict mode does not support (set Fallback to send such a tool without strict)", u.ref))
		}
	}
	return nil
}

func notStrict(path, msg string) error {
	return &SchemaError{Path: path, Msg: msg, Err: ErrNotStrict}
}

func overLimit(path, msg string) error {
	return &SchemaError{Path: path, Msg: msg, Err: ErrSchemaLimit}
}

type strictor struct {
	rules                *StrictRules
	props, enums, strLen int
	stats                strictStats

	root     *jsonx.Object                   // the input schema
	outOf    map[*jsonx.Object]*jsonx.Object // input node -> its rewrite
	refs     []refUse                        // every $ref kept in the output
	inlining []*jsonx.Object                 // $ref targets being inlined (see ref)
}

// refUse is one $ref of the output: its string, its path in the input and
// the input node it resolves to there.
type refUse struct {
	ref, path string
	target    any
}

// checkRefs makes sure every $ref kept in the rewritten schema out still
// names the rewrite of the node it named in the input. Rewriting can move
// nodes (oneOf becomes anyOf, an optional $ref is wrapped in anyOf) or drop
// them (default, unknown keywords), so a reference into such a place would
// dangle or change meaning.
func (s *strictor) checkRefs(out *jsonx.Object) error {
	for _, u := range s.refs {
		o, _ := u.target.(*jsonx.Object)
		want := s.outOf[o]
		got, err := resolveRef(out, u.ref)
		if want == nil || err != nil || got != any(want) {
			return notStrict(u.path, fmt.Sprintf("the $ref %q points into a part of the schema that strict mode rewrites or drops, so it would not resolve to the same schema; point it at a definition under the root $defs", u.ref))
		}
	}
	return nil
}

// ref rewrites a node holding "$ref". Strict mode allows no keywords beside
// $ref, so the node becomes {"$ref":…} alone; the annotations strict mode
// drops everywhere (default, examples, $comment, …) are dropped here too.
// A description or title beside the $ref is kept by inlining a copy of the
// target with them (as openai-python's to_strict_json_schema does); a
// target already being inlined is referenced instead, dropping them. Any
// other sibling keyword is an error wrapping ErrNotStrict.
func (s *strictor) ref(o *jsonx.Object, path string, depth int) (*jsonx.Object, error) {
	refVal, _ := o.Get("$ref")
	p := path + "/$ref"
	ref, ok := refVal.(string)
	if !ok {
		return nil, &SchemaError{Path: p, Msg: "$ref is not a string", Err: ErrUnsupportedSchema}
	}
	if ref == "" || ref[0] != '#' {
		return nil, notStrict(p, fmt.Sprintf("the $ref %q is not local (#…); strict mode only follows local references", ref))
	}
	target, final, err := followRefs(s.root, ref, p)
	if err != nil {
		return nil, err
	}
	var notes []int // indexes of description and title
	for i, k := range o.Keys {
		switch {
		case k == "$ref":
		case k == "description" || k == "title":
			notes = append(notes, i)
		case slices.Contains(s.rules.Keywords, k) || strictStructural[k]:
			return nil, notStrict(path+"/"+pointerToken(k), fmt.Sprintf("strict mode allows no keywords beside $ref, and %q beside the $ref %q cannot be dropped or moved without changing the schema", k, ref))
		case indexBound(k) >= 0 || k == "format":
			// a rule these strict rules state as a hint: inlined with the
			// target, like a description, so the hint is not lost
			if final == nil || hasKey(final, k) || slices.Contains(s.inlining, final) {
				return nil, notStrict(path+"/"+pointerToken(k), fmt.Sprintf("strict mode allows no keywords beside $ref, and %q beside the $ref %q cannot be stated as a hint without changing the schema", k, ref))
			}
			notes = append(notes, i)
		}
	}
	if len(notes) > 0 && final != nil && !slices.Contains(s.inlining, final) {
		merged := jsonx.Clone(final).(*jsonx.Object)
		merged.Delete("$defs")
		merged.Delete("definitions")
		for _, i := range notes {
			merged.Set(o.Keys[i], o.Vals[i])
		}
		s.inlining = append(s.inlining, final)
		out, err := s.node(merged, path, depth)
		s.inlining = s.inlining[:len(s.inlining)-1]
		if err != nil {
			return nil, err
		}
		s.record(o, out)
		return out, nil
	}
	out := &jsonx.Object{Keys: []string{"$ref"}, Vals: []any{ref}}
	s.refs = append(s.refs, refUse{ref: ref, path: p, target: target})
	s.record(o, out)
	return out, nil
}

func (s *strictor) record(in, out *jsonx.Object) { s.outOf[in] = out }

// node rewrites one schema node. depth is the object nesting level of the
// node's parent.
func (s *strictor) node(v any, path string, depth int) (*jsonx.Object, error) {
	o, ok := v.(*jsonx.Object)
	if !ok {
		return nil, notSchema(v, path, notStrict)
	}
	for _, k := range o.Keys {
		if slices.Contains(s.rules.Rejected, k) {
			return nil, notStrict(path+"/"+pointerToken(k), fmt.Sprintf("%q is not supported in strict mode", k))
		}
	}
	if _, ok := o.Get("$ref"); ok {
		return s.ref(o, path, depth)
	}
	var types []string
	if t, ok := o.Get("type"); ok {
		switch t := t.(type) {
		case string:
			types = []string{t}
		case []any:
			for _, e := range t {
				str, ok := e.(string)
				if !ok {
					return nil, &SchemaError{Path: path + "/type", Msg: "type array holds a non-string", Err: ErrUnsupportedSchema}
				}
				types = append(types, str)
			}
		default:
			return nil, &SchemaError{Path: path + "/type", Msg: "type is neither a string nor an array", Err: ErrUnsupportedSchema}
		}
	}
	for _, t := range types {
		if !jsonTypes[t] {
			return nil, &SchemaError{Path: path + "/type", Msg: fmt.Sprintf("%q is not a JSON Schema type", t), Err: ErrUnsupportedSchema}
		}
	}
	nonNull := ""
	for _, t := range types {
		if t == "null" {
			continue
		}
		if nonNull != "" {
			return nil, notStrict(path+"/type", fmt.Sprintf("the type %s lists more than one non-null type; strict mode allows one type plus \"null\"", jsonx.Marshal(o.Vals[indexOf(o, "type")])))
		}
		nonNull = t
	}
	_, hasProps := o.Get("properties")
	isObject := nonNull == "object" || (len(types) == 0 && hasProps)
	if len(types) == 0 && !hasProps {
		typed := false
		for _, k := range [...]string{"$ref", "anyOf", "oneOf", "enum", "const"} {
			if _, ok := o.Get(k); ok {
				typed = true
			}
		}
		if !typed {
			return nil, notStrict(path, "a schema with no type (any JSON value) cannot be made strict")
		}
	}
	if nonNull == "array" {
		if _, ok := o.Get("items"); !ok {
			return nil, notStrict(path, "an array without \"items\" (items of any type) cannot be made strict")
		}
	}
	if isObject {
		depth++
		if over(s.rules.MaxDepth, depth) {
			return nil, overLimit(path, fmt.Sprintf("%d levels of object nesting, more than the strict-mode limit of %d", depth, s.rules.MaxDepth.Max))
		}
	}

	out := &jsonx.Object{}
	var hints ruleHints // dropped rules Execute enforces, stated in the description
	var props *jsonx.Object
	var defsKey string
	var defs *jsonx.Object
	required := map[string]bool{}
	for i, k := range o.Keys {
		val := o.Vals[i]
		p := path + "/" + pointerToken(k)
		switch {
		case k == "type" && len(types) == 1:
			out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, types[0]) // ["T"] is "T"
		case k == "type" || k == "title" || k == "description" || k == "enum" || k == "const" ||
			slices.Contains(s.rules.Keywords, k) && (k != "minItems" || s.rules.MaxMinItems < 0 || !overNumber(val, s.rules.MaxMinItems)):
			if k == "enum" {
				if err := s.countEnum(val, p); err != nil {
					return nil, err
				}
				val = uniqueValues(val.([]any))
			}
			if k == "const" {
				if err := primitive(val, p); err != nil {
					return nil, err
				}
				s.enums++
				if str, ok := val.(string); ok {
					s.strLen += len(str)
				}
			}
			out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, val)
		case k == "format":
			if f, ok := val.(string); ok && slices.Contains(s.rules.Formats, f) {
				out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, val)
			} else if assertedFormats[f] {
				hints.drop(k, f)
			}
		case k == "items":
			if _, ok := val.([]any); ok {
				return nil, notStrict(p, `"items" is an array of schemas (the tuple form of drafts before 2020-12), which strict mode does not support`)
			}
			c, err := s.node(val, p, depth)
			if err != nil {
				return nil, err
			}
			out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, c)
		case k == "anyOf" || k == "oneOf":
			arr, ok := val.([]any)
			if !ok {
				return nil, &SchemaError{Path: p, Msg: k + " is not an array", Err: ErrUnsupportedSchema}
			}
			alts := make([]any, len(arr))
			for j, a := range arr {
				c, err := s.node(a, p+"/"+strconv.Itoa(j), depth)
				if err != nil {
					return nil, err
				}
				alts[j] = c
			}
			// oneOf is not in strict mode's subset; anyOf is, and Execute
			// still enforces "exactly one" for typed tools.
			out.Keys, out.Vals = append(out.Keys, "anyOf"), append(out.Vals, alts)
		case k == "properties":
			props, ok = val.(*jsonx.Object)
			if !ok {
				return nil, &SchemaError{Path: p, Msg: "properties is not an object", Err: ErrUnsupportedSchema}
			}
		case k == "required":
			arr, _ := val.([]any)
			for _, r := range arr {
				if name, ok := r.(string); ok {
					required[name] = true
				}
			}
		case k == "additionalProperties":
			switch val {
			case false:
			case true:
				return nil, notStrict(p, "additionalProperties:true (an open object) cannot be made strict")
			default:
				return nil, notStrict(p, "a free-form map (additionalProperties is a schema) cannot be made strict")
			}
		case k == "$defs" || k == "definitions":
			d, ok := val.(*jsonx.Object)
			if !ok {
				return nil, &SchemaError{Path: p, Msg: k + " is not an object", Err: ErrUnsupportedSchema}
			}
			defsKey, defs = k, &jsonx.Object{}
			for j, name := range d.Keys {
				s.strLen += len(name)
				c, err := s.node(d.Vals[j], p+"/"+pointerToken(name), 0)
				if err != nil {
					return nil, err
				}
				defs.Keys, defs.Vals = append(defs.Keys, name), append(defs.Vals, c)
			}
		default:
			// Constraints strict mode does not take (uniqueItems,
			// minProperties, minimum for Anthropic, …) are dropped from
			// the copy and stated as hints; Execute still enforces them.
			// Annotations (default, examples, $comment, …) are dropped.
			hints.drop(k, val)
		}
	}
	hints.apply(out)
	if isObject {
		np := &jsonx.Object{}
		names := []string{}
		if props != nil {
			for j, name := range props.Keys {
				s.props++
				s.strLen += len(name)
				pp := path + "/properties/" + pointerToken(name)
				c, err := s.node(props.Vals[j], pp, depth)
				if err != nil {
					return nil, err
				}
				switch {
				case required[name]:
					names = append(names, name)
				case s.rules.Optional:
					s.stats.optional++
				default:
					c = nullable(c)
					names = append(names, name)
				}
				np.Keys, np.Vals = append(np.Keys, name), append(np.Vals, c)
			}
		}
		if len(types) == 0 {
			out.Keys = append([]string{"type"}, out.Keys...)
			out.Vals = append([]any{"object"}, out.Vals...)
		}
		out.Keys = append(out.Keys, "properties", "required", "additionalProperties")
		out.Vals = append(out.Vals, np, names, false)
	}
	if defs != nil {
		out.Keys, out.Vals = append(out.Keys, defsKey), append(out.Vals, defs)
	}
	s.countUnions(out)
	s.record(o, out)
	return out, nil
}

// countUnions counts the rewritten node out when it is union-typed: an
// anyOf, or a type array of two or more types.
func (s *strictor) countUnions(out *jsonx.Object) {
	isUnion := func(o *jsonx.Object) bool {
		if hasKey(o, "anyOf") {
			return true
		}
		t, _ := o.Get("type")
		arr, ok := t.([]any)
		return ok && len(arr) > 1
	}
	if isUnion(out) {
		s.stats.unions++
	}
}

// overNumber reports whether v is a number above n.
func overNumber(v any, n int) bool {
	num, ok := v.(json.Number)
	if !ok {
		return false
	}
	f, err := num.Float64()
	return err == nil && f > float64(n)
}

// primitive reports an enum or const value strict mode cannot take: strict
// enums hold strings, numbers, booleans and null only.
func primitive(v any, path string) error {
	switch v.(type) {
	case *jsonx.Object, []any:
		return notStrict(path, fmt.Sprintf("the value %s is an %s; strict mode enum and const values must be strings, numbers, booleans or null", jsonx.Marshal(v), kindOf(v)))
	}
	return nil
}

// uniqueValues returns arr without repeated values (enum values are
// primitives here, so == compares them), arr itself when none repeat.
func uniqueValues(arr []any) []any {
	for i := 1; i < len(arr); i++ {
		if containsValue(arr[:i], arr[i]) {
			out := slices.Clone(arr[:i])
			for _, e := range arr[i+1:] {
				if !containsValue(out, e) {
					out = append(out, e)
				}
			}
			return out
		}
	}
	return arr
}

func (s *strictor) countEnum(val any, path string) error {
	arr, ok := val.([]any)
	if !ok {
		return &SchemaError{Path: path, Msg: "enum is not an array", Err: ErrUnsupportedSchema}
	}
	s.enums += len(arr)
	total := 0
	for j, e := range arr {
		if err := primitive(e, path+"/"+strconv.Itoa(j)); err != nil {
			return err
		}
		if str, ok := e.(string); ok {
			total += len(str)
		}
	}
	s.strLen += total
	if r := s.rules; over(r.LargeEnum, len(arr)) && over(r.LargeEnumLength, total) {
		return overLimit(path, fmt.Sprintf("an enum of %d values totalling %d characters; strict mode allows at most %d characters when an enum has more than %d values",
			len(arr), total, r.LargeEnumLength.Max, r.LargeEnum.Max))
	}
	return nil
}

// nullable makes the rewritten property schema o also accept null, the way
// strict mode expresses an optional property: "type":"T" becomes
// ["T","null"], null joins an enum, a const becomes a two-value enum, an
// anyOf gains {"type":"null"}, and a $ref is wrapped in an anyOf.
func nullable(o *jsonx.Object) *jsonx.Object {
	if _, ok := o.Get("$ref"); ok {
		return &jsonx.Object{Keys: []string{"anyOf"}, Vals: []any{[]any{o, nullSchema()}}}
	}
	if a, ok := o.Get("anyOf"); ok {
		arr := a.([]any)
		for _, e := range arr {
			if eo, ok := e.(*jsonx.Object); ok && len(eo.Keys) == 1 && hasType(eo, "null") {
				return o
			}
		}
		o.Set("anyOf", append(arr[:len(arr):len(arr)], nullSchema()))
		return o
	}
	if i := indexOf(o, "type"); i >= 0 {
		switch t := o.Vals[i].(type) {
		case string:
			if t != "null" {
				o.Vals[i] = []any{t, "null"}
			}
		case []any:
			if !containsValue(t, "null") {
				o.Vals[i] = append(t[:len(t):len(t)], "null")
			}
		}
	}
	if i := indexOf(o, "enum"); i >= 0 {
		if arr, ok := o.Vals[i].([]any); ok && !containsValue(arr, nil) {
			o.Vals[i] = append(arr[:len(arr):len(arr)], nil)
		}
	}
	if i := indexOf(o, "const"); i >= 0 && o.Vals[i] != nil {
		o.Keys[i], o.Vals[i] = "enum", []any{o.Vals[i], nil}
	}
	return o
}

func nullSchema() *jsonx.Object {
	return &jsonx.Object{Keys: []string{"type"}, Vals: []any{"null"}}
}
