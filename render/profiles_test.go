package render

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/golden"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// rendered is one tool as a profile's renderer sent it.
type rendered struct {
	schema json.RawMessage // nil for a Gemini tool without parameters
	strict bool
}

// renderAs renders tools with the renderer and options of profile p.
func renderAs(p *Profile, tools []toolnexus.Tool, rename, fallback bool) ([]rendered, error) {
	var out []rendered
	switch p {
	case profileOpenAIChat, profileOpenAIChatStrict:
		r, err := OpenAIWith(tools, OpenAIOptions{Strict: p.Strict != nil, Fallback: fallback})
		for _, e := range r {
			out = append(out, rendered{e.Function.Parameters, e.Function.Strict != nil && *e.Function.Strict})
		}
		return out, err
	case profileResponses, profileResponsesStrict:
		r, err := OpenAIResponsesWith(tools, OpenAIOptions{Strict: p.Strict != nil, Fallback: fallback})
		for _, e := range r {
			out = append(out, rendered{e.Parameters, e.Strict})
		}
		return out, err
	case profileAnthropic, profileAnthropicStrict:
		r, err := AnthropicWith(tools, AnthropicOptions{Strict: p.Strict != nil, Fallback: fallback, RenameKeys: rename})
		for _, e := range r {
			out = append(out, rendered{e.InputSchema, e.Strict})
		}
		return out, err
	case profileGemini, profileGeminiJSONSchema:
		r, err := GeminiWith(tools, GeminiOptions{JSONSchema: p == profileGeminiJSONSchema, RenameKeys: rename})
		if err != nil {
			return nil, err
		}
		for _, d := range r[0].FunctionDeclarations {
			out = append(out, rendered{schema: append(d.Parameters, d.ParametersJSONSchema...)})
		}
		return out, nil
	case profileMCP:
		if err := renderProfile(p, tools, CheckOptions{}); err != nil {
			return nil, err
		}
		for _, e := range MCP(tools) {
			out = append(out, rendered{schema: e.InputSchema})
		}
		return out, nil
	}
	panic("no renderer for profile " + p.Name)
}

// longest is the longest name of c repeated that rule matches (0: none up
// to 1000).
func longest(rule Pattern, c string) int {
	n := 0
	for i := 1; i <= 1000; i++ {
		if rule.Match(strings.Repeat(c, i)) {
			n = i
		}
	}
	return n
}

func schemaTool(name, schema string) toolnexus.Tool {
	return toolnexus.Tool{Name: name, Description: "d", InputSchema: json.RawMessage(schema),
		Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil })}
}

// propSchema is an object schema with one required property a.
func propSchema(a string) string {
	return `{"type":"object","properties":{"a":` + a + `},"required":["a"]}`
}

// propOut returns property a of a rendered schema, as a tree.
func propOut(t *testing.T, schema json.RawMessage) *jsonx.Object {
	t.Helper()
	tree, err := jsonx.Parse(schema)
	require.NoError(t, err)
	props, _ := tree.(*jsonx.Object).Get("properties")
	a, _ := props.(*jsonx.Object).Get("a")
	return a.(*jsonx.Object)
}

// TestProfileRules is one generated test per rule of every profile: a
// tool just inside the rule renders unchanged, one just outside is refused
// or adapted as the profile documents.
func TestProfileRules(t *testing.T) {
	for _, p := range profiles {
		t.Run(p.Name, func(t *testing.T) {
			t.Run("ToolName", func(t *testing.T) {
				n := longest(p.ToolName, "a")
				require.Positive(t, n, "the rule %s matches no name of a's", p.ToolName.Regexp)
				_, err := renderAs(p, []toolnexus.Tool{{Name: strings.Repeat("a", n)}}, false, false)
				assert.NoError(t, err, "inside")
				for _, bad := range []string{strings.Repeat("a", n+1), "a b", "a[b]"} {
					_, err = renderAs(p, []toolnexus.Tool{{Name: bad}}, false, false)
					assert.ErrorIs(t, err, ErrUnsupportedName, "outside: %q", bad)
				}
			})
			if p.PropertyKey.first != nil {
				t.Run("PropertyKey", func(t *testing.T) { testPropertyKey(t, p) })
			}
			if r := p.Root; len(r.Refused) > 0 || r.Object {
				t.Run("Root", func(t *testing.T) {
					_, err := renderAs(p, []toolnexus.Tool{schemaTool("t", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`)}, false, false)
					assert.NoError(t, err, "inside: anyOf below the root")
					for _, k := range r.Refused {
						_, err := renderAs(p, []toolnexus.Tool{schemaTool("t", `{"type":"object","properties":{"a":{"type":"string"}},"`+k+`":[{"required":["a"]}]}`)}, false, false)
						assert.ErrorIs(t, err, ErrUnsupportedSchema, "outside: root %s", k)
					}
					if r.Object {
						_, err := renderAs(p, []toolnexus.Tool{schemaTool("t", `{"properties":{"a":{"type":"string"}}}`)}, false, false)
						assert.ErrorIs(t, err, ErrUnsupportedSchema, "outside: no root type")
					}
				})
			}
			if m := p.MaxTools.Max; m > 0 {
				t.Run("MaxTools", func(t *testing.T) { tooMany(t, p, m) })
			}
			if m := p.MaxDescription.Max; m > 0 {
				t.Run("MaxDescription", func(t *testing.T) {
					_, err := renderAs(p, []toolnexus.Tool{{Name: "t", Description: strings.Repeat("é", m)}}, false, false)
					assert.NoError(t, err, "inside")
					_, err = renderAs(p, []toolnexus.Tool{{Name: "t", Description: strings.Repeat("é", m+1)}}, false, false)
					assert.ErrorIs(t, err, ErrSchemaLimit, "outside")
				})
			}
			if p.Strict != nil {
				testStrictRules(t, p)
			}
		})
	}
}

// tooMany renders m tools (no error) and m+1 (ErrTooManyTools) for p and
// returns the m+1.
func tooMany(t *testing.T, p *Profile, m int) []toolnexus.Tool {
	t.Helper()
	tools := make([]toolnexus.Tool, m+1)
	for i := range tools {
		tools[i] = toolnexus.Tool{Name: fmt.Sprintf("t%d", i)}
	}
	_, err := renderAs(p, tools[:m], false, false)
	assert.NoError(t, err, "inside")
	_, err = renderAs(p, tools, false, false)
	assert.ErrorIs(t, err, ErrTooManyTools, "outside")
	return tools
}

// testPropertyKey: the longest key the rule takes passes unchanged; one
// character more, a refused character and a refused start are errors
// without RenameKeys, renamed within the rule with it, and RestoreKeys
// maps arguments with the new keys back.
func testPropertyKey(t *testing.T, p *Profile) {
	n := longest(p.PropertyKey, "k")
	require.Positive(t, n)
	inside := strings.Repeat("k", n)
	s := `{"type":"object","properties":{"` + inside + `":{"type":"string"}}}`
	out, err := renderAs(p, []toolnexus.Tool{schemaTool("t", s)}, false, false)
	require.NoError(t, err, "inside")
	assert.Contains(t, string(out[0].schema), `"`+inside+`"`)
	for _, bad := range []string{strings.Repeat("k", n+1), "filter[status]", "$top", "9lives", "page size"} {
		if p.PropertyKey.Match(bad) {
			continue // "9lives" for Anthropic
		}
		tool := schemaTool("t", `{"type":"object","properties":{"`+bad+`":{"type":"string"},"other":{"type":"object","properties":{"`+bad+`":{"type":"integer"}}}},"required":["`+bad+`"]}`)
		_, err := renderAs(p, []toolnexus.Tool{tool}, false, false)
		assert.ErrorIs(t, err, ErrPropertyKey, "outside %q", bad)
		out, err := renderAs(p, []toolnexus.Tool{tool}, true, false)
		require.NoError(t, err, "renamed %q", bad)
		var got struct {
			Properties map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		require.NoError(t, json.Unmarshal(out[0].schema, &got))
		var renamed string
		for k := range got.Properties {
			if !strings.EqualFold(k, "other") {
				renamed = k
			}
		}
		assert.True(t, p.PropertyKey.Match(renamed), "renamed %q to %q, outside %s", bad, renamed, p.PropertyKey.Regexp)
		assert.Contains(t, got.Properties["other"].Properties, renamed, "the nested key is renamed the same way")
		assert.Equal(t, []string{renamed}, got.Required)
		args := `{"` + renamed + `":"x","other":{"` + renamed + `":1}}`
		back, _ := RestoreKeys(p.Name, &tool, json.RawMessage(args))
		want, _ := json.Marshal(map[string]any{bad: "x", "other": map[string]any{bad: 1}})
		assert.JSONEq(t, string(want), string(back), "restored %s", args)
	}
}

// testStrictRules generates the cases of the strict subset of p.
func testStrictRules(t *testing.T, p *Profile) {
	r := p.Strict
	one := func(schema string) ([]rendered, error) {
		return renderAs(p, []toolnexus.Tool{schemaTool("t", schema)}, false, false)
	}
	bounds := map[string]string{
		"minimum": `{"type":"integer","minimum":1}`, "exclusiveMinimum": `{"type":"integer","exclusiveMinimum":1}`,
		"maximum": `{"type":"integer","maximum":9}`, "exclusiveMaximum": `{"type":"integer","exclusiveMaximum":9}`,
		"multipleOf": `{"type":"integer","multipleOf":3}`, "minLength": `{"type":"string","minLength":2}`,
		"maxLength": `{"type":"string","maxLength":8}`, "pattern": `{"type":"string","pattern":"^a+$"}`,
		"maxItems":      `{"type":"array","items":{"type":"string"},"maxItems":4}`,
		"uniqueItems":   `{"type":"array","items":{"type":"string"},"uniqueItems":true}`,
		"minProperties": `{"type":"object","properties":{"x":{"type":"string"}},"minProperties":1}`,
		"maxProperties": `{"type":"object","properties":{"x":{"type":"string"}},"maxProperties":1}`,
	}
	for _, b := range boundHints {
		if b.keyword == "minItems" {
			continue // below, with MaxMinItems
		}
		t.Run("Keyword/"+b.keyword, func(t *testing.T) {
			out, err := one(propSchema(bounds[b.keyword]))
			require.NoError(t, err)
			a := propOut(t, out[0].schema)
			d, _ := a.Get("description")
			if strings.Contains(","+strings.Join(r.Keywords, ",")+",", ","+b.keyword+",") {
				assert.True(t, hasKey(a, b.keyword), "%s is kept: %s", b.keyword, out[0].schema)
				assert.Nil(t, d)
			} else {
				assert.False(t, hasKey(a, b.keyword), "%s is dropped: %s", b.keyword, out[0].schema)
				assert.Contains(t, d, strings.TrimSuffix(b.before, " "), "%s is stated as a hint", b.keyword)
			}
		})
	}
	t.Run("MaxMinItems", func(t *testing.T) {
		for _, n := range []int{1, 2, 5} {
			out, err := one(propSchema(fmt.Sprintf(`{"type":"array","items":{"type":"string"},"minItems":%d}`, n)))
			require.NoError(t, err)
			a := propOut(t, out[0].schema)
			kept := r.MaxMinItems < 0 || n <= r.MaxMinItems
			assert.Equal(t, kept, hasKey(a, "minItems"), "minItems %d", n)
			if !kept {
				d, _ := a.Get("description")
				assert.Equal(t, fmt.Sprintf("At least %d items.", n), d)
			}
		}
	})
	t.Run("Formats", func(t *testing.T) {
		for f := range assertedFormats {
			out, err := one(propSchema(`{"type":"string","format":"` + f + `"}`))
			require.NoError(t, err)
			a := propOut(t, out[0].schema)
			if strings.Contains(","+strings.Join(r.Formats, ",")+",", ","+f+",") {
				v, _ := a.Get("format")
				assert.Equal(t, f, v)
			} else {
				assert.False(t, hasKey(a, "format"), "format %s", f)
				d, _ := a.Get("description")
				assert.Equal(t, "Format: "+f+".", d)
			}
		}
	})
	t.Run("Rejected", func(t *testing.T) {
		for _, k := range r.Rejected {
			s := propSchema(`{"type":"string","` + k + `":{}}`)
			_, err := one(s)
			assert.ErrorIs(t, err, ErrNotStrict, "%s", k)
			out, err := renderAs(p, []toolnexus.Tool{schemaTool("t", s)}, false, true)
			require.NoError(t, err, "%s with Fallback", k)
			assert.False(t, out[0].strict, "%s with Fallback", k)
		}
	})
	t.Run("Recursive", func(t *testing.T) {
		_, err := one(`{"type":"object","properties":{"name":{"type":"string"},"child":{"$ref":"#"}},"required":["name"]}`)
		if r.Recursive {
			assert.NoError(t, err)
		} else {
			assert.ErrorIs(t, err, ErrNotStrict)
		}
	})
	t.Run("Optional", func(t *testing.T) {
		out, err := one(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"]}`)
		require.NoError(t, err)
		var got struct {
			Required []string `json:"required"`
		}
		require.NoError(t, json.Unmarshal(out[0].schema, &got))
		if r.Optional {
			assert.Equal(t, []string{"a"}, got.Required)
		} else {
			assert.Equal(t, []string{"a", "b"}, got.Required)
			assert.Contains(t, string(out[0].schema), `"b":{"type":["string","null"]}`)
		}
	})
	limit := func(name string, l Limit, at func(n int) string, want error) {
		if l.Max == 0 {
			return
		}
		t.Run(name, func(t *testing.T) {
			_, err := one(at(l.Max))
			assert.NoError(t, err, "inside: %d", l.Max)
			_, err = one(at(l.Max + 1))
			assert.ErrorIs(t, err, want, "outside: %d", l.Max+1)
		})
	}
	limit("MaxDepth", r.MaxDepth, func(n int) string {
		s := `{"type":"object","properties":{}}`
		for i := 1; i < n; i++ {
			s = `{"type":"object","properties":{"o":` + s + `}}`
		}
		return s
	}, ErrSchemaLimit)
	limit("MaxProperties", r.MaxProperties, func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"p%d":{"type":"string"}`, i)
		}
		return `{"type":"object","properties":{` + b.String() + `}}`
	}, ErrSchemaLimit)
	limit("MaxEnumValues", r.MaxEnumValues, func(n int) string {
		vals := make([]string, n)
		for i := range vals {
			vals[i] = fmt.Sprint(i)
		}
		return propSchema(`{"type":"integer","enum":[` + strings.Join(vals, ",") + `]}`)
	}, ErrSchemaLimit)
	limit("MaxStringLength", r.MaxStringLength, func(n int) string {
		// the property name "a" and ten values totalling n-1 characters
		vals := make([]string, 10)
		rest := n - 1
		for i := range vals {
			l := rest / (10 - i)
			vals[i] = `"` + fmt.Sprint(i) + strings.Repeat("x", l-1) + `"`
			rest -= l
		}
		return propSchema(`{"type":"string","enum":[` + strings.Join(vals, ",") + `]}`)
	}, ErrSchemaLimit)
	limit("LargeEnumLength", r.LargeEnumLength, func(n int) string {
		// LargeEnum+1 values totalling n characters
		vals := []string{`""`}
		rest := n
		m := r.LargeEnum.Max
		for i := range m {
			l := rest / (m - i)
			vals = append(vals, fmt.Sprintf(`"%0*d"`, l, i))
			rest -= l
		}
		return propSchema(`{"type":"string","enum":[` + strings.Join(vals, ",") + `]}`)
	}, ErrSchemaLimit)
	optional := func(n int, typ string, required bool) string {
		var b, req strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
				req.WriteByte(',')
			}
			fmt.Fprintf(&b, `"p%d":{"type":%s}`, i, typ)
			fmt.Fprintf(&req, `"p%d"`, i)
		}
		s := `{"type":"object","properties":{` + b.String() + `}`
		if required {
			s += `,"required":[` + req.String() + `]`
		}
		return s + `}`
	}
	limit("MaxOptional", r.MaxOptional, func(n int) string { return optional(n, `"string"`, false) }, ErrSchemaLimit)
	limit("MaxUnions", r.MaxUnions, func(n int) string { return optional(n, `["string","null"]`, true) }, ErrSchemaLimit)
	if m := r.MaxStrictTools.Max; m > 0 {
		t.Run("MaxStrictTools", func(t *testing.T) {
			tools := tooMany(t, p, m)
			out, err := renderAs(p, tools, false, true)
			require.NoError(t, err, "Fallback")
			assert.True(t, out[m-1].strict)
			assert.False(t, out[m].strict, "the tool past the limit is sent without strict")
		})
	}
}

// TestCheck: render.Check refuses at registration what a target profile
// would refuse, naming the profile's rule, and passes a tool every target
// takes; an unknown profile name fails every check.
func TestCheck(t *testing.T) {
	reg := toolnexus.NewRegistryWith(&toolnexus.Options{CheckTool: Check("openai-chat-strict", "anthropic")})
	ok := schemaTool("fine", `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)
	require.NoError(t, reg.Add(ok))
	err := reg.Add(schemaTool("odata", `{"type":"object","properties":{"$top":{"type":"integer"}}}`))
	require.ErrorIs(t, err, ErrPropertyKey)
	assert.Contains(t, err.Error(), `tool "odata" refused by Options.CheckTool`)
	assert.Contains(t, err.Error(), `render.AnthropicWith: tool "odata": /properties/$top: the property key "$top" does not match ^[a-zA-Z0-9_.-]{1,64}$`)
	err = reg.Add(schemaTool("mapper", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`))
	require.ErrorIs(t, err, ErrNotStrict)
	assert.Contains(t, err.Error(), `/properties/m/additionalProperties: a free-form map`)
	_, found := reg.Get("odata")
	assert.False(t, found)

	err = Check("openai-chat", "nope")(ok)
	require.EqualError(t, err, `render.Check: no profile named "nope" (the profiles: openai-chat, openai-chat-strict, openai-responses, openai-responses-strict, anthropic, anthropic-strict, gemini, gemini-json-schema, mcp)`)

	// A program that renders with RenameKeys and Fallback registers both.
	adapt := toolnexus.NewRegistryWith(&toolnexus.Options{CheckTool: CheckWith(CheckOptions{RenameKeys: true, Fallback: true}, "openai-chat-strict", "anthropic-strict", "gemini")})
	require.NoError(t, adapt.Add(schemaTool("odata", `{"type":"object","properties":{"$top":{"type":"integer"}}}`),
		schemaTool("mapper", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`)))
	// and still refuses what no option adapts
	err = adapt.Add(schemaTool("pick", `{"type":"object","oneOf":[{"required":["a"]}]}`))
	require.ErrorIs(t, err, ErrUnsupportedSchema)
}

// TestProfilesTable: docs/providers.md shows the profile table as the
// code has it (go test ./render -run TestProfilesTable -update rewrites
// it).
func TestProfilesTable(t *testing.T) {
	const file = "../docs/providers.md"
	const begin, end = "<!-- profiles:begin (generated by render's TestProfilesTable) -->\n", "<!-- profiles:end -->\n"
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	doc := string(b)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	require.True(t, i >= 0 && j > i, "%s has no %q … %q block", file, begin, end)
	want := profileTable()
	if golden.Updating() {
		require.NoError(t, os.WriteFile(file, []byte(doc[:i+len(begin)]+want+doc[j:]), 0o644))
		return
	}
	assert.Equal(t, want, doc[i+len(begin):j], "the profile table in %s is stale: run go test ./render -run TestProfilesTable -update", file)
}

// profileTable is the Markdown of the profile table: one row per rule.
func profileTable() string {
	var b strings.Builder
	b.WriteString("| Profile | Rule | Value | Source |\n|---|---|---|---|\n")
	row := func(p Profile, rule, value, source string) {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", p.Name, rule, value, strings.ReplaceAll(source, "|", `\|`))
	}
	code := func(s string) string { return "`" + strings.ReplaceAll(s, "|", `\|`) + "`" }
	limit := func(p Profile, rule string, l Limit) {
		if l.Max > 0 {
			row(p, rule, fmt.Sprint(l.Max), l.Source)
		}
	}
	list := func(xs []string) string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = code(x)
		}
		return strings.Join(out, ", ")
	}
	for _, p := range Profiles() {
		row(p, "tool name", code(p.ToolName.Regexp), p.ToolName.Source)
		if p.PropertyKey.Regexp != "" {
			row(p, "property key (else refused, or renamed with RenameKeys)", code(p.PropertyKey.Regexp), p.PropertyKey.Source)
		}
		if r := p.Root; r.Object || len(r.Refused) > 0 {
			var v []string
			if r.Object {
				v = append(v, "`\"type\":\"object\"` required")
			}
			if len(r.Refused) > 0 {
				v = append(v, "refused: "+list(r.Refused))
			}
			row(p, "schema root", strings.Join(v, "; "), r.Source)
		}
		limit(p, "most tools per request", p.MaxTools)
		limit(p, "most characters of a description", p.MaxDescription)
		s := p.Strict
		if s == nil {
			continue
		}
		row(p, "strict: assertion keywords kept (others stated as hints)", list(s.Keywords), s.Source)
		row(p, "strict: formats kept (others stated as hints)", list(s.Formats), s.Source)
		row(p, "strict: keywords refused (ErrNotStrict; Fallback sends the tool without strict)", list(s.Rejected), s.Source)
		if s.MaxMinItems >= 0 {
			row(p, "strict: largest minItems kept", fmt.Sprint(s.MaxMinItems), s.Source)
		}
		row(p, "strict: recursive schemas", map[bool]string{true: "allowed", false: "refused (ErrNotStrict)"}[s.Recursive], s.Source)
		row(p, "strict: optional properties", map[bool]string{true: "kept optional", false: "all required, optional ones nullable"}[s.Optional], s.Source)
		limit(p, "strict: object nesting levels", s.MaxDepth)
		limit(p, "strict: object properties", s.MaxProperties)
		limit(p, "strict: enum values", s.MaxEnumValues)
		limit(p, "strict: characters of names, enum and const values", s.MaxStringLength)
		if s.LargeEnum.Max > 0 {
			row(p, "strict: characters of one enum of more than "+fmt.Sprint(s.LargeEnum.Max)+" values", fmt.Sprint(s.LargeEnumLength.Max), s.LargeEnumLength.Source)
		}
		limit(p, "strict: strict tools per request", s.MaxStrictTools)
		limit(p, "strict: optional properties per request", s.MaxOptional)
		limit(p, "strict: union-typed schemas per request", s.MaxUnions)
	}
	return b.String()
}

// TestPatternRegexp: each rule's Match agrees with its Regexp (the form
// the docs and errors show) on names around every edge: lengths, each
// ASCII character first and later, and non-ASCII.
func TestPatternRegexp(t *testing.T) {
	for _, p := range profiles {
		for _, rule := range []Pattern{p.ToolName, p.PropertyKey} {
			if rule.Regexp == "" {
				continue
			}
			re := regexp.MustCompile(rule.Regexp)
			probes := []string{"", "é", "aé", "a\x00"}
			for n := 0; n <= 130; n++ {
				probes = append(probes, strings.Repeat("a", n))
			}
			for c := 0; c < 128; c++ {
				probes = append(probes, string(rune(c)), "a"+string(rune(c)), string(rune(c))+"a")
			}
			for _, s := range probes {
				assert.Equal(t, re.MatchString(s), rule.Match(s), "%s %s: %q", p.Name, rule.Regexp, s)
			}
		}
	}
}

// TestHintSingular: a bound of 1 is stated in the singular.
func TestHintSingular(t *testing.T) {
	var h ruleHints
	for _, k := range []string{"minLength", "maxItems", "minProperties"} {
		h.drop(k, json.Number("1"))
	}
	h.drop("maxLength", json.Number("2"))
	assert.Equal(t, []string{"At least 1 character.", "At most 2 characters.", "At most 1 item.", "At least 1 property."}, h.sentences())
}

// TestRenameRefThroughProperties: a $ref into a renamed property is
// refused, and one through a definition that is merely named
// "properties" is not.
func TestRenameRefThroughProperties(t *testing.T) {
	opts := AnthropicOptions{RenameKeys: true}
	_, err := AnthropicWith([]toolnexus.Tool{schemaTool("t", `{"type":"object","properties":{"a b":{"type":"string"},"c":{"$ref":"#/properties/a b"}}}`)}, opts)
	require.ErrorIs(t, err, ErrPropertyKey)
	out, err := AnthropicWith([]toolnexus.Tool{schemaTool("t", `{"type":"object","properties":{"a b":{"type":"string"},"c":{"$ref":"#/$defs/properties/properties/x"}},"$defs":{"properties":{"type":"object","properties":{"x":{"type":"string"}}}}}`)}, opts)
	require.NoError(t, err)
	assert.Contains(t, string(out[0].InputSchema), `"a_b":`)
	_, err = AnthropicWith([]toolnexus.Tool{schemaTool("t", `{"type":"object","properties":{"a b":{"type":"string"},"c":{"$ref":"#/$defs/properties/properties/a b"}},"$defs":{"properties":{"type":"object","properties":{"a b":{"type":"string"}}}}}`)}, opts)
	require.ErrorIs(t, err, ErrPropertyKey, "the inner properties/a b is renamed")
}
