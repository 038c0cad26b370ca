package render

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// TestGeminiGoldenAllowlist walks every Gemini golden file and fails on any
// schema keyword outside GeminiKeywords, and on every other Gemini
// "parameters" rule: upper-case types, string-only enums on STRING, only
// date-time/enum formats, no empty properties, required ⊆ properties, an
// ARRAY always has items, every node has a type or anyOf, no no-argument
// parameters.
func TestGeminiGoldenAllowlist(t *testing.T) {
	for _, file := range goldenFiles(t, "gemini") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			var v []struct {
				FunctionDeclarations []map[string]json.RawMessage `json:"functionDeclarations"`
			}
			readJSON(t, file, &v)
			require.Len(t, v, 1, "%d tools, want exactly 1", len(v))
			for _, d := range v[0].FunctionDeclarations {
				for k := range d {
					assert.False(t, k != "name" && k != "description" && k != "parameters", "declaration key %q", k)
				}
				p, ok := d["parameters"]
				if !ok {
					continue
				}
				tree, err := jsonx.Parse(p)
				require.NoError(t, err)
				root := tree.(*jsonx.Object)
				typ, _ := root.Get("type")
				assert.Equal(t, "OBJECT", typ, "root type %v, want OBJECT", typ)
				assert.True(t, hasKey(root, "properties"), "parameters without properties: a no-argument tool must omit parameters")
				assert.Empty(t, checkGeminiNode(root, ""))
			}
		})
	}
}

var geminiTypes = []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}

func checkGeminiNode(v any, path string) []string {
	o, ok := v.(*jsonx.Object)
	if !ok {
		return []string{fmt.Sprintf("%s: schema is %s, not an object", path, jsonx.Marshal(v))}
	}
	var errs []string
	bad := func(f string, a ...any) { errs = append(errs, path+": "+fmt.Sprintf(f, a...)) }
	for _, k := range o.Keys {
		if !slices.Contains(GeminiKeywords(), k) {
			bad("keyword %q is not in the Gemini allowlist", k)
		}
	}
	typ, hasType := o.Get("type")
	_, hasAnyOf := o.Get("anyOf")
	if !hasType && !hasAnyOf {
		bad("neither type nor anyOf")
	}
	if hasType && !slices.Contains(geminiTypes, fmt.Sprint(typ)) {
		bad("type %v is not one of %v", typ, geminiTypes)
	}
	if e, ok := o.Get("enum"); ok {
		if typ != "STRING" {
			bad("enum on type %v; Gemini allows enum only for STRING", typ)
		}
		for _, x := range e.([]any) {
			if _, ok := x.(string); !ok {
				bad("enum value %s is not a string", jsonx.Marshal(x))
			}
		}
	}
	if f, ok := o.Get("format"); ok && f != "date-time" && f != "enum" {
		bad("format %v; Gemini takes only date-time and enum", f)
	}
	if typ == "ARRAY" && !hasKey(o, "items") {
		bad("ARRAY without items")
	}
	if n, ok := o.Get("nullable"); ok && n != true {
		bad("nullable is %v", n)
	}
	var names []string
	if p, ok := o.Get("properties"); ok {
		po := p.(*jsonx.Object)
		if len(po.Keys) == 0 {
			bad("empty properties")
		}
		for i, name := range po.Keys {
			names = append(names, name)
			errs = append(errs, checkGeminiNode(po.Vals[i], path+"/properties/"+name)...)
		}
	}
	if r, ok := o.Get("required"); ok {
		for _, x := range r.([]any) {
			if !slices.Contains(names, x.(string)) {
				bad("required %q is not in properties", x)
			}
		}
	}
	if it, ok := o.Get("items"); ok {
		errs = append(errs, checkGeminiNode(it, path+"/items")...)
	}
	if a, ok := o.Get("anyOf"); ok {
		for i, x := range a.([]any) {
			errs = append(errs, checkGeminiNode(x, fmt.Sprintf("%s/anyOf/%d", path, i))...)
		}
	}
	return errs
}

// TestStrictGoldenRules walks every strict golden file (Chat and Responses)
// and checks OpenAI's strict rules at every level of every tool marked
// "strict":true. Tools marked "strict":false must be exactly the cases that
// cannot be made strict.
func TestStrictGoldenRules(t *testing.T) {
	notStrictable := []string{"map_field"}
	for _, dir := range []string{"openai_strict", "openai_responses_strict"} {
		for _, file := range goldenFiles(t, dir) {
			t.Run(dir+"/"+filepath.Base(file), func(t *testing.T) {
				var raw []json.RawMessage
				readJSON(t, file, &raw)
				for _, e := range raw {
					var entry struct {
						Function *struct {
							Parameters json.RawMessage `json:"parameters"`
							Strict     *bool           `json:"strict"`
						} `json:"function"`
						Parameters json.RawMessage `json:"parameters"`
						Strict     *bool           `json:"strict"`
					}
					require.NoError(t, json.Unmarshal(e, &entry))
					params, strict := entry.Parameters, entry.Strict
					if entry.Function != nil {
						params, strict = entry.Function.Parameters, entry.Function.Strict
					}
					require.False(t, strict == nil, `no explicit "strict"`)
					name := strings.TrimSuffix(filepath.Base(file), ".json")
					want := !slices.Contains(notStrictable, name)
					require.Equal(t, want, *strict, "strict is %v, want %v", *strict, want)
					if !*strict {
						continue
					}
					tree, err := jsonx.Parse(params)
					require.NoError(t, err)
					assert.Empty(t, checkStrictNode(tree, "", 0))
				}
			})
		}
	}
}

func checkStrictNode(v any, path string, depth int) []string {
	o, ok := v.(*jsonx.Object)
	if !ok {
		return []string{fmt.Sprintf("%s: boolean schema %s", path, jsonx.Marshal(v))}
	}
	var errs []string
	bad := func(f string, a ...any) { errs = append(errs, path+": "+fmt.Sprintf(f, a...)) }
	for _, k := range o.Keys {
		if slices.Contains(openAIStrictRules.Rejected, k) || k == "oneOf" || k == "default" || k == "uniqueItems" || k == "$schema" {
			bad("keyword %q is not allowed in strict mode", k)
		}
	}
	var types []any
	switch t := func() any { x, _ := o.Get("type"); return x }().(type) {
	case string:
		types = []any{t}
	case []any:
		types = t
		if len(t) != 2 || !slices.Contains(t, any("null")) {
			bad("type array %s is not [T, \"null\"]", jsonx.Marshal(t))
		}
	}
	if len(types) == 0 && !hasKey(o, "$ref") && !hasKey(o, "anyOf") && !hasKey(o, "enum") {
		bad("no type, $ref, anyOf or enum")
	}
	if hasKey(o, "$ref") && len(o.Keys) != 1 {
		bad("$ref with sibling keys %v", o.Keys)
	}
	if f, ok := o.Get("format"); ok && !slices.Contains(openAIStrictRules.Formats, f.(string)) {
		bad("format %v is not supported in strict mode", f)
	}
	if slices.Contains(types, any("object")) {
		depth++
		if depth > StrictMaxDepth {
			bad("%d levels of nesting", depth)
		}
		if ap, ok := o.Get("additionalProperties"); !ok || ap != false {
			bad("additionalProperties is %v, want false", ap)
		}
		p, ok := o.Get("properties")
		if !ok {
			bad("object without properties")
			return errs
		}
		po := p.(*jsonx.Object)
		r, _ := o.Get("required")
		req, _ := r.([]any)
		if len(req) != len(po.Keys) {
			bad("required %s does not list all properties %v", jsonx.Marshal(r), po.Keys)
		}
		for i, name := range po.Keys {
			if i < len(req) && req[i] != name {
				bad("required[%d] is %v, want %q (property order)", i, req[i], name)
			}
			errs = append(errs, checkStrictNode(po.Vals[i], path+"/properties/"+name, depth)...)
		}
	} else if hasKey(o, "properties") || hasKey(o, "required") || hasKey(o, "additionalProperties") {
		bad("object keywords on a non-object schema")
	}
	if slices.Contains(types, any("array")) && !hasKey(o, "items") {
		bad("array without items")
	}
	if e, ok := o.Get("enum"); ok && slices.Contains(types, any("null")) && !slices.Contains(e.([]any), nil) {
		bad("nullable type but null is not in the enum")
	}
	if it, ok := o.Get("items"); ok {
		errs = append(errs, checkStrictNode(it, path+"/items", depth)...)
	}
	if a, ok := o.Get("anyOf"); ok {
		for i, x := range a.([]any) {
			errs = append(errs, checkStrictNode(x, fmt.Sprintf("%s/anyOf/%d", path, i), depth)...)
		}
	}
	if d, ok := o.Get("$defs"); ok {
		do := d.(*jsonx.Object)
		for i, name := range do.Keys {
			errs = append(errs, checkStrictNode(do.Vals[i], path+"/$defs/"+name, 0)...)
		}
	}
	return errs
}

func readJSON(t *testing.T, file string, v any) {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v), "%s", file)
}
