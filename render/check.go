package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// checkName returns an error wrapping ErrUnsupportedName unless name
// matches ^[a-zA-Z0-9_-]{1,64}$, the tool name pattern OpenAI
// (function.name) and Anthropic (tools[].name) document.
func checkName(renderer, name string) error {
	if err := toolnexus.CheckName(name); err != nil {
		return fmt.Errorf("%s: tool %q: the name must match ^[a-zA-Z0-9_-]{1,64}$: %w", renderer, name, ErrUnsupportedName)
	}
	return nil
}

// GeminiMaxNameLength is the longest function name [Gemini] accepts, in
// bytes: 64, the limit in the Gemini API's error message and the Vertex AI
// FunctionDeclaration docs (the genai v1.77 Go comment says 128; the
// stricter figure is used).
const GeminiMaxNameLength = 64

// checkGeminiName enforces Gemini's FunctionDeclaration name rule: start
// with a letter or an underscore, then letters, digits, '_', '.', ':' or
// '-', at most GeminiMaxNameLength bytes.
func checkGeminiName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("render.Gemini: tool %q: %s: %w", name, why, ErrUnsupportedName)
	}
	if name == "" {
		return bad("the name is empty")
	}
	if len(name) > GeminiMaxNameLength {
		return bad(fmt.Sprintf("the name is %d bytes, more than Gemini's %d", len(name), GeminiMaxNameLength))
	}
	if c := name[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
		return bad("Gemini function names must start with a letter or an underscore")
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == ':' || c == '-') {
			return bad(fmt.Sprintf("byte %d (%q) is not one of [a-zA-Z0-9_.:-]", i, rune(c)))
		}
	}
	return nil
}

// validCache remembers, per schema content, whether schema bytes may be
// copied into output as they are (see checkSchemaBytes).
var validCache struct {
	mu sync.RWMutex
	m  map[string]string // schema bytes -> "" when valid, else what is wrong
}

// schemaProblem returns "" when s is valid UTF-8 holding one JSON object
// (surrounding white space allowed), or a description of what is wrong.
// The answer is cached by the bytes of s, like the rewrite caches.
func schemaProblem(s []byte) string {
	validCache.mu.RLock()
	msg, ok := validCache.m[string(s)]
	validCache.mu.RUnlock()
	if ok {
		return msg
	}
	msg = checkSchemaBytes(s)
	validCache.mu.Lock()
	if validCache.m == nil || len(validCache.m) >= maxCached {
		validCache.m = make(map[string]string)
	}
	validCache.m[string(s)] = msg
	validCache.mu.Unlock()
	return msg
}

func checkSchemaBytes(s []byte) string {
	switch {
	case !utf8.Valid(s):
		return "the schema is not valid UTF-8"
	case !json.Valid(s):
		return "the schema is not valid JSON"
	}
	if i := skipSpace(s, 0); s[i] != '{' {
		return "the schema is not a JSON object"
	}
	return ""
}

// passThroughAll calls set(i, passThrough(&tools[i])) for every tool,
// holding the cache's read lock once for the whole list rather than once
// per tool (the renderers' hot path).
func passThroughAll(tools []toolnexus.Tool, set func(i int, s json.RawMessage)) {
	miss := false
	validCache.mu.RLock()
	for i := range tools {
		s := schemaOf(&tools[i])
		msg, ok := validCache.m[string(s)]
		if !ok {
			miss = true
			continue
		}
		if msg != "" {
			s = emptySchema
		}
		set(i, s)
	}
	validCache.mu.RUnlock()
	if miss {
		for i := range tools {
			set(i, passThrough(&tools[i]))
		}
	}
}

// passThrough returns the bytes a pass-through renderer copies for t:
// its InputSchema, or {"type":"object"} when that is empty or not a valid
// UTF-8 JSON object (see [CheckSchemas]).
func passThrough(t *toolnexus.Tool) json.RawMessage {
	s := schemaOf(t)
	if schemaProblem(s) != "" {
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
		one := tools[i : i+1]
		if err := checkSchemas(one, "render.CheckSchemas"); err != nil {
			return err
		}
		if err := checkOpenAIRoots(one, "render.CheckSchemas"); err != nil {
			return err
		}
	}
	return nil
}

func checkSchemas(tools []toolnexus.Tool, renderer string) error {
	for i := range tools {
		if msg := schemaProblem(schemaOf(&tools[i])); msg != "" {
			return &SchemaError{Renderer: renderer, Tool: tools[i].Name, Msg: msg, Err: ErrUnsupportedSchema}
		}
	}
	return nil
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

// duplicateKey returns the JSON Pointer of the first member of an object
// in v whose key appears earlier in the same object, or "" and false.
// encoding/json keeps the last of duplicate keys, other parsers the first;
// a rewritten schema would carry both, so renderers that rewrite refuse it.
func duplicateKey(v any, path string) (string, bool) {
	switch x := v.(type) {
	case *jsonx.Object:
		var seen map[string]bool
		if len(x.Keys) > 8 {
			seen = make(map[string]bool, len(x.Keys))
		}
		for i, k := range x.Keys {
			if seen != nil {
				if seen[k] {
					return path + "/" + pointerToken(k), true
				}
				seen[k] = true
			} else {
				for _, e := range x.Keys[:i] {
					if e == k {
						return path + "/" + pointerToken(k), true
					}
				}
			}
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
