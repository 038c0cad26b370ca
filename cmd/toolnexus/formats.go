package main

import (
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
)

// appender is what every renderer's result implements.
type appender interface{ AppendJSON(dst []byte) []byte }

func bytesOf[T appender](v T, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return v.AppendJSON(nil), nil
}

// formats maps the canonical --format values to renderers. They follow
// the provider naming of render and exec (see render's package doc):
// openai-chat is OpenAI Chat Completions (render.OpenAI, exec's
// OpenAIChat), openai-responses the OpenAI Responses API
// (render.OpenAIResponses, exec's Responses). strict asks for OpenAI strict
// mode (with fallback for schemas that cannot be strict); renderers without
// a strict mode ignore it, and the tools command refuses the combination.
var formats = map[string]func(tools []toolnexus.Tool, o renderOpts) ([]byte, error){
	"openai-chat": func(ts []toolnexus.Tool, o renderOpts) ([]byte, error) {
		return bytesOf(render.OpenAIWith(ts, render.OpenAIOptions{Strict: o.strict, Fallback: o.strict}))
	},
	"openai-responses": func(ts []toolnexus.Tool, o renderOpts) ([]byte, error) {
		return bytesOf(render.OpenAIResponsesWith(ts, render.OpenAIOptions{Strict: o.strict, Fallback: o.strict}))
	},
	"anthropic": func(ts []toolnexus.Tool, o renderOpts) ([]byte, error) {
		return bytesOf(render.AnthropicWith(ts, render.AnthropicOptions{Strict: o.strict, Fallback: o.strict, RenameKeys: o.renameKeys}))
	},
	"gemini": func(ts []toolnexus.Tool, o renderOpts) ([]byte, error) {
		return bytesOf(render.GeminiWith(ts, render.GeminiOptions{RenameKeys: o.renameKeys}))
	},
	"mcp": func(ts []toolnexus.Tool, _ renderOpts) ([]byte, error) { return bytesOf(render.MCP(ts), nil) },
}

// renderOpts are the tools command's rendering flags.
type renderOpts struct {
	strict     bool // --strict
	renameKeys bool // --rename-keys
}

// formatAliases are the --format values of earlier releases, kept working:
// alias -> canonical name.
var formatAliases = map[string]string{"openai": "openai-chat", "responses": "openai-responses"}

// strictFormats are the canonical formats --strict applies to.
var strictFormats = map[string]bool{"openai-chat": true, "openai-responses": true, "anthropic": true}

// renameFormats are the canonical formats --rename-keys applies to: those
// whose profile has a property key rule.
var renameFormats = map[string]bool{"anthropic": true, "gemini": true}

// canonicalFormat returns the canonical name of a --format value (itself,
// or what its alias stands for).
func canonicalFormat(f string) string {
	if c, ok := formatAliases[f]; ok {
		return c
	}
	return f
}
