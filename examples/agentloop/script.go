package main

import (
	"embed"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"sync"
)

// recorded holds the provider replies the scripted servers play back,
// testdata/<provider>/turn<N>.response.json.
//
//go:embed testdata/*/turn*.response.json
var recorded embed.FS

// Script is a local stand-in for a provider API: an httptest.Server that
// answers the N-th request with the N-th recorded reply and keeps every
// request body it received. Before answering turn N > 1 it runs Check on
// the request, as the real API does (a turn that does not answer every
// tool call of the previous reply is rejected with 400).
type Script struct {
	// Server is the stand-in API; point the SDK client's base URL at
	// Server.URL.
	Server *httptest.Server

	provider string
	path     string // the only request path accepted, e.g. /chat/completions
	check    func(body []byte, prevReply []byte) error

	mu       sync.Mutex
	requests [][]byte
	replies  [][]byte
}

// NewScript starts a scripted server for provider ("openai", "anthropic"
// or "gemini") that accepts POSTs to wantPath only. check (may be nil)
// validates request N against reply N-1.
func NewScript(provider, wantPath string, check func(body, prevReply []byte) error) (*Script, error) {
	s := &Script{provider: provider, path: wantPath, check: check}
	for n := 1; ; n++ {
		b, err := recorded.ReadFile(path.Join("testdata", provider, fmt.Sprintf("turn%d.response.json", n)))
		if err != nil {
			break
		}
		s.replies = append(s.replies, b)
	}
	if len(s.replies) == 0 {
		return nil, fmt.Errorf("no recorded replies for %q", provider)
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s, nil
}

// Close shuts the server down.
func (s *Script) Close() { s.Server.Close() }

// Requests returns copies of the request bodies received so far, in order.
func (s *Script) Requests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([][]byte, len(s.requests))
	for i, b := range s.requests {
		out[i] = append([]byte(nil), b...)
	}
	return out
}

func (s *Script) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != s.path {
		http.Error(w, fmt.Sprintf(`{"error":{"message":"scripted %s server: unexpected %s %s (want POST %s)"}}`,
			s.provider, r.Method, r.URL.Path, s.path), http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, body)
	s.mu.Unlock()
	if n >= len(s.replies) {
		http.Error(w, `{"error":{"message":"scripted server: no more recorded turns"}}`, http.StatusGone)
		return
	}
	if n > 0 && s.check != nil {
		if err := s.check(body, s.replies[n-1]); err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":{"type":"invalid_request_error","message":%q}}`, err.Error())
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.replies[n])
}
