// Package oauthtest is an MCP server behind OAuth, with its
// authorization server, for tests of the loader's OAuth.
package oauthtest

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp"
)

// Server is an MCP server behind a bearer token and the
// authorization server that issues it: protected resource and
// authorization server metadata, dynamic registration, an authorization
// endpoint that redirects at once (the person says yes), and a token
// endpoint that checks PKCE and refreshes.
type Server struct {
	URL       string // the MCP endpoint, serving one tool, whoami
	mu        sync.Mutex
	codes     map[string]string // code -> PKCE challenge
	Issued    atomic.Int32      // access tokens issued by the code grant
	Refreshed atomic.Int32      // access tokens issued by refresh
	valid     map[string]bool
}

// NewServer starts the servers on loopback until t ends.
func NewServer(t testing.TB) *Server {
	t.Helper()
	o := &Server{codes: map[string]string{}, valid: map[string]bool{}}
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "whoami", "Says who.", func(context.Context, struct{}) (string, error) { return "authorized", nil }))
	srv := mcp.NewServer(reg, nil)
	t.Cleanup(func() { srv.Close() })
	mux := http.NewServeMux()
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	base := hs.URL
	o.URL = base + "/mcp"
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		o.mu.Lock()
		defer o.mu.Unlock()
		if !o.valid[token] {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Expiration: time.Now().Add(time.Hour)}, nil
	}
	mux.Handle("/mcp", auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: base + "/.well-known/oauth-protected-resource/mcp"})(srv.Handler()))
	writeJSON := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, map[string]any{"resource": o.URL, "authorization_servers": []string{base}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "response_types_supported": []string{"code"},
			"grant_types_supported": []string{"authorization_code", "refresh_token"}, "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"}})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		var m map[string]any
		_ = json.NewDecoder(r.Body).Decode(&m)
		m["client_id"] = "client-1"
		w.WriteHeader(http.StatusCreated)
		writeJSON(w, m)
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		code := fmt.Sprintf("code-%d", time.Now().UnixNano())
		o.mu.Lock()
		o.codes[code] = q.Get("code_challenge")
		o.mu.Unlock()
		http.Redirect(w, r, q.Get("redirect_uri")+"?code="+code+"&state="+url.QueryEscape(q.Get("state")), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		o.mu.Lock()
		defer o.mu.Unlock()
		switch r.Form.Get("grant_type") {
		case "authorization_code":
			challenge, ok := o.codes[r.Form.Get("code")]
			sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
			if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != challenge {
				http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
				return
			}
			delete(o.codes, r.Form.Get("code"))
			o.Issued.Add(1)
		case "refresh_token":
			if r.Form.Get("refresh_token") != "refresh-1" {
				http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
				return
			}
			o.Refreshed.Add(1)
		}
		tok := fmt.Sprintf("access-%d", o.Issued.Load()+o.Refreshed.Load())
		o.valid[tok] = true
		writeJSON(w, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "refresh_token": "refresh-1"})
	})
	return o
}
