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

// formats maps --format values to renderers. strict asks for OpenAI strict
// mode (with fallback for schemas that cannot be strict); renderers without
// a strict mode ignore it, and the tools command refuses the combination.
var formats = map[string]func(tools []toolnexus.Tool, strict bool) ([]byte, error){
	"openai": func(ts []toolnexus.Tool, strict bool) ([]byte, error) {
		return bytesOf(render.OpenAIWith(ts, render.OpenAIOptions{Strict: strict, Fallback: strict}))
	},
	"responses": func(ts []toolnexus.Tool, strict bool) ([]byte, error) {
		return bytesOf(render.OpenAIResponsesWith(ts, render.OpenAIOptions{Strict: strict, Fallback: strict}))
	},
	"anthropic": func(ts []toolnexus.Tool, _ bool) ([]byte, error) { return bytesOf(render.Anthropic(ts)) },
	"gemini":    func(ts []toolnexus.Tool, _ bool) ([]byte, error) { return bytesOf(render.Gemini(ts)) },
	"mcp":       func(ts []toolnexus.Tool, _ bool) ([]byte, error) { return bytesOf(render.MCP(ts), nil) },
}

// strictFormats are the formats --strict applies to.
var strictFormats = map[string]bool{"openai": true, "responses": true}
