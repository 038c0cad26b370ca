package mcp

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// requestRefHeader carries, from the HTTP handler to the tool filter, the
// key of the HTTP request an MCP request came in: the SDK hands its
// middleware the request's headers, not the request. The handler sets it
// on every request (a client's own value is overwritten), so it cannot be
// forged.
const requestRefHeader = "X-Toolnexus-Request-Ref"

// requestRefs maps requestRefHeader values to the HTTP requests open now.
type requestRefs struct{ open sync.Map }

// wrap records each request for the time its handler runs.
func (rr *requestRefs) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := rand.Text()
		r.Header.Set(requestRefHeader, key)
		rr.open.Store(key, r)
		defer rr.open.Delete(key)
		h.ServeHTTP(w, r)
	})
}

// request is the HTTP request req came in, nil when it came another way.
func (rr *requestRefs) request(req mcpsdk.Request) *http.Request {
	extra := req.GetExtra()
	if extra == nil || extra.Header == nil {
		return nil
	}
	if r, ok := rr.open.Load(extra.Header.Get(requestRefHeader)); ok {
		return r.(*http.Request)
	}
	return nil
}

// filterMiddleware applies ServerOptions.ToolFilter: it drops the tools the
// filter refuses from tools/list answers and answers a call of one as the
// SDK answers a call of an unknown tool. Tools the registry does not have
// (added to SDKServer directly) pass.
func (s *Server) filterMiddleware(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
	return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
		allowed := func(name string) bool {
			t, ok := s.reg.Get(name)
			return !ok || s.opts.ToolFilter(s.refs.request(req), t)
		}
		switch method {
		case "tools/call":
			if p, ok := req.GetParams().(*mcpsdk.CallToolParamsRaw); ok && p != nil && !allowed(p.Name) {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", p.Name)}
			}
		case "tools/list":
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcpsdk.ListToolsResult); ok && err == nil && lr != nil {
				out := *lr
				out.Tools = make([]*mcpsdk.Tool, 0, len(lr.Tools))
				for _, t := range lr.Tools {
					if allowed(t.Name) {
						out.Tools = append(out.Tools, t)
					}
				}
				return &out, nil
			}
			return res, err
		}
		return next(ctx, method, req)
	}
}
