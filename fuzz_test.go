package toolnexus

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzExecute feeds arbitrary bytes as arguments: Execute must never panic,
// must always return a Result, and an error result must carry text and a
// cause. When Execute accepts the arguments, encoding/json must accept them
// too (the checker is never looser than the decoder).
func FuzzExecute(f *testing.F) {
	for _, seed := range []string{
		``, `null`, `{}`, `{"city":"Paris"}`, `{"city":"Paris","unit":"celsius","days":3}`,
		`{"City":"x"}`, `[1]`, `{"city":"a"}{}`, `{"city":"\u00e9\ud83d\ude00"}`, `{"city":"a","days":1e400}`,
		`{"name":"a","stops":[{"city":"b","lat":1,"lon":2}]}`, `{"name":"a","children":[{"name":"b","parent":null}]}`,
		`{"ip":"::1","p":"10.0.0.0/8","bi":1e2,"br":"1/3","n":1.5,"kind":"fixed","tags":["a","a"]}`,
		`{"city":"` + "\xff" + `"}`, `{"a":[[[[[[[[[[]]]]]]]]]]}`, `{"city":"x","days":-0.0}`,
	} {
		f.Add([]byte(seed))
	}
	r := NewRegistry()
	MustRegister(r, "get_weather", "", weatherFn)
	MustRegister(r, "plan_trip", "", tripFn)
	MustRegister(r, "tree", "", func(_ context.Context, n node) (string, error) { return n.Name, nil })
	MustRegister(r, "std", "", noop[stdArgs]) // types that decode themselves, big numbers, defaults-free
	MustRegister(r, "paint", "", noop[paintArgs])
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, args []byte) {
		for _, name := range []string{"get_weather", "plan_trip", "tree", "std", "paint"} {
			res := r.Execute(ctx, name, json.RawMessage(args))
			if res.IsError {
				if res.Output == "" || res.Err == nil {
					t.Fatalf("%s: error result without text or cause: %+v", name, res)
				}
				if !utf8.ValidString(res.Output) {
					t.Fatalf("%s: output is not valid UTF-8: %q", name, res.Output)
				}
				continue
			}
			if trimmed := bytes.TrimSpace(args); len(trimmed) > 0 && string(trimmed) != "null" && !json.Valid(args) {
				t.Fatalf("%s: accepted invalid JSON %q", name, args)
			}
		}
	})
}

// paintArgs carries keywords from jsonschema tags, extras and defaults.
type paintArgs struct {
	Color string   `json:"color,omitempty" jsonschema:"enum=red,enum=green,default=red"`
	Kind  string   `json:"kind,omitempty" jsonschema_extras:"const=fixed"`
	Tags  []string `json:"tags,omitempty" jsonschema:"uniqueItems=true,maxItems=3"`
	Level int8     `json:"level,omitempty" jsonschema:"default=2,minimum=1"`
}
