package mcp

import (
	"context"
	"encoding/json"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// anyJSONRevision is the first MCP revision whose outputSchema may be any
// JSON Schema and whose structuredContent any JSON value (SEP-2106);
// earlier ones allow only an object schema and an object.
const anyJSONRevision = "2026-07-28"

// wrapKey is the property a non-object result is sent under to a client of
// an earlier revision: {"result": [1,2]}, with the outputSchema
// {"type":"object","properties":{"result":<schema>},"required":["result"]}
// (the form FastMCP sends too).
const wrapKey = "result"

// olderRevision reports whether req's session negotiated a revision before
// anyJSONRevision. A session without initialize parameters (the
// 2026-07-28 server/discover handshake) is not older.
func olderRevision(req mcpsdk.Request) bool {
	ss, ok := req.GetSession().(*mcpsdk.ServerSession)
	if !ok || ss == nil || ss.InitializeParams() == nil {
		return false
	}
	v := ss.InitializeParams().ProtocolVersion
	return v != "" && v < anyJSONRevision
}

// revisionMiddleware gives clients of revisions before 2026-07-28 the
// object shapes they allow: a tool whose outputSchema is not an object
// schema is listed with it wrapped under "result", and its
// structuredContent is sent as {"result": value}. Newer clients get both
// unchanged.
func revisionMiddleware(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
	return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || (method != "tools/list" && method != "tools/call") || !olderRevision(req) {
			return res, err
		}
		switch r := res.(type) {
		case *mcpsdk.ListToolsResult:
			if r == nil {
				return res, err
			}
			out := *r
			out.Tools = make([]*mcpsdk.Tool, len(r.Tools))
			for i, t := range r.Tools {
				out.Tools[i] = t
				if s, ok := wrappedSchema(t.OutputSchema); ok {
					cp := *t
					cp.OutputSchema = s
					out.Tools[i] = &cp
				}
			}
			return &out, nil
		case *mcpsdk.CallToolResult:
			if r == nil || r.StructuredContent == nil {
				return res, err
			}
			b, ok := r.StructuredContent.(json.RawMessage)
			if !ok {
				b, _ = json.Marshal(r.StructuredContent)
			}
			if len(b) == 0 || b[0] == '{' {
				return res, err
			}
			out := *r
			out.StructuredContent = map[string]json.RawMessage{wrapKey: b}
			return &out, nil
		}
		return res, err
	}
}

// wrappedSchema returns the object schema holding schema s under "result"
// (s's $defs moved to the root, where its references point), and whether
// s needed it: false for an object schema or none.
func wrappedSchema(s any) (json.RawMessage, bool) {
	if s == nil {
		return nil, false
	}
	b, ok := s.(json.RawMessage)
	if !ok {
		var err error
		if b, err = json.Marshal(s); err != nil {
			return nil, false
		}
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || string(m["type"]) == `"object"` {
		return nil, false
	}
	defs, hasDefs := m["$defs"]
	delete(m, "$defs")
	inner, _ := json.Marshal(m)
	w := map[string]any{"type": "object", "properties": map[string]json.RawMessage{wrapKey: inner}, "required": []string{wrapKey}}
	if hasDefs {
		w["$defs"] = defs
	}
	out, err := json.Marshal(w)
	return out, err == nil
}
