package exec_test

import (
	"github.com/toolnexus/toolnexus/internal/golden"

	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/exec"
)

// TestGolden feeds each provider reply in testdata/replies/<provider>/ to
// the matching *JSON function and compares json.Marshal of what it returns,
// byte for byte, with testdata/golden/<provider>/<case>.json.
func TestGolden(t *testing.T) {
	providers := map[string]func(e *exec.Executor, raw []byte) (any, error){
		"openai_chat": func(e *exec.Executor, raw []byte) (any, error) {
			return e.OpenAIChatJSON(context.Background(), raw)
		},
		"openai_responses": func(e *exec.Executor, raw []byte) (any, error) {
			return e.ResponsesJSON(context.Background(), raw)
		},
		"anthropic": func(e *exec.Executor, raw []byte) (any, error) {
			return e.AnthropicJSON(context.Background(), raw)
		},
		"gemini": func(e *exec.Executor, raw []byte) (any, error) {
			return e.GeminiJSON(context.Background(), raw)
		},
	}
	reg := testRegistry(t)
	n := 0
	for provider, run := range providers {
		files, err := filepath.Glob(filepath.Join("testdata", "replies", provider, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no replies for %s", provider)
		}
		for _, file := range files {
			name := strings.TrimSuffix(filepath.Base(file), ".json")
			t.Run(provider+"/"+name, func(t *testing.T) {
				raw, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				// Sequential and parallel runs must give the same bytes.
				var outs [][]byte
				for _, conc := range []int{1, 0, -1} {
					v, err := run(exec.New(reg, &exec.Options{Concurrency: conc}), raw)
					if err != nil {
						t.Fatalf("Concurrency %d: %v", conc, err)
					}
					b, err := json.Marshal(v)
					if err != nil {
						t.Fatal(err)
					}
					if !utf8.Valid(b) {
						t.Errorf("Concurrency %d: output is not valid UTF-8: %q", conc, b)
					}
					outs = append(outs, append(b, '\n'))
				}
				for i := 1; i < len(outs); i++ {
					if !bytes.Equal(outs[0], outs[i]) {
						t.Fatalf("output differs between concurrency settings:\n%s\n%s", outs[0], outs[i])
					}
				}
				got := outs[0]
				file := filepath.Join("testdata", "golden", provider, name+".json")
				if want := golden.Check(t, file, got); !json.Valid(want) {
					t.Fatalf("%s is not valid JSON", file)
				}
			})
			n++
		}
	}
	if n < 8 {
		t.Errorf("only %d golden cases ran", n)
	}
}
