package schema

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		schema string
		opts   *Options
		want   string
	}{
		{`{"properties":{"unit":{"pattern":"(?=x)"}}}`, nil, `schema /properties/unit: keyword "pattern": pattern "(?=x)" is not supported by Go's regexp (RE2)`},
		{`{"$ref":"#"}`, nil, `schema root: keyword "$ref": references loop back`},
		{`{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, nil, `references loop back`},
		{`{"$ref":"#/$defs/missing"}`, nil, `schema root: keyword "$ref": cannot resolve "#/$defs/missing"`},
		{`{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, nil, `only references within the document are supported`},
		{`{"$ref":"other.json"}`, &Options{Strict: true}, `only references within the document are supported`},
		{`{"type":"strin"}`, nil, `schema root: keyword "type": unknown type "strin"`},
		{`{"minLength":-1}`, nil, `must be a non-negative integer`},
		{`{"multipleOf":0}`, nil, `must be greater than 0`},
		{`{"properties":{"a":{"x-custom":1}}}`, &Options{Strict: true}, `schema /properties/a: keyword "x-custom": is not a known keyword`},
		{`{"dependencies":{}}`, &Options{Strict: true}, `keyword "dependencies": is not enforced by the validator`},
		{`{"format":"int32"}`, &Options{Strict: true, AssertFormat: true}, `format "int32" is not checked by the validator`},
		{`{"properties":{"d":{"type":"integer","maximum":14,"default":20}}}`, &Options{Strict: true}, `schema /properties/d: keyword "default": default 20 does not match its own schema: arguments must be at most 14`},
		{`{"items":[{"type":"string"}]}`, nil, `use prefixItems for a tuple`},
		{`{"pattern":"` + strings.Repeat("a", 5000) + `"}`, nil, `pattern is longer than 4096 bytes`},
		{`{"pattern":"a{1000}b{1000}c{1000}d{1000}e{1000}f{1000}"}`, nil, `is too complex (`},
		{`{`, nil, `schema root: not valid JSON`},
		{`{"description":"` + strings.Repeat("x", 8<<20) + `"}`, nil, `schema is larger than 8388608 bytes`},
		{`[]`, nil, `a schema must be an object or a boolean`},
	}
	for _, tc := range tests {
		_, err := Compile([]byte(tc.schema), tc.opts)
		var se *SchemaError
		if !assert.ErrorAs(t, err, &se, "Compile(%.60s) = %v, want a *SchemaError", tc.schema, err) {
			continue
		}
		assert.Contains(t, err.Error(), tc.want, "Compile(%.60s)\n got %q\nwant it to contain %q", tc.schema, err, tc.want)
	}
	// Non-strict: unknown keywords and annotations are fine.
	mustCompile(t, `{"x-custom":1,"title":"t","description":"d","examples":[1],"deprecated":true,"$comment":"c","properties":{"d":{"type":"integer","maximum":14,"default":20}}}`, nil)
	mustCompile(t, `{"title":"t","description":"d","default":{},"examples":[1],"deprecated":true,"readOnly":true,"writeOnly":false,"$comment":"c","$schema":"https://json-schema.org/draft/2020-12/schema","contentMediaType":"text/plain","contentEncoding":"base64"}`, &Options{Strict: true})
}

// TestCompileErrorPaths checks the JSON Pointer of errors deep in a
// schema, which Compile builds only when it reports one: escaped names,
// array indexes, and a schema reached through $ref (whose pointer is the
// reference's target).
func TestCompileErrorPaths(t *testing.T) {
	tests := []struct{ schema, path, keyword string }{
		{`{"properties":{"a/b":{"items":{"properties":{"c~d":{"minLength":-1}}}}}}`, "/properties/a~1b/items/properties/c~0d", "minLength"},
		{`{"allOf":[true,{"anyOf":[{"type":"string"},{"not":{"maximum":"x"}}]}]}`, "/allOf/1/anyOf/1/not", "maximum"},
		{`{"prefixItems":[{},{"patternProperties":{"^x/":{"type":"nope"}}}]}`, "/prefixItems/1/patternProperties/^x~1", "type"},
		{`{"if":true,"then":{"dependentSchemas":{"k":{"pattern":"("}}}}`, "/then/dependentSchemas/k", "pattern"},
		{`{"additionalProperties":{"dependentRequired":{"a":[1]}}}`, "/additionalProperties/dependentRequired", "a"},
		{`{"properties":{"p":{"allOf":7}}}`, "/properties/p/allOf", ""},
		{`{"$defs":{"d":{"properties":{"q":{"enum":1}}}},"properties":{"r":{"$ref":"#/$defs/d"}}}`, "/$defs/d/properties/q", "enum"},
		{`{"properties":{"r":{"$ref":"#/$defs/d"}},"$defs":{"d":{"items":{"minItems":"2"}}}}`, "/$defs/d/items", "minItems"},
		{`{"properties":{"x":{"properties":{"y":{"type":"integer","maximum":1,"default":2}}}}}`, "/properties/x/properties/y", "default"},
		{`{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}},"properties":{"z":{"$ref":"#/$defs/a"}}}`, "/$defs/a", "$ref"},
	}
	for _, tc := range tests {
		_, err := Compile([]byte(tc.schema), &Options{Strict: true})
		var se *SchemaError
		if !assert.ErrorAs(t, err, &se, "Compile(%s) = %v, want a *SchemaError", tc.schema, err) {
			continue
		}
		assert.Equal(t, tc.path, se.Path, "Compile(%s): error at %q keyword %q, want %q keyword %q (%v)", tc.schema, se.Path, se.Keyword, tc.path, tc.keyword, err)
		assert.Equal(t, tc.keyword, se.Keyword, "Compile(%s): error at %q keyword %q, want %q keyword %q (%v)", tc.schema, se.Path, se.Keyword, tc.path, tc.keyword, err)
	}
}

// TestCompileBeyondSurvey compiles schemas that $ref reaches where no
// subschema stands (in an unknown keyword, the properties object itself):
// Compile sizes its node and bound slabs from the places subschemas stand
// and must allocate past them.
func TestCompileBeyondSurvey(t *testing.T) {
	v := mustCompile(t, `{"x-stash":[{"minimum":5,"maximum":9},{"type":"string","minLength":2}],
		"properties":{"a":{"$ref":"#/x-stash/0"},"b":{"$ref":"#/x-stash/1"},"c":{"$ref":"#/properties/a"}}}`, nil)
	for in, want := range map[string]int{`{"a":7,"b":"xy","c":6}`: 0, `{"a":3}`: 1, `{"a":10,"b":"x","c":4}`: 3, `{"c":"s"}`: 0} {
		got := problems(t, v, in)
		assert.Len(t, got, want, "Validate(%s) = %v, want %d problems", in, got, want)
	}
	// "#/properties" is an object whose members are unknown keywords.
	w := mustCompile(t, `{"properties":{"n":{"type":"integer"}},"items":{"$ref":"#/properties"}}`, nil)
	got := problems(t, w, `[{"n":"x"}]`)
	assert.Empty(t, got, "items of #/properties: %v, want none", got)
	got = problems(t, w, `{"n":"x"}`)
	assert.Len(t, got, 1, "property n: %v, want 1 problem", got)
}

// TestCompileConcurrent compiles documents with and without references
// from several goroutines: compiles share the parsed default base URI,
// which nothing may modify (-race checks).
func TestCompileConcurrent(t *testing.T) {
	schemas := []string{typedWideSchema, tripSchema,
		`{"$id":"https://x.example/a","$defs":{"s":{"$anchor":"s","type":"string","minLength":2}},"properties":{"a":{"$ref":"#s"},"b":{"$ref":"https://x.example/a#/$defs/s"}}}`}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				for _, s := range schemas {
					v, err := Compile([]byte(s), typedOpts)
					if !assert.NoError(t, err) {
						return
					}
					if !assert.False(t, v.Validate([]byte(`{"a":"x","b":"yz","name":"","stops":[],"query":"q","window":{"from":"f"}}`)) == nil, "%.40s accepts an invalid instance", s) {
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
