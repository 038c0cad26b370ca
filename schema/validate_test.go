package schema

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMessages(t *testing.T) {
	v := mustCompile(t, weather, nil)
	tests := []struct {
		in   string
		want string // messages joined with "; "
	}{
		{`{"city":"Paris"}`, ""},
		{`{"city":"Paris","days":14,"unit":"celsius"}`, ""},
		{`{"city":"Paris","days":15}`, `"days" must be at most 14`},
		{`{"city":"Paris","days":0}`, `"days" must be at least 1`},
		{`{"city":"Paris","days":1.5}`, `"days" must be an integer, got 1.5`},
		{`{"city":"Paris","days":"3"}`, `"days" must be an integer, got a string`},
		{`{"city":"Paris","days":30.0}`, `"days" must be at most 14`},
		{`{"city":"Paris","days":1e1}`, ``},
		{`{"city":"Paris","unit":"kelvin"}`, `"unit" must be one of [celsius fahrenheit]`},
		{`{"city":"P"}`, `"city" must have at least 2 characters`},
		{`{}`, `"city" is required`},
		{`{"City":"Paris"}`, `unknown property "City"; property names are case-sensitive: did you mean "city"?; "city" is required`},
		{`{"city":"Paris","x":1}`, `unknown property "x"; allowed: city, days, unit`},
		{`[1]`, `arguments must be a JSON object, got an array`},
		{`42`, `arguments must be a JSON object, got a number`},
		{``, `arguments are empty`},
		{`hello`, `arguments are not valid JSON (send one JSON object)`},
		{`{"city":"Pa`, `arguments are not valid JSON: unexpected end of input (truncated?)`},
		{`{"city":"Paris"} x`, `arguments have data after the JSON object at byte 17 (send exactly one JSON object)`},
		{`{"city" "Paris"}`, `arguments are not valid JSON: expected ':' after a property name at byte 8`},
		{`{"city":"Paris","days":x}`, `arguments are not valid JSON: unexpected character 'x' at byte 23`},
		{`{"city":"Paris",}`, `arguments are not valid JSON: expected a property name at byte 16`},
		{`{"city":"Paris","days":015}`, `arguments are not valid JSON: expected ',' or '}' after a property value at byte 24`},
		{`{"city":"Paris","days":15,"unit":"k","extra":true}`, `"days" must be at most 14; "unit" must be one of [celsius fahrenheit]; unknown property "extra"; allowed: city, days, unit`},
	}
	for _, tc := range tests {
		var msgs []string
		for _, p := range problems(t, v, tc.in) {
			msgs = append(msgs, p.Message)
		}
		got := strings.Join(msgs, "; ")
		assert.Equal(t, tc.want, got, "Validate(%s)\n got %q\nwant %q", tc.in, got, tc.want)
	}
}

func TestProblemFields(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{"stops":{"type":"array","items":{"type":"object",
		"properties":{"city":{"type":"string"}},"required":["city"]}}}}`, nil)
	ps := problems(t, v, `{"stops":[{"city":"a"},{"city":"b"},{"town":"c"},{"city":7}]}`)
	want := []Problem{
		{Path: "stops[2].city", Keyword: "required", Param: "city", Message: `"stops[2].city" is required`},
		{Path: "stops[3].city", Keyword: "type", Param: "string", Message: `"stops[3].city" must be a string, got a number`},
	}
	require.Len(t, ps, len(want), "got %+v", ps)
	for i := range want {
		assert.Equal(t, want[i], ps[i], "problem %d = %+v, want %+v", i, ps[i], want[i])
	}
	v = mustCompile(t, weather, nil)
	ps = problems(t, v, `{"city":"Paris","days":15,"unit":"x"}`)
	assert.Equal(t, "maximum", ps[0].Keyword, "got %+v", ps)
	assert.Equal(t, "14", ps[0].Param, "got %+v", ps)
	assert.Equal(t, "enum", ps[1].Keyword, "got %+v", ps)
	assert.Equal(t, "celsius fahrenheit", ps[1].Param, "got %+v", ps)
}

func TestNewKeywordMessages(t *testing.T) {
	tests := []struct{ schema, in, want string }{
		{`{"const":"x"}`, `"y"`, `arguments must be "x"`},
		// A nullable value (oneOf/anyOf of a schema and {"type":"null"}) that
		// is not null gets the schema's own problems, not "matches none".
		{`{"properties":{"a":{"oneOf":[{"type":"object","properties":{"v":{"minLength":2}}},{"type":"null"}]}}}`, `{"a":{"v":"x"}}`, `"a.v" must have at least 2 characters`},
		{`{"properties":{"a":{"anyOf":[{"type":"null"},{"type":"array","maxItems":1}]}}}`, `{"a":[1,2]}`, `"a" must have at most 1 item`},
		{`{"properties":{"a":{"oneOf":[{"type":"object"},{"type":"null"}]}}}`, `{"a":null}`, ``},
		{`{"properties":{"a":{"oneOf":[{"type":"object"},{"type":"string"}]}}}`, `{"a":1}`, `"a" must match exactly one of 2 alternatives (oneOf), matches none: alternative 1: "a" must be an object, got a number; alternative 2: "a" must be a string, got a number`},
		{`{"const":false,"enum":[null]}`, `null`, `arguments must be false`}, // both apply (found by FuzzDifferential)
		{`{"const":"a","enum":["b"]}`, `"c"`, `arguments must be "a"; arguments must be one of [b]`},
		{`{"properties":{"a":{"const":{"k":[1,2]}}}}`, `{"a":{"k":[1,2.0]}}`, ``},
		{`{"uniqueItems":true}`, `[1,2,{"a":1,"b":2},1.0]`, `arguments must not contain duplicates (items 0 and 3 are equal)`},
		{`{"uniqueItems":true}`, `[{"a":1,"b":2},{"b":2,"a":1}]`, `arguments must not contain duplicates (items 0 and 1 are equal)`},
		{`{"uniqueItems":true}`, `[1,"1",true,null,[1],{"1":1}]`, ``},
		{`{"contains":{"type":"integer"}}`, `["a"]`, `arguments must contain at least 1 item matching the schema in "contains", has 0`},
		{`{"contains":{"type":"integer"},"maxContains":1}`, `[1,2]`, `arguments must contain at most 1 item matching the schema in "contains", has 2`},
		{`{"oneOf":[{"type":"integer"},{"minimum":2}]}`, `3`, `arguments must match exactly one of 2 alternatives (oneOf), matches alternatives 1 and 2`},
		{`{"anyOf":[{"type":"integer"},{"type":"null"}]}`, `"a"`, `arguments must be an integer or null, got a string`},
		{`{"properties":{"n":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}`, `{"n":1.5}`, `"n" must be an integer or null, got 1.5`},
		{`{"anyOf":[{"type":"integer"},{"type":"string","minLength":3}]}`, `"a"`, `arguments must match at least one of 2 alternatives (anyOf), matches none: alternative 1: arguments must be an integer, got a string; alternative 2: arguments must have at least 3 characters`},
		// anyOf of two required lists: the message says which properties
		// would satisfy each (issue "Provider profiles", item 3).
		{`{"anyOf":[{"const":1},{"const":2},{"const":3},{"const":4},{"const":5},{"const":6},{"const":7},{"const":8},{"const":9},{"const":10}]}`, `0`,
			`arguments must match at least one of 10 alternatives (anyOf), matches none: alternative 1: arguments must be 1; alternative 2: arguments must be 2; alternative 3: arguments must be 3; alternative 4: arguments must be 4; alternative 5: arguments must be 5; alternative 6: arguments must be 6; alternative 7: arguments must be 7; alternative 8: arguments must be 8; and 2 more alternatives`},
		{`{"anyOf":[{"required":["id"]},{"required":["email","name"]}]}`, `{"name":"x"}`, `arguments must match at least one of 2 alternatives (anyOf), matches none: alternative 1: "id" is required; alternative 2: "email" is required`},
		{`{"not":{"type":"string"}}`, `"a"`, `arguments must not match the schema in "not", {"type":"string"}`},
		{`{"if":{"minimum":10},"then":{"multipleOf":5},"else":{"maximum":3}}`, `12`, `arguments must be a multiple of 5 ("then" applies: the value matches "if", {"minimum":10})`},
		{`{"if":{"minimum":10},"then":{"multipleOf":5},"else":{"maximum":3}}`, `4`, `arguments must be at most 3 ("else" applies: the value does not match "if", {"minimum":10})`},
		{`{"not":{"enum":["` + strings.Repeat("x", 300) + `"]}}`, `"` + strings.Repeat("x", 300) + `"`, `arguments must not match the schema in "not", {"enum":["` + strings.Repeat("x", 190) + `…`},
		{`{"properties":{"code":{"pattern":"^[A-Z]{3}$"}}}`, `{"code":"abc"}`, `"code" must match the pattern ^[A-Z]{3}$`},
		{`{"properties":{"a":false}}`, `{"a":1}`, `"a" is not allowed`},
		{`{"prefixItems":[{"type":"string"}],"items":false}`, `["a",1,2]`, `arguments must have at most 1 item`},
		{`{"minItems":2,"maxItems":2}`, `[1]`, `arguments must have exactly 2 items`},
		{`{"minProperties":1}`, `{}`, `arguments must have at least 1 property`},
		{`{"dependentRequired":{"a":["b"]}}`, `{"a":1}`, `"b" is required when "a" is present`},
		{`{"propertyNames":{"maxLength":2}}`, `{"abc":1}`, `property name "abc" is not allowed by the schema in "propertyNames"`},
		{`{"properties":{"a":true},"allOf":[{"properties":{"b":true}}],"unevaluatedProperties":false}`, `{"a":1,"b":2,"c":3}`, `unknown property "c" (unevaluatedProperties)`},
		{`{"anyOf":[{"properties":{"b":{"type":"string"}}}],"unevaluatedProperties":{"type":"integer"}}`, `{"b":"x","c":"y"}`, `"c" must be an integer, got a string`},
		{`{"prefixItems":[true],"contains":{"type":"string"},"unevaluatedItems":false}`, `[1,"a",2]`, `"[2]" is not allowed (unevaluatedItems)`},
		{`{"type":["string","null"]}`, `1`, `arguments must be a string or null, got a number`},
		{`{"type":"string","nullable":true,"enum":["a"]}`, `null`, ``},
		{`{"type":"string","nullable":true}`, `1`, `arguments must be a string or null, got a number`},
		{`{"exclusiveMaximum":1}`, `1`, `arguments must be less than 1`},
		{`{"exclusiveMinimum":1}`, `1.0`, `arguments must be greater than 1`},
		{`{"maxLength":2}`, `"\u00e9\u00e9"`, ``},
		{`{"maxLength":1}`, `"\ud83d\ude00"`, ``},
		{`{"maxLength":1}`, `"😀😀"`, `arguments must have at most 1 character`},
	}
	for _, tc := range tests {
		v := mustCompile(t, tc.schema, nil)
		var msgs []string
		for _, p := range problems(t, v, tc.in) {
			msgs = append(msgs, p.Message)
		}
		got := strings.Join(msgs, "; ")
		assert.Equal(t, tc.want, got, "%s on %s\n got %q\nwant %q", tc.schema, tc.in, got, tc.want)
	}
}

func TestMessagesAreBounded(t *testing.T) {
	big := strings.Repeat("9", 512<<10)
	v := mustCompile(t, `{"properties":{"n":{"type":"integer","maximum":1},"s":{"format":"email"},"k":{"const":"`+strings.Repeat("x", 1000)+`"}},"additionalProperties":false}`, &Options{AssertFormat: true})
	err := v.Validate([]byte(`{"n":` + big + `.5,"s":"` + big + `","k":"y","` + big + `":1}`))
	require.Error(t, err, "no error")
	for _, p := range err.(*ValidationError).Problems {
		assert.LessOrEqual(t, len(p.Message), 200, "%s message is %d bytes: %.100s", p.Keyword, len(p.Message), p.Message)
	}
	n := len(err.(*ValidationError).Problems)
	assert.Equal(t, 4, n, "got %d problems: %v", n, err)
}

func TestOptions(t *testing.T) {
	v := mustCompile(t, `{"type":"object"}`, &Options{RejectDuplicateKeys: true})
	ps := problems(t, v, `{"a":1,"b":{"c":1,"c":2},"a":3}`)
	if assert.Len(t, ps, 2, "duplicates: %+v", ps) {
		assert.Equal(t, `"b.c" is given more than once`, ps[0].Message, "duplicates: %+v", ps)
		assert.Equal(t, `"a" is given more than once`, ps[1].Message, "duplicates: %+v", ps)
		assert.Equal(t, "duplicateKey", ps[1].Keyword, "duplicates: %+v", ps)
	}
	ps = problems(t, mustCompile(t, `{}`, nil), `{"a":1,"a":2}`)
	assert.False(t, ps != nil, "duplicates allowed by default, got %+v", ps)

	v = mustCompile(t, `{"items":{"$ref":"#"}}`, &Options{MaxDepth: 5})
	ps = problems(t, v, `[[[[[]]]]]`)
	assert.False(t, ps != nil, "depth 5: %+v", ps)
	ps = problems(t, v, `[[[[[[]]]]]]`)
	if assert.Len(t, ps, 1, "depth 6: %+v", ps) {
		assert.Equal(t, "depth", ps[0].Keyword, "depth 6: %+v", ps)
		assert.Equal(t, "arguments are nested more than 5 levels deep", ps[0].Message, "depth 6: %+v", ps)
	}
	deep := strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20)
	ps = problems(t, mustCompile(t, `{}`, nil), deep)
	if assert.Len(t, ps, 1, "1M levels: %+v", ps) {
		assert.Equal(t, "depth", ps[0].Keyword, "1M levels: %+v", ps)
	}

	s := `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["b"],"minProperties":2}`
	v = mustCompile(t, s, &Options{NullAsAbsent: true})
	ps = problems(t, v, `{"a":null,"b":null}`)
	if assert.Len(t, ps, 2, "NullAsAbsent: %+v", ps) {
		assert.Equal(t, `"b" must be a string, got null`, ps[0].Message, "NullAsAbsent: %+v", ps)
		assert.Equal(t, "minProperties", ps[1].Keyword, "NullAsAbsent: %+v", ps)
	}
	ps = problems(t, mustCompile(t, s, nil), `{"a":null,"b":"x"}`)
	if assert.Len(t, ps, 1, "without NullAsAbsent: %+v", ps) {
		assert.Equal(t, `"a" must be a string, got null`, ps[0].Message, "without NullAsAbsent: %+v", ps)
	}
}

func TestNoAllocOnValid(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	v := mustCompile(t, weather, &Options{RejectDuplicateKeys: true, AssertFormat: true})
	in := []byte(`{"city":"Par\u00eds","days":3,"unit":"celsius"}`)
	n := testing.AllocsPerRun(200, func() {
		require.NoError(t, v.Validate(in))
	})
	assert.Zero(t, n, "Validate(valid) allocates %v times", n)
	fv := mustCompile(t, `{"properties":{"h":{"format":"hostname"},"e":{"format":"email"},"u":{"format":"uri"},"d":{"format":"date-time"},"p":{"format":"duration"},"i":{"format":"ipv6"},"q":{"format":"uuid"}}}`, &Options{AssertFormat: true})
	fin := []byte(`{"h":"www.example.com","e":"joe@example.com","u":"https://example.com/a?b#c","d":"2026-01-02T15:04:05Z","p":"P1DT2H","i":"::1","q":"2eb8aa08-aa98-11ea-b4aa-73b441d16380"}`)
	n = testing.AllocsPerRun(100, func() {
		require.NoError(t, fv.Validate(fin))
	})
	assert.Zero(t, n, "Validate(formats) allocates %v times", n)
	bv := mustCompile(t, bulkSchema, &Options{AssertFormat: true})
	bin := bulkInstance()
	n = testing.AllocsPerRun(50, func() {
		require.NoError(t, bv.Validate(bin))
	})
	assert.Zero(t, n, "Validate(bulk) allocates %v times", n)
}

func TestComplexityBudget(t *testing.T) {
	// Each level doubles the work: without a budget, 40 levels never end.
	v := mustCompile(t, `{"items":{"allOf":[{"$ref":"#"},{"$ref":"#"}]}}`, nil)
	in := strings.Repeat("[", 40) + strings.Repeat("]", 40)
	ps := problems(t, v, in)
	if assert.Len(t, ps, 1, "got %+v", ps) {
		assert.Equal(t, "complexity", ps[0].Keyword, "got %+v", ps)
	}
}

func TestMaxProblems(t *testing.T) {
	v := mustCompile(t, `{"items":{"type":"string"}}`, nil)
	in := "[" + strings.Repeat("1,", 150) + "1]"
	ps := problems(t, v, in)
	if assert.Len(t, ps, MaxProblems, "got %d problems, last %+v", len(ps), ps[len(ps)-1]) {
		assert.Equal(t, "[99]", ps[99].Path, "got %d problems, last %+v", len(ps), ps[len(ps)-1])
	}
}

func TestPatternWorkBounded(t *testing.T) {
	v := mustCompile(t, `{"properties":{"s":{"pattern":"[a-z]{1000}$"}}}`, nil)
	ps := problems(t, v, `{"s":"`+strings.Repeat("a", 200000)+`"}`)
	if assert.Len(t, ps, 1, "got %+v", ps) {
		assert.Equal(t, "complexity", ps[0].Keyword, "got %+v", ps)
		assert.Contains(t, ps[0].Message, `"s" is too long to check against the pattern [a-z]{1000}$ (200000 bytes, at most `, "got %+v", ps)
	}
	assert.NoError(t, v.Validate([]byte(`{"s":"`+strings.Repeat("a", 2000)+`"}`)), "short string")
}
