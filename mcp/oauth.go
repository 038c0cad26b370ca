package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// Defaults of [LocalOAuth], used when a field is zero.
const (
	// DefaultOAuthPort is the default LocalOAuth.Port.
	DefaultOAuthPort = 33418
	// DefaultOAuthTimeout is the default LocalOAuth.Timeout.
	DefaultOAuthTimeout = 5 * time.Minute
)

// LocalOAuth is MCP authorization for a program run by the person it acts
// for (a CLI, a desktop host): for each remote server that answers 401 it
// runs go-sdk's authorization code flow (metadata discovery, dynamic
// client registration as a public client, PKCE, scope step-up, refresh
// tokens), shows the person the authorization URL through Open, receives
// the redirect on a loopback listener that is open only while it waits,
// and keeps the tokens in Dir so the next run needs no browser. Use its
// Handler as [LoadOptions].OAuth. It is safe for concurrent use; one
// authorization runs at a time.
type LocalOAuth struct {
	// Dir holds one token file per server URL, written with mode 0600
	// (the client's ID and secret, the endpoints and the token); "" means
	// os.UserConfigDir()/toolnexus/oauth.
	Dir string
	// Port is the redirect's loopback port: the redirect URI is
	// http://127.0.0.1:PORT/callback. Zero means DefaultOAuthPort (33418).
	Port int
	// Open shows url, the authorization server's page, to the person: it
	// opens their browser, or prints the URL. It returns once the page is
	// shown; the flow then waits for the redirect. Required.
	Open func(ctx context.Context, url string) error
	// Timeout bounds the wait for the redirect; zero means
	// DefaultOAuthTimeout (5 minutes).
	Timeout time.Duration
	// HTTPClient makes the metadata, registration and token requests; nil
	// means http.DefaultClient.
	HTTPClient *http.Client

	mu sync.Mutex // one authorization at a time: they share the port
}

// Handler returns the OAuth handler of server, starting from the token
// kept for its URL when there is one. It is nil for a server that is not
// remote, or when the handler cannot be made (then the server's requests
// go without a token and a 401 fails it).
func (o *LocalOAuth) Handler(server ServerConfig) auth.OAuthHandler {
	if server.URL == "" {
		return nil
	}
	port := o.Port
	if port == 0 {
		port = DefaultOAuthPort
	}
	redirect := "http://127.0.0.1:" + strconv.Itoa(port) + "/callback"
	store := &tokenFile{path: o.tokenPath(server.URL)}
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: o.fetch(port),
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{redirect}, ClientName: "toolnexus", TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"}}},
		RequestRefreshToken: true,
		Client:              o.HTTPClient,
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, t *oauth2.Token) (oauth2.TokenSource, error) {
			return store.source(ctx, c, t), nil
		},
	}
	if c, t, ok := store.load(); ok {
		cfg.InitialTokenSource = store.source(context.Background(), c, t)
	}
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return nil
	}
	return h
}

// tokenPath is the file of the token for serverURL.
func (o *LocalOAuth) tokenPath(serverURL string) string {
	dir := o.Dir
	if dir == "" {
		if base, err := os.UserConfigDir(); err == nil {
			dir = filepath.Join(base, "toolnexus", "oauth")
		}
	}
	sum := sha256.Sum256([]byte(serverURL))
	return filepath.Join(dir, hex.EncodeToString(sum[:12])+".json")
}

// fetch is the authorization step: listen on port, show the URL, wait for
// the redirect.
func (o *LocalOAuth) fetch(port int) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		if o.Open == nil {
			return nil, errors.New("mcp: LocalOAuth.Open is nil: nobody can be shown the authorization page")
		}
		o.mu.Lock()
		defer o.mu.Unlock()
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			return nil, fmt.Errorf("mcp: listening for the OAuth redirect: %w", err)
		}
		got := make(chan *auth.AuthorizationResult, 1)
		srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			if r.URL.Path != "/callback" || q.Get("state") == "" {
				http.NotFound(w, r)
				return
			}
			if e := q.Get("error"); e != "" {
				http.Error(w, "Authorization failed: "+e, http.StatusBadRequest)
			} else {
				_, _ = w.Write([]byte("Authorized. You can close this page and go back to toolnexus.\n"))
			}
			select {
			case got <- &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}:
			default:
			}
		})}
		go func() { _ = srv.Serve(ln) }()
		defer srv.Close()
		if err := o.Open(ctx, args.URL); err != nil {
			return nil, fmt.Errorf("mcp: showing the authorization page: %w", err)
		}
		timeout := o.Timeout
		if timeout == 0 {
			timeout = DefaultOAuthTimeout
		}
		t := time.NewTimer(timeout)
		defer t.Stop()
		select {
		case r := <-got:
			if r.Code == "" {
				return nil, errors.New("mcp: the authorization server redirected without a code")
			}
			return r, nil
		case <-t.C:
			return nil, fmt.Errorf("mcp: no authorization within %v", timeout)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// tokenFile keeps one server's client, endpoints and token.
type tokenFile struct {
	path string
	mu   sync.Mutex
}

type storedToken struct {
	ClientID     string        `json:"client_id"`
	ClientSecret string        `json:"client_secret,omitempty"`
	AuthURL      string        `json:"auth_url"`
	TokenURL     string        `json:"token_url"`
	AuthStyle    int           `json:"auth_style,omitempty"`
	RedirectURL  string        `json:"redirect_url"`
	Scopes       []string      `json:"scopes,omitempty"`
	Token        *oauth2.Token `json:"token"`
}

// load reads the kept token; ok is false when there is none to use.
func (f *tokenFile) load() (*oauth2.Config, *oauth2.Token, bool) {
	b, err := os.ReadFile(f.path)
	if err != nil {
		return nil, nil, false
	}
	var s storedToken
	if json.Unmarshal(b, &s) != nil || s.Token == nil || s.TokenURL == "" {
		return nil, nil, false
	}
	c := &oauth2.Config{ClientID: s.ClientID, ClientSecret: s.ClientSecret, RedirectURL: s.RedirectURL, Scopes: s.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: s.AuthURL, TokenURL: s.TokenURL, AuthStyle: oauth2.AuthStyle(s.AuthStyle)}}
	return c, s.Token, true
}

// save writes c and t, with mode 0600 in a directory of mode 0700.
func (f *tokenFile) save(c *oauth2.Config, t *oauth2.Token) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, err := json.Marshal(storedToken{ClientID: c.ClientID, ClientSecret: c.ClientSecret, AuthURL: c.Endpoint.AuthURL,
		TokenURL: c.Endpoint.TokenURL, AuthStyle: int(c.Endpoint.AuthStyle), RedirectURL: c.RedirectURL, Scopes: c.Scopes, Token: t})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
		return err
	}
	tmp := f.path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, f.path)
}

// source is c's token source from t that saves each new token it gets.
func (f *tokenFile) source(ctx context.Context, c *oauth2.Config, t *oauth2.Token) oauth2.TokenSource {
	return &savingSource{inner: c.TokenSource(ctx, t), cfg: c, file: f, last: t.AccessToken, first: t}
}

type savingSource struct {
	inner oauth2.TokenSource
	cfg   *oauth2.Config
	file  *tokenFile
	mu    sync.Mutex
	last  string
	first *oauth2.Token // saved on the first Token call
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	t, err := s.inner.Token()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.first != nil || t.AccessToken != s.last {
		s.first, s.last = nil, t.AccessToken
		_ = s.file.save(s.cfg, t) // a token not kept costs a browser visit next run, no more
	}
	return t, nil
}
