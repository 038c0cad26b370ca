package render

import (
	"bytes"
	"encoding/json"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// openAIEmptySchema is the parameters of a tool declared without a schema,
// as both OpenAI renderers send it: OpenAI answers an object schema
// without "properties" with 400 "object schema missing properties".
var openAIEmptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

var openAIRootCache rewriteCache

// openAIRoot returns the parameters OpenAI accepts for schema s (a valid
// UTF-8 JSON object): s itself when its root has "properties", else a copy
// with "properties":{} appended. A root oneOf, anyOf or allOf is a
// *SchemaError wrapping ErrUnsupportedSchema (OpenAI refuses them even
// outside strict mode); the non-error renderers then send s unchanged.
func openAIRoot(s json.RawMessage) (json.RawMessage, error) {
	if len(s) == 0 || bytes.Equal(s, emptySchema) {
		return openAIEmptySchema, nil
	}
	return openAIRootCache.get(s, rewriteOpenAIRoot)
}

func rewriteOpenAIRoot(in []byte) (json.RawMessage, error) {
	tree, err := jsonx.Parse(in)
	if err != nil {
		return in, nil // not a schema: checkSchemas reports it, the pass-through replaces it
	}
	root, ok := tree.(*jsonx.Object)
	if !ok {
		return in, nil
	}
	for _, k := range [...]string{"oneOf", "anyOf", "allOf"} {
		if _, ok := root.Get(k); ok {
			return in, &SchemaError{Path: "/" + k, Msg: "OpenAI refuses " + k + " at the root of function parameters; " +
				"make the root one object schema (for example one optional property per alternative, checked by the handler)",
				Err: ErrUnsupportedSchema}
		}
	}
	if _, ok := root.Get("properties"); ok {
		return in, nil
	}
	if t, _ := root.Get("type"); t != "object" {
		return in, nil
	}
	root.Keys = append(root.Keys, "properties")
	root.Vals = append(root.Vals, &jsonx.Object{})
	return jsonx.Marshal(root), nil
}

// openAIParamsAll sets, for every tool, the parameters an OpenAI renderer
// sends: the pass-through bytes with the root rule of openAIRoot applied.
func openAIParamsAll(tools []toolnexus.Tool, set func(i int, s json.RawMessage)) {
	passThroughAll(tools, func(i int, s json.RawMessage) {
		p, err := openAIRoot(s)
		if err != nil {
			p = s
		}
		set(i, p)
	})
}

// checkOpenAIRoots reports the first tool whose root OpenAI refuses.
func checkOpenAIRoots(tools []toolnexus.Tool, renderer string) error {
	for i := range tools {
		if _, err := openAIRoot(schemaOf(&tools[i])); err != nil {
			return withTool(err, renderer, tools[i].Name)
		}
	}
	return nil
}
