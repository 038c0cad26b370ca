package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonlex"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// This file holds what every renderer shares: errors, name and schema
// checks, the $ref resolver, the rewrite cache and the output helpers.

// Sentinel causes of a [*SchemaError]. Test for them with errors.Is.
var (
	// ErrNotStrict reports a schema that OpenAI strict mode cannot express:
	// a free-form map (additionalProperties is a schema or true), a value
	// of any type ({}), allOf/not/if/then/else, patternProperties, a type
	// array with two non-null types, and the like.
	ErrNotStrict = errors.New("schema cannot be made strict")

	// ErrSchemaLimit reports a schema over one of OpenAI strict mode's
	// documented size limits (nesting depth, property count, enum values,
	// total string length).
	ErrSchemaLimit = errors.New("schema exceeds a provider limit")

	// ErrUnsupportedSchema reports a schema a provider rejects and that the
	// renderer cannot rewrite: not valid JSON or not valid UTF-8, a key
	// repeated in one object (rewriting renderers), a root that is not
	// {"type":"object",…}, a top-level oneOf/anyOf/allOf for Anthropic, a
	// $ref that does not resolve or a cycle of $refs that never reaches a
	// schema.
	ErrUnsupportedSchema = errors.New("unsupported schema")

	// ErrUnsupportedName reports a tool name a provider rejects: for
	// OpenAI (with an error result) and Anthropic one outside
	// ^[a-zA-Z0-9_-]{1,64}$, for Gemini one outside
	// ^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$ (so also a name starting with a
	// digit or "-", which toolnexus accepts). The empty name is always one.
	ErrUnsupportedName = errors.New("tool name not accepted by the provider")
)

// SchemaError is the error a renderer returns for one tool's schema. It
// names the renderer, the tool and the JSON Pointer (RFC 6901) of the
// offending node inside the tool's InputSchema ("" is the root), e.g.
//
//	render.OpenAIStrict: tool "tag": /properties/labels: a free-form map (additionalProperties is a schema) cannot be made strict
//
// Err is one of ErrNotStrict, ErrSchemaLimit, ErrUnsupportedSchema or
// ErrHiddenRule.
type SchemaError struct {
	Renderer string // "render.OpenAIStrict", "render.Gemini", ...
	Tool     string // tool name
	Path     string // JSON Pointer into the tool's InputSchema; "" is the root
	Msg      string // what is wrong, for a person
	Err      error  // the sentinel cause
}

// Error implements error.
func (e *SchemaError) Error() string {
	path := e.Path
	if path == "" {
		path = "schema root"
	}
	return fmt.Sprintf("%s: tool %q: %s: %s", e.Renderer, e.Tool, path, e.Msg)
}

// Unwrap returns the sentinel cause, so errors.Is(err, ErrNotStrict) works.
func (e *SchemaError) Unwrap() error { return e.Err }

// withTool returns a copy of a cached rewrite error naming renderer and tool.
func withTool(err error, renderer, tool string) error {
	var se *SchemaError
	if errors.As(err, &se) {
		c := *se
		c.Renderer, c.Tool = renderer, tool
		return &c
	}
	return fmt.Errorf("%s: tool %q: %w", renderer, tool, err)
}

// pointerToken escapes one JSON Pointer reference token (RFC 6901).
func pointerToken(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '~' || s[i] == '/' {
			out := make([]byte, 0, len(s)+2)
			for j := 0; j < len(s); j++ {
				switch s[j] {
				case '~':
					out = append(out, '~', '0')
				case '/':
					out = append(out, '~', '1')
				default:
					out = append(out, s[j])
				}
			}
			return string(out)
		}
	}
	return s
}

// emptySchema is the input schema of a tool whose InputSchema is nil.
var emptySchema = json.RawMessage(`{"type":"object"}`)

func schemaOf(t *toolnexus.Tool) json.RawMessage {
	if len(t.InputSchema) == 0 {
		return emptySchema
	}
	return t.InputSchema
}

// validCache remembers checkSchemaBytes's answer per schema bytes.
var validCache rewriteCache

// schemaCheck is checkSchemaBytes cached by the bytes of s.
func schemaCheck(s []byte) error {
	_, err := validCache.get(s, func(s []byte) (json.RawMessage, error) { return nil, checkSchemaBytes(s) })
	return err
}

// checkSchemaBytes returns nil when s is valid UTF-8 holding one JSON
// object (surrounding white space allowed), else a *SchemaError wrapping
// ErrUnsupportedSchema saying what is wrong.
func checkSchemaBytes(s []byte) error {
	msg := ""
	switch {
	case !utf8.Valid(s):
		msg = "the schema is not valid UTF-8"
	case !json.Valid(s):
		msg = "the schema is not valid JSON"
	case s[jsonlex.WS(s, 0)] != '{':
		msg = "the schema is not a JSON object"
	default:
		return nil
	}
	return &SchemaError{Msg: msg, Err: ErrUnsupportedSchema}
}

// passThrough returns the bytes a pass-through renderer copies for schema
// s: s itself, or {"type":"object"} when s is not a valid UTF-8 JSON
// object (see [CheckSchemas]).
func passThrough(s json.RawMessage) json.RawMessage {
	if schemaCheck(s) != nil {
		return emptySchema
	}
	return s
}

// CheckSchemas reports the first tool whose InputSchema the pass-through
// renderers ([OpenAI], [OpenAIResponses], [MCP], Gemini with
// GeminiOptions.JSONSchema) cannot copy into their output (bytes that are
// not valid UTF-8, not valid JSON, or not a JSON object), or whose root has
// oneOf, anyOf or allOf, which OpenAI (Chat and Responses) refuses even
// outside strict mode and [OpenAI] and [OpenAIResponses] send as it is. The
// error is a *SchemaError wrapping ErrUnsupportedSchema, Renderer
// "render.CheckSchemas", naming the tool and, for a root combinator, the
// keyword as its Path ("/oneOf"). A nil or empty InputSchema is fine
// ({"type":"object"}).
//
// OpenAI, OpenAIResponses and MCP have no error result: for a schema that
// is not a valid UTF-8 JSON object they emit {"type":"object"} instead, so
// their output is always valid JSON and valid UTF-8. Call CheckSchemas
// first (or use [OpenAIWith] and [OpenAIResponsesWith], which make the
// same checks) to fail instead. A Registry refuses broken schema bytes at
// Add, so those occur only in hand-built slices. The outcome is cached by
// schema bytes.
func CheckSchemas(tools []toolnexus.Tool) error {
	for i := range tools {
		if _, err := openAIParams(schemaOf(&tools[i])); err != nil {
			return withTool(err, "render.CheckSchemas", tools[i].Name)
		}
	}
	return nil
}

// parseSchema parses schema bytes for a rewriting renderer: valid UTF-8
// JSON, no duplicate keys, root {"type":"object",…}.
func parseSchema(in []byte) (*jsonx.Object, error) {
	if !utf8.Valid(in) {
		return nil, &SchemaError{Msg: "the schema is not valid UTF-8", Err: ErrUnsupportedSchema}
	}
	tree, err := jsonx.Parse(in)
	if err != nil {
		return nil, &SchemaError{Msg: "the schema is not valid JSON: " + err.Error(), Err: ErrUnsupportedSchema}
	}
	if p, ok := duplicateKey(tree, ""); ok {
		return nil, &SchemaError{Path: p, Msg: "the key appears more than once in its object", Err: ErrUnsupportedSchema}
	}
	root, ok := tree.(*jsonx.Object)
	if !ok || !hasType(root, "object") {
		return nil, &SchemaError{Msg: `the root must be {"type":"object",…}`, Err: ErrUnsupportedSchema}
	}
	return root, nil
}

// duplicateKey returns the JSON Pointer of the first member of an object
// in v whose key appears earlier in the same object, or "" and false.
// encoding/json keeps the last of duplicate keys, other parsers the first;
// a rewritten schema would carry both, so renderers that rewrite refuse it.
func duplicateKey(v any, path string) (string, bool) {
	switch x := v.(type) {
	case *jsonx.Object:
		seen := make(map[string]bool, len(x.Keys))
		for _, k := range x.Keys {
			if seen[k] {
				return path + "/" + pointerToken(k), true
			}
			seen[k] = true
		}
		for i, k := range x.Keys {
			if p, ok := duplicateKey(x.Vals[i], path+"/"+pointerToken(k)); ok {
				return p, true
			}
		}
	case []any:
		for i, e := range x {
			if p, ok := duplicateKey(e, path+"/"+strconv.Itoa(i)); ok {
				return p, true
			}
		}
	}
	return "", false
}

// followRefs is the $ref resolver of every renderer (strict mode,
// Gemini, Anthropic's strict examples): it resolves ref against root
// (resolveRef) and, while the target is itself a local $ref, the target's
// reference, so that the chain ends in a schema. It returns the first
// target and the object schema the chain ends in (nil when it ends in a
// non-local $ref or a non-object, which the caller reports where they
// stand); a dangling reference or a cycle of references is a *SchemaError
// at path.
func followRefs(root *jsonx.Object, ref, path string) (target any, final *jsonx.Object, err error) {
	chain := []string{ref}
	var seen []*jsonx.Object
	for cur := ref; ; {
		t, err := resolveRef(root, cur)
		if err != nil {
			return nil, nil, &SchemaError{Path: path, Msg: fmt.Sprintf("the $ref %q does not resolve inside the schema: %v", cur, err), Err: ErrUnsupportedSchema}
		}
		if target == nil {
			target = t
		}
		to, ok := t.(*jsonx.Object)
		if !ok {
			return target, nil, nil
		}
		next, ok := to.Get("$ref")
		nr, isStr := next.(string)
		if !ok || !isStr || nr == "" || nr[0] != '#' {
			return target, to, nil
		}
		if slices.Contains(seen, to) {
			return nil, nil, &SchemaError{Path: path, Msg: fmt.Sprintf("the $ref %q starts a cycle of references that never reaches a schema (%s)", ref, strings.Join(chain, " → ")), Err: ErrUnsupportedSchema}
		}
		seen = append(seen, to)
		chain = append(chain, nr)
		cur = nr
	}
}

// resolveRef resolves a local JSON reference: "#" or "#/a/b" whose
// fragment is a JSON Pointer in URI fragment form (RFC 6901 §6): the
// fragment is percent-decoded first, then each reference token has "~1"
// replaced by "/" and "~0" by "~". A "~" followed by anything else, a bad
// percent escape, or a token that names nothing is an error.
func resolveRef(root any, ref string) (any, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, errors.New("it is not a local reference (#…)")
	}
	ptr, err := url.PathUnescape(frag)
	if err != nil {
		return nil, fmt.Errorf("its fragment is not validly percent-encoded (%v)", err)
	}
	if ptr == "" {
		return root, nil
	}
	if ptr[0] != '/' {
		return nil, errors.New("its fragment is neither empty nor a JSON Pointer starting with /")
	}
	cur := root
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok, err := unescapeToken(tok)
		if err != nil {
			return nil, err
		}
		switch c := cur.(type) {
		case *jsonx.Object:
			v, ok := c.Get(tok)
			if !ok {
				return nil, fmt.Errorf("there is no member %q", tok)
			}
			cur = v
		case []any:
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || n >= len(c) || (len(tok) > 1 && tok[0] == '0') {
				return nil, fmt.Errorf("%q is not an index of an array of %d", tok, len(c))
			}
			cur = c[n]
		default:
			return nil, fmt.Errorf("%q goes past a %s", tok, kindOf(c))
		}
	}
	return cur, nil
}

// unescapeToken undoes RFC 6901's "~1" and "~0" escapes, in that order.
func unescapeToken(tok string) (string, error) {
	if !strings.Contains(tok, "~") {
		return tok, nil
	}
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		if tok[i] != '~' {
			b.WriteByte(tok[i])
			continue
		}
		if i+1 < len(tok) && tok[i+1] == '0' {
			b.WriteByte('~')
		} else if i+1 < len(tok) && tok[i+1] == '1' {
			b.WriteByte('/')
		} else {
			return "", fmt.Errorf("the token %q holds a \"~\" not followed by 0 or 1 (RFC 6901)", tok)
		}
		i++
	}
	return b.String(), nil
}

// notSchema is the error for a value in a schema position that is not an
// object: a boolean schema cannot be rendered (bad wraps it for the
// renderer), any other JSON value is no schema at all.
func notSchema(v any, path string, bad func(path, msg string) error) error {
	switch v {
	case true:
		return bad(path, "the boolean schema true (any value is valid) cannot be expressed; write the schema out")
	case false:
		return bad(path, "the boolean schema false (no value is valid) cannot be expressed; remove the property or keyword")
	}
	return &SchemaError{Path: path, Msg: fmt.Sprintf("a schema must be an object or a boolean, not the %s %s", kindOf(v), jsonx.Marshal(v)), Err: ErrUnsupportedSchema}
}

// kindOf names the JSON kind of a parsed value, for messages.
func kindOf(v any) string {
	switch v.(type) {
	case *jsonx.Object:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// jsonTypes are the JSON Schema type names.
var jsonTypes = map[string]bool{
	"string": true, "number": true, "integer": true, "boolean": true, "array": true, "object": true, "null": true,
}

func hasType(o *jsonx.Object, want string) bool {
	t, _ := o.Get("type")
	switch t := t.(type) {
	case string:
		return t == want
	case []any:
		for _, e := range t {
			if e == want {
				return true
			}
		}
	}
	return false
}

func hasKey(o *jsonx.Object, k string) bool {
	_, ok := o.Get(k)
	return ok
}

func indexOf(o *jsonx.Object, key string) int {
	for i, k := range o.Keys {
		if k == key {
			return i
		}
	}
	return -1
}

func containsValue(arr []any, v any) bool {
	for _, e := range arr {
		if e == v {
			return true
		}
	}
	return false
}

// base64Hint states contentEncoding base64, which a typed tool's []byte
// field carries and its decoder holds the model to, where a rendering
// drops the keyword.
const base64Hint = "Base64-encoded."

// addSentence appends the sentence s to the description of out, creating
// it when there is none.
func addSentence(out *jsonx.Object, s string) {
	if d, ok := out.Get("description"); ok {
		if desc, _ := d.(string); desc != "" {
			s = sentence(desc, s)
		}
	}
	out.Set("description", s)
}

// sentence appends the sentence add to the text desc, ending desc with a
// period first when it has no final punctuation.
func sentence(desc, add string) string {
	desc = strings.TrimRight(desc, " ")
	if strings.HasSuffix(desc, ".") || strings.HasSuffix(desc, "!") || strings.HasSuffix(desc, "?") {
		return desc + " " + add
	}
	return desc + ". " + add
}

// ToolSearchSchema is the parameters of the client-executed tool search
// tool: one required string "query", the words to look for in tool names
// and descriptions.
const ToolSearchSchema = `{"type":"object","properties":{"query":{"type":"string","description":"Words to look for in tool names and descriptions"}},"required":["query"],"additionalProperties":false}`

const defaultToolSearchDescription = "Search the deferred tools by name and description and load the ones that match."

// rewriteCache remembers the rewritten form of schemas, keyed by the schema
// bytes themselves (not by pointer), so a cached answer can never be stale:
// a caller that reuses or modifies a buffer simply misses. Lookups of
// m[string(b)] do not allocate. The cache holds at most maxCached entries
// per rewrite; when full it is emptied and refilled.
//
// Rewritten schemas handed out from the cache are shared by every caller;
// like Tool.InputSchema they must be treated as read-only.
type rewriteCache struct {
	mu sync.RWMutex
	m  map[string]rewritten
}

type rewritten struct {
	out   json.RawMessage // the rewritten schema; nil for "omit" (Gemini no-argument tool)
	stats strictStats     // a strict rewrite's counts
	keys  *renames        // a key renaming's renames (nil: none)
	err   error           // a *SchemaError without Renderer and Tool
}

const maxCached = 1024

// get returns the cached rewrite of in, rewriting it on a miss.
func (c *rewriteCache) get(in []byte, rewrite func([]byte) (json.RawMessage, error)) (json.RawMessage, error) {
	r := c.entry(in, func(in []byte) rewritten {
		out, err := rewrite(in)
		return rewritten{out: out, err: err}
	})
	return r.out, r.err
}

// entry is get for a rewrite with more to remember than its output.
func (c *rewriteCache) entry(in []byte, rewrite func([]byte) rewritten) rewritten {
	c.mu.RLock()
	r, ok := c.m[string(in)]
	c.mu.RUnlock()
	if ok {
		return r
	}
	r = rewrite(in)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCached {
		c.m = make(map[string]rewritten)
	}
	c.m[string(in)] = r
	c.mu.Unlock()
	return r
}

// The MarshalJSON methods write into one buffer sized from the prepared
// bytes (names, descriptions, schemas) instead of growing an empty one:
// json.Marshal of a render then costs about what json.Marshal of the same
// entries already built does (render/bench_test.go measures both). The
// size is an estimate with room for escaping; an entry it underrates only
// makes the buffer grow.

// entryOverhead covers one entry's fixed keys, quotes and punctuation.
const entryOverhead = 112

// strSize is room for s as a JSON string, with some escapes.
func strSize(s string) int { return len(s) + len(s)/16 + 2 }

// schemaSize is room for a schema's bytes, or the empty schema written
// in their place.
func schemaSize(s []byte) int { return max(len(s), len(openAIEmptySchema)) }

// sizedEntry is an entry type whose MarshalJSON sizes its buffer.
type sizedEntry interface {
	AppendJSON([]byte) []byte
	size() int
}

// marshalList is the MarshalJSON of a list: the JSON array of the
// entries, written into one buffer sized for all of them.
func marshalList[T sizedEntry](ts []T) []byte {
	n := 2
	for i := range ts {
		n += ts[i].size() + 1
	}
	return appendList(make([]byte, 0, n), ts)
}

// marshalEntry is the MarshalJSON of one entry.
func marshalEntry[T sizedEntry](t T) []byte { return t.AppendJSON(make([]byte, 0, t.size())) }

// appendList appends a JSON array of entries, each written by its own
// AppendJSON.
func appendList[T interface{ AppendJSON([]byte) []byte }](dst []byte, ts []T) []byte {
	dst = append(dst, '[')
	for i := range ts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = ts[i].AppendJSON(dst)
	}
	return append(dst, ']')
}

// appendSchema appends raw schema bytes, {"type":"object"} when empty.
func appendSchema(dst []byte, s json.RawMessage) []byte {
	if len(s) == 0 {
		return append(dst, emptySchema...)
	}
	return append(dst, s...)
}

// appendCallers appends `,"allowed_callers":[…]` when callers is not nil.
func appendCallers(dst []byte, callers []string) []byte {
	if callers == nil {
		return dst
	}
	dst = append(dst, `,"allowed_callers":[`...)
	for i, c := range callers {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, c)
	}
	return append(dst, ']')
}
