package exec_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolnexus/toolnexus/exec"
)

// parsers are the four Parse functions by testdata/replies directory.
var parsers = map[string]func([]byte) (int, error){
	"openai_chat": func(b []byte) (int, error) { v, err := exec.ParseOpenAIChat(b); return len(v), err },
	"openai_responses": func(b []byte) (int, error) {
		v, err := exec.ParseResponses(b)
		return len(v), err
	},
	"anthropic": func(b []byte) (int, error) { v, err := exec.ParseAnthropic(b); return len(v), err },
	"gemini":    func(b []byte) (int, error) { v, err := exec.ParseGemini(b); return len(v), err },
}

// BenchmarkParseReplies parses each provider's mixed reply (tool calls)
// and text-only reply (none) with its own Parse function.
func BenchmarkParseReplies(b *testing.B) {
	for _, p := range []string{"openai_chat", "openai_responses", "anthropic", "gemini"} {
		for _, f := range []string{"mixed", "text_only"} {
			raw, err := os.ReadFile(filepath.Join("testdata", "replies", p, f+".json"))
			if err != nil {
				b.Fatal(err)
			}
			parse := parsers[p]
			b.Run(p+"/"+f, func(b *testing.B) {
				b.ReportAllocs()
				start := cpuTime()
				for b.Loop() {
					if _, err := parse(raw); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, start)
			})
		}
	}
}
