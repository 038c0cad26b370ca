package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/exec"
)

// providerNames is the one naming scheme for provider APIs across render,
// exec and --format, as render/doc.go and exec/doc.go state it.
var providerNames = []struct {
	api    string
	render []string // renderer functions (compiled in formats.go for the CLI)
	exec   []string // methods of *exec.Executor
	format string   // canonical --format value
	alias  string   // older --format value kept, or ""
}{
	{"OpenAI Chat Completions", []string{"OpenAI", "OpenAIStrict", "OpenAIWith"},
		[]string{"OpenAIChat", "OpenAIChatJSON", "OpenAIChatStream", "NewOpenAIChatFeed"}, "openai-chat", "openai"},
	{"OpenAI Responses", []string{"OpenAIResponses", "OpenAIResponsesWith"},
		[]string{"Responses", "ResponsesJSON", "ResponsesStream", "NewResponsesFeed"}, "openai-responses", "responses"},
	{"Anthropic Messages", []string{"Anthropic", "AnthropicWith"},
		[]string{"Anthropic", "AnthropicJSON", "AnthropicStream", "NewAnthropicFeed"}, "anthropic", ""},
	{"Gemini", []string{"Gemini", "GeminiWith"},
		[]string{"Gemini", "GeminiJSON", "GeminiStream", "NewGeminiFeed"}, "gemini", ""},
	{"MCP", []string{"MCP"}, nil, "mcp", ""},
}

// docSection returns the text of the "# Provider names" section of a
// package doc, comment markers and doc-link brackets removed, split into
// its bullets by the API name that starts each.
func docSection(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "// # Provider names\n")
	if !ok {
		t.Fatalf("%s has no # Provider names section", path)
	}
	if i := strings.Index(rest, "// # "); i >= 0 {
		rest = rest[:i]
	}
	var text strings.Builder
	for _, line := range strings.Split(rest, "\n") {
		text.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "//"), " ") + "\n")
	}
	bullets := map[string]string{}
	for _, item := range strings.Split(text.String(), "\n  - ")[1:] {
		api, body, _ := strings.Cut(item, ":")
		body = strings.NewReplacer("[", "", "]", "").Replace(body)
		bullets[api] = strings.Join(strings.Fields(body), " ")
	}
	return bullets
}

func TestProviderNamesOneScheme(t *testing.T) {
	ex := reflect.TypeOf(&exec.Executor{})
	renderDoc := docSection(t, filepath.Join(repoRoot, "render", "doc.go"))
	execDoc := docSection(t, filepath.Join(repoRoot, "exec", "doc.go"))
	canonical := map[string]bool{}
	for _, p := range providerNames {
		canonical[p.format] = true
		if formats[p.format] == nil {
			t.Errorf("%s: --format %s is not a format", p.api, p.format)
		}
		if p.alias != "" && formatAliases[p.alias] != p.format {
			t.Errorf("%s: --format alias %s stands for %q, want %s", p.api, p.alias, formatAliases[p.alias], p.format)
		}
		for _, m := range p.exec {
			if _, ok := ex.MethodByName(m); !ok {
				t.Errorf("%s: exec.Executor has no method %s", p.api, m)
			}
		}
		words := append(append(append([]string{}, p.render...), p.exec...), "--format "+p.format)
		if p.alias != "" {
			words = append(words, "alias "+p.alias)
		}
		for doc, bullets := range map[string]map[string]string{"render/doc.go": renderDoc, "exec/doc.go": execDoc} {
			text, ok := bullets[p.api]
			if !ok {
				if doc == "exec/doc.go" && p.exec == nil {
					continue
				}
				t.Errorf("%s: no bullet for %s", doc, p.api)
				continue
			}
			for _, w := range words {
				if !regexp.MustCompile(`(^|[ .(,;])` + regexp.QuoteMeta(w) + `($|[ .),;])`).MatchString(text) {
					t.Errorf("%s, %s: %q not mentioned in %q", doc, p.api, w, text)
				}
			}
		}
	}
	for f := range formats {
		if !canonical[f] {
			t.Errorf("--format %s is not in the naming scheme", f)
		}
	}
	if len(renderDoc) != len(providerNames) || len(execDoc) != len(providerNames)-1 {
		t.Errorf("bullets: render %d, exec %d; want %d and %d", len(renderDoc), len(execDoc), len(providerNames), len(providerNames)-1)
	}
}
