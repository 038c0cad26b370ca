package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validateGeneral is Validate on the general path only.
func validateGeneral(v *Validator, instance []byte) error {
	s := getState(v, instance)
	s.general(v.root)
	var err error
	if len(s.problems) > 0 || s.fatal != nil {
		err = s.result()
	}
	putState(s)
	return err
}

// fastAccepts reports whether the fast path alone accepts the instance.
func fastAccepts(v *Validator, instance []byte) bool {
	if !v.root.fast || v.dynamic {
		return false
	}
	s := getState(v, instance)
	ok := s.fastRun(v.root)
	putState(s)
	return ok
}

// agree fails unless Validate gives exactly the general path's result, and
// the fast path accepts only what the general path accepts.
func agree(t *testing.T, v *Validator, schema, instance []byte) (general error, fast bool) {
	t.Helper()
	general = validateGeneral(v, instance)
	fast = fastAccepts(v, instance)
	got := v.Validate(instance)
	require.True(t, reflect.DeepEqual(got, general), "schema %s\ninstance %q\nValidate: %v\ngeneral path: %v", schema, instance, got, general)
	require.False(t, fast && general != nil, "schema %s\ninstance %q\nthe fast path accepts what the general path refuses: %v", schema, instance, general)
	return general, fast
}

var fastOpts = &Options{AssertFormat: true, Strict: true, RejectDuplicateKeys: true, NullAsAbsent: true, MaxDepth: 3}

func TestFastPathAgrees(t *testing.T) {
	nullable := `{"type":"object","properties":{"a":{"type":"integer","nullable":true,"enum":[1,2]},"b":{"type":["string","null"],"maxLength":2},
		"c":{"type":"array","items":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1},"minItems":1,"uniqueItems":true},
		"d":{"type":"object","additionalProperties":{"type":"boolean"},"minProperties":1,"maxProperties":2},
		"e":{"type":"string","format":"date","pattern":"^2"},"f":{"type":"number","multipleOf":0.5,"minimum":1e-2},
		"g":{"anyOf":[{"type":"string"},{"type":"integer"}]},"h":{}},"required":["a"]}`
	for _, c := range []struct {
		schema string
		opts   *Options
		valid  []string // accepted, on the fast path
		other  []string // refused, or accepted on the general path
	}{
		{tripSchema, typedOpts, []string{
			string(tripInstance()),
			`{"name":"x","stops":[]}`,
			` { "stops" : [ { "lon" : -180 , "lat" : 90.0 , "city" : "é" } ] , "name" : "n" } `,
			`{"name":"x","stops":[{"city":"a","lat":-90,"lon":180,"nights":30,"note":null}]}`,
			`{"name":"x","stops":[{"city":"a","lat":-89.99999999999999999999,"lon":1e2,"nights":1.0}]}`,
			`{"name":"x","stops":[{"city":"a","lat":-0.0,"lon":0,"nights":3e1}]}`,
			"{\"name\":\"x\",\"stops\":[{\"city\":\"a\",\"lat\":-0.5,\"lon\":0.5,\"note\":\"x\\u00e9\\n\"}]}\n",
		}, []string{
			`{"name":"x","stops":[{"city":"a","lat":90.000000001,"lon":0}]}`,
			`{"name":"x","stops":[{"city":"a","lat":-90.5,"lon":0}]}`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0,"nights":0.5}]}`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0,"nights":31}]}`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0,"nights":1e400}]}`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0,"nights":null}]}`,
			`{"name":"x","stops":[{"city":"","lat":0,"lon":0}]}`,
			`{"name":"x","stops":[{"city":"a","lat":0}]}`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0,"lat":1}]}`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0,"note":null,"note":null}]}`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0,"City":"b"}]}`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0}],"\u006eame":"y"}`,
			`{"\u006eame":"x","stops":[]}`,
			`{"name":"x","stops":[{"city":"a","lat":01,"lon":0}]}`,
			`{"name":"x","stops":[{"city":"a","lat":-,"lon":0}]}`,
			`{"name":"x","stops":[{"city":"a","lat":1.,"lon":0}]}`,
			`{"name":"x","stops":[{"city":"a","lat":1e,"lon":0}]}`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0}]`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0}]}x`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0},]}`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0,}]}`,
			`{"name":"x","stops":[{"city":"a" "lat":0,"lon":0}]}`,
			`{"name":"x","stops":[{"city":"a\x","lat":0,"lon":0}]}`,
			"{\"name\":\"x\x01\",\"stops\":[]}",
			`{"name":"x","stops":[[]]}`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0,"note":tru}]}`,
			`{"name":"x","stops":{}}`,
			`{"name":"x","stops":[{"city":"a","lat":0,"lon":0}]`,
			`[]`, ``, ` `, `{`, `{"name"`, `{"name":`, `{"name":"x"`, `{"name":"x",`,
		}},
		{nullable, fastOpts, []string{
			`{"a":null}`, `{"a":2,"b":null,"c":[0.5,0.25],"d":{"x":true},"e":"2024-01-02","f":1.5,"g":"s","h":[{}]}`,
			`{"a":1,"b":"ab","c":[1e-1],"d":{"x":false,"y":true},"f":0.5,"g":3,"h":{"b":[]}}`,
			`{"a":1,"x":{"y":1},"y":[],"z":"\"","w":null}`,
		}, []string{
			`{}`, `{"a":3}`, `{"a":1.5}`, `{"a":"1"}`, `{"a":1,"b":"abc"}`, `{"a":1,"b":1}`, `{"a":1,"c":[]}`,
			`{"a":1,"c":[0.5,0.5]}`, `{"a":1,"c":[1]}`, `{"a":1,"c":[0]}`, `{"a":1,"d":{}}`, `{"a":1,"d":{"x":1}}`,
			`{"a":1,"d":{"x":true,"y":true,"z":true}}`, `{"a":1,"d":{"x":true,"x":true}}`, `{"a":1,"e":"2024-13-01"}`,
			`{"a":1,"e":"1999-01-01"}`, `{"a":1,"f":0.75}`, `{"a":1,"f":0.005}`, `{"a":1,"g":1.5}`,
			`{"a":1,"h":[[[[]]]]}`, `{"a":1,"h":{"a":{"a":{}}}}`, `{"a":1,"x":1,"x":2}`, `{"a":1,"\u0078":1,"x":2}`,
			`{"a":1,"h":{"a":1,"a":2}}`,
		}},
		{`{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string","minLength":2,"maxLength":3}}}`, nil,
			[]string{`{"a":"ab"}`, `{"a":"abc"}`, `{"a":"éé"}`, `{"a":"a\u00e9"}`, `{}`},
			[]string{`{"a":"a"}`, `{"a":"abcd"}`, `{"a":"é"}`, `{"a":"\u00e9"}`, `{"b":1}`, `{"a":"ab","a":"x"}`, `{"a":"ab","a":"abc"}`}},
		{`{"type":"array","items":{"$ref":"#"}}`, fastOpts, []string{`[]`, `[[]]`}, []string{`[[[[]]]]`, `[{}]`}},
		{`{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"array"}}}}`, fastOpts, []string{`[[[]]]`}, []string{`[[[[]]]]`}},
		{`{"properties":{"a":{"properties":{"a":{"properties":{"a":{"properties":{"a":{}}}}}}}}}`, fastOpts, []string{`{"a":{"a":{}}}`}, []string{`{"a":{"a":{"a":{}}}}`}},
		{`false`, nil, nil, []string{`1`}},
		{`true`, nil, []string{`1`, `"x"`, `{"a":[1,{"b":null}]}`, ` true `}, []string{`tru`, `1 2`, `{"a":1,}`}},
	} {
		v := mustCompile(t, c.schema, c.opts)
		for _, in := range c.valid {
			general, fast := agree(t, v, []byte(c.schema), []byte(in))
			if assert.False(t, general != nil, "schema %s\ninstance %s\ngeneral path: %v; fast path accepts: %v (want valid on the fast path)", c.schema, in, general, fast) {
				assert.True(t, fast, "schema %s\ninstance %s\ngeneral path: %v; fast path accepts: %v (want valid on the fast path)", c.schema, in, general, fast)
			}
		}
		for _, in := range c.other {
			agree(t, v, []byte(c.schema), []byte(in))
		}
	}
}

// Whatever the steps limit, the fast path accepts nothing the general
// path finds too complex, also when it hands a subschema to the general
// path; and a limit of twice the instance's length leaves a fast schema fast.
func TestFastPathSteps(t *testing.T) {
	var b strings.Builder
	for k := range 100 {
		b.WriteString(strconv.Itoa(k) + ",")
	}
	in := []byte(`[[` + b.String() + `100],[2]]`)
	for _, schema := range []string{
		`{"type":"array","items":{"type":"array","items":{"type":"integer"}}}`,
		`{"type":"array","items":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`,
		`{"type":"array","items":{"type":"array","uniqueItems":true}}`,
	} {
		v := mustCompile(t, schema, nil)
		refused := 0
		for limit := 0; limit <= 2*len(in); limit++ {
			s := getState(v, in)
			s.maxSteps = limit
			s.general(v.root)
			complex := s.fatal != nil && s.fatal.Keyword == "complexity"
			putState(s)
			s = getState(v, in)
			s.maxSteps = limit
			fast := s.fastRun(v.root)
			putState(s)
			if complex {
				refused++
				require.False(t, fast, "%s: the fast path accepts with %d steps, the general path needs more", schema, limit)
			}
			require.False(t, limit == 2*len(in) && !fast && !strings.Contains(schema, "anyOf"), "%s: the fast path refuses with %d steps", schema, limit)
		}
		require.NotEqual(t, 0, refused, "%s: the general path never ran out of steps", schema)
	}
}

// FuzzFastPath checks, for generated schemas and instances (and the raw
// fuzz bytes as an instance), that the fast path accepts nothing the
// general path refuses and that Validate gives the general path's result;
// a valid generated instance without a backslash must be accepted on the
// fast path when the root is fast (an escaped or a repeated key makes the
// fast path give up; generated instances repeat none).
func FuzzFastPath(f *testing.F) {
	f.Add([]byte("\x12\x00\x05\x01\x02"), []byte("\x07\x02\x02\x03\x02\x02"), false)
	f.Add([]byte("\x13\x00\x12\x01\x00\x14\x01"), []byte(`{"a":1,"b":[1,2]}`), true)
	f.Add([]byte("\x00\x02\x0c\x04\x0e\x02"), []byte(`[[1,2],[3]]`), true)
	f.Add([]byte("\x09\x01\x0a\x02"), []byte(`"ab"`), false)
	f.Fuzz(func(t *testing.T, sb, ib []byte, dups bool) {
		g := &gen{b: sb}
		root := g.schema(0)
		if m, ok := root.(map[string]any); ok {
			m["$defs"] = map[string]any{"d": g.schema(1)}
		}
		schema, _ := json.Marshal(root)
		gi, _ := json.Marshal((&gen{b: ib}).value(0))
		opts := []*Options{nil, fastOpts}
		if dups {
			opts[0] = &Options{RejectDuplicateKeys: true, MaxDepth: 2}
		}
		for _, o := range opts {
			v, err := Compile(schema, o)
			if err != nil {
				continue
			}
			agree(t, v, schema, ib)
			general, fast := agree(t, v, schema, gi)
			require.False(t, general == nil && !fast && v.root.fast && !v.dynamic && !bytes.Contains(gi, []byte{'\\'}), "schema %s\ninstance %q\nvalid, but not on the fast path", schema, gi)
		}
	})
}

// Every JSON-Schema-Test-Suite case gives the general path's result, with
// and without the options typed tools use; the test log counts the valid
// cases accepted on the fast path.
func TestFastPathSuite(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(suiteDir(t), "*.json"))
	require.NoError(t, err)
	fast, valid := 0, 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		var groups []suiteGroup
		require.NoError(t, json.Unmarshal(raw, &groups))
		for _, g := range groups {
			for _, o := range []*Options{nil, {AssertFormat: true, RejectDuplicateKeys: true, NullAsAbsent: true}} {
				v, err := Compile(g.Schema, o)
				if err != nil {
					continue
				}
				for _, tc := range g.Tests {
					general, f := agree(t, v, g.Schema, tc.Data)
					if general == nil {
						valid++
						if f {
							fast++
						}
					}
				}
			}
		}
	}
	require.NotEqual(t, 0, fast, "no suite case took the fast path")
	t.Logf("%d of %d valid suite cases accepted on the fast path", fast, valid)
}

// TestCompileBooleanSubschemasConcurrently: the schemas true and false are
// shared nodes; compiling documents that hold them (here concurrently, so
// the race detector sees a write) must not write to them. buildFast once
// stored its fast-path data in the shared true node.
func TestCompileBooleanSubschemasConcurrently(t *testing.T) {
	doc := []byte(`{"type":"object","properties":{"a":true,"b":false,"c":{"items":true}},"additionalProperties":true}`)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				v, err := Compile(doc, nil)
				if !assert.NoError(t, err) {
					return
				}
				assert.NoError(t, v.Validate([]byte(`{"a":1,"c":[1,"x"],"d":null}`)))
				err = v.Validate([]byte(`{"b":1}`))
				assert.Error(t, err, `{"b":1} accepted; b is false`)
			}
		}()
	}
	wg.Wait()
}
