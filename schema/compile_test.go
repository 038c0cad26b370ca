package schema

import (
	"encoding/json"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/toolnexus/toolnexus/internal/jsonx"
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
		if !errors.As(err, &se) {
			t.Errorf("Compile(%.60s) = %v, want a *SchemaError", tc.schema, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compile(%.60s)\n got %q\nwant it to contain %q", tc.schema, err, tc.want)
		}
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
		if !errors.As(err, &se) {
			t.Errorf("Compile(%s) = %v, want a *SchemaError", tc.schema, err)
			continue
		}
		if se.Path != tc.path || se.Keyword != tc.keyword {
			t.Errorf("Compile(%s): error at %q keyword %q, want %q keyword %q (%v)", tc.schema, se.Path, se.Keyword, tc.path, tc.keyword, err)
		}
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
		if got := problems(t, v, in); len(got) != want {
			t.Errorf("Validate(%s) = %v, want %d problems", in, got, want)
		}
	}
	// "#/properties" is an object whose members are unknown keywords.
	w := mustCompile(t, `{"properties":{"n":{"type":"integer"}},"items":{"$ref":"#/properties"}}`, nil)
	if got := problems(t, w, `[{"n":"x"}]`); len(got) != 0 {
		t.Errorf("items of #/properties: %v, want none", got)
	}
	if got := problems(t, w, `{"n":"x"}`); len(got) != 1 {
		t.Errorf("property n: %v, want 1 problem", got)
	}
}

// TestCompileSharesLeaves checks that equal leaf schemas where a schema
// applies to a part of the instance compile to one node, and that nothing
// applied in place, with a default, or in a document with references is
// shared.
func TestCompileSharesLeaves(t *testing.T) {
	v := mustCompile(t, `{"properties":{"a":{"type":"string","minLength":1},"b":{"type":"string","minLength":1},
		"c":{"type":"array","items":{"type":"string","minLength":1}},"d":{"minLength":1,"type":"string"},
		"e":{"type":"integer","maximum":1},"f":{"type":"integer","maximum":1.0},"g":{"type":"string","minLength":1,"default":"x"},"h":{"type":"object"}},
		"allOf":[{"type":"object"}]}`, &Options{Strict: true})
	k := v.root.keys
	if k[0].schema != k[1].schema || k[2].schema.items != k[0].schema {
		t.Error("equal leaves under properties and items are not shared")
	}
	if k[3].schema == k[0].schema || k[4].schema == k[5].schema || k[6].schema == k[0].schema || v.root.x().allOf[0] == k[7].schema {
		t.Error("a leaf with other keys, other number text, a default, or applied in place is shared")
	}
	for in, want := range map[string]int{`{"a":"x","b":"y","c":["z"]}`: 0, `{"a":"","b":"","c":[""]}`: 3, `{"e":1,"f":2}`: 1} {
		if got := problems(t, v, in); len(got) != want {
			t.Errorf("Validate(%s) = %v, want %d problems", in, got, want)
		}
	}
	r := mustCompile(t, `{"$defs":{"s":{"type":"string"}},"properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"$ref":"#/$defs/s"}}}`, nil)
	if r.root.keys[0].schema == r.root.keys[1].schema {
		t.Error("leaves shared in a document with $ref")
	}
	// Shared in place, the leaf {"type":"object"} would join the
	// components of p and q, and q's required "a" would make p's null
	// an ordinary value.
	n := mustCompile(t, `{"properties":{"p":{"properties":{"a":{"type":"string"}},"allOf":[{"type":"object"}]},
		"q":{"properties":{"a":{"type":"string"}},"required":["a"],"allOf":[{"type":"object"}]}}}`, &Options{NullAsAbsent: true})
	if got := problems(t, n, `{"p":{"a":null}}`); len(got) != 0 {
		t.Errorf("null for p.a: %v, want none", got)
	}
	if got := problems(t, n, `{"q":{"a":null}}`); len(got) != 1 {
		t.Errorf("null for q.a: %v, want 1 problem", got)
	}
}

// TestCompileConcurrent compiles documents with and without references
// from several goroutines: the compiler shares its parsed base URI and the
// resource of documents without references, which nothing may modify
// (-race checks).
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
					if err != nil {
						t.Error(err)
						return
					}
					if v.Validate([]byte(`{"a":"x","b":"yz","name":"","stops":[],"query":"q","window":{"from":"f"}}`)) == nil {
						t.Errorf("%.40s accepts an invalid instance", s)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestSimpleMatchesGeneral compiles each schema without references twice:
// as it is (one walk, shared leaves) and with an unused "$anchor" added
// under "$defs", which sends it through the general path (index, memo,
// loop check, no sharing). Both must judge every instance alike, problem
// for problem. The schemas are the JSON-Schema-Test-Suite's and
// generated ones.
func TestSimpleMatchesGeneral(t *testing.T) {
	type group struct {
		schema    []byte
		instances [][]byte
	}
	var groups []group
	files, _ := filepath.Glob(filepath.Join(suiteDir(t), "*.json"))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var gs []suiteGroup
		if err := json.Unmarshal(raw, &gs); err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			in := make([][]byte, len(g.Tests))
			for i, tc := range g.Tests {
				in[i] = tc.Data
			}
			groups = append(groups, group{g.Schema, in})
		}
	}
	r := rand.New(rand.NewSource(1))
	for range 3000 {
		b := make([]byte, 20+r.Intn(60))
		r.Read(b)
		g := &gen{b: b}
		schema, _ := json.Marshal(g.schema(0))
		var in [][]byte
		for range 4 {
			r.Read(b)
			v, _ := json.Marshal((&gen{b: b}).value(0))
			in = append(in, v)
		}
		groups = append(groups, group{schema, in})
	}
	compared := 0
	for _, g := range groups {
		tree, err := jsonx.Parse(g.schema)
		o, ok := tree.(*jsonx.Object)
		if err != nil || !ok {
			continue
		}
		sv := survey{simple: true}
		sv.walk(o, "", 0)
		if !sv.simple {
			continue
		}
		defs, _ := o.Get("$defs")
		if _, isObj := defs.(*jsonx.Object); defs != nil && !isObj {
			continue
		}
		general := jsonx.Clone(o).(*jsonx.Object)
		d, _ := general.Get("$defs")
		dm, _ := d.(*jsonx.Object)
		if dm == nil {
			dm = &jsonx.Object{}
		}
		dm.Set("zz-general", &jsonx.Object{Keys: []string{"$anchor"}, Vals: []any{"zzgeneral"}})
		general.Set("$defs", dm)
		for _, opts := range []*Options{nil, typedOpts} {
			vs, errS := Compile(g.schema, opts)
			vg, errG := Compile(jsonx.Marshal(general), opts)
			if (errS == nil) != (errG == nil) {
				t.Fatalf("%s: Compile simple: %v, general: %v", g.schema, errS, errG)
			}
			if errS != nil {
				if errS.Error() != errG.Error() {
					t.Errorf("%s: Compile simple: %v, general: %v", g.schema, errS, errG)
				}
				continue
			}
			if vs.root.res != simpleResource || vg.root.res == simpleResource {
				t.Fatalf("%s: not compiled through both paths", g.schema)
			}
			for _, in := range g.instances {
				ps, pg := problemList(vs.Validate(in)), problemList(vg.Validate(in))
				if !reflect.DeepEqual(ps, pg) {
					t.Errorf("%s on %s:\nsimple  %v\ngeneral %v", g.schema, in, ps, pg)
				}
				compared++
			}
		}
	}
	t.Logf("compared %d verdicts", compared)
	if compared < 5000 {
		t.Errorf("compared only %d verdicts", compared)
	}
}

func problemList(err error) []Problem {
	var ve *ValidationError
	if errors.As(err, &ve) {
		return ve.Problems
	}
	return nil
}

// TestNoMoreStaysEmpty: nodes without any of the less common keywords
// read them from the shared noMore, which compiling and validating must
// never write (a write would leak into every such node).
func TestNoMoreStaysEmpty(t *testing.T) {
	docs := []string{
		`{"type":"object","properties":{"a":{"type":"string","minLength":2},"b":{"type":"array","items":{"type":"integer"}}},"required":["a"],"additionalProperties":false}`,
		`{"if":{"type":"string"},"then":{"minLength":1},"else":{"type":"number"}}`,
		`{"then":{"minLength":1},"else":{"type":"number"}}`,
		`{"contains":{"const":1},"prefixItems":[{"type":"integer"}],"unevaluatedItems":false}`,
		`{"oneOf":[{"type":"string"},{"type":"null"}],"anyOf":[{},{"type":"string"}],"allOf":[{"not":{"const":"x"}}]}`,
		`{"patternProperties":{"^a":{"type":"string"}},"propertyNames":{"maxLength":3},"dependentRequired":{"a":["b"]},"dependentSchemas":{"b":{"required":["c"]}},"unevaluatedProperties":false}`,
		`{"$defs":{"n":{"$dynamicAnchor":"n","type":"object"}},"$dynamicRef":"#n","multipleOf":2}`,
	}
	instances := []string{`{}`, `{"a":"xy","b":[1]}`, `{"a":1}`, `"s"`, `""`, `[1,2]`, `[]`, `null`, `3`, `{"ab":"x","b":1}`}
	for _, d := range docs {
		v, err := Compile([]byte(d), nil)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		for _, in := range instances {
			_ = v.Validate([]byte(in))
		}
	}
	if !reflect.DeepEqual(noMore, nodeMore{minContains: -1, maxContains: -1}) {
		t.Fatalf("noMore was written: %+v", noMore)
	}
}
