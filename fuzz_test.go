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
		`{"city":"` + "\xff" + `"}`, `{"a":[[[[[[[[[[]]]]]]]]]]}`, `{"city":"x","days":-0.0}`,
	} {
		f.Add([]byte(seed))
	}
	r := NewRegistry()
	MustRegister(r, "get_weather", "", weatherFn)
	MustRegister(r, "plan_trip", "", tripFn)
	MustRegister(r, "tree", "", func(_ context.Context, n node) (string, error) { return n.Name, nil })
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, args []byte) {
		for _, name := range []string{"get_weather", "plan_trip", "tree"} {
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
