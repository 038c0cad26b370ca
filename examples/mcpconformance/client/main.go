// Command client is the MCP client the official conformance suite's client
// scenarios run (@modelcontextprotocol/conformance):
//
//	conformance client --command ./client --requirements 2026-07-28
//
// The suite starts a scenario server and runs this program with its URL as
// the only argument. The program does what any host of a toolnexus
// registry does, through toolnexus's public API only: it loads the server's
// tools with mcp.Load (streamable HTTP, reconnection on, OAuth through
// go-sdk's authorization code handler, forms answered by Answer), puts them
// in a registry, and calls each one through Registry.Execute, with the
// arguments the suite gives in MCP_CONFORMANCE_CONTEXT ({"toolCalls":[…]})
// or else the simplest arguments its input schema accepts. It exits 1 when
// the server could not be loaded.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: client SERVER_URL")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := run(ctx, os.Args[1], os.Getenv("MCP_CONFORMANCE_CONTEXT")); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

// server is the config name of the one server loaded; its tools are
// "server_<name>" in the registry.
const server = "server"

// redirectURL is where the authorization server sends the person back.
const redirectURL = "http://localhost:3000/callback"

// run loads the server at serverURL and calls each of its tools once.
// conformanceContext is the suite's JSON context ("" for none): its
// client_id and client_secret are a pre-registered OAuth client, its
// toolCalls the calls to make.
func run(ctx context.Context, serverURL, conformanceContext string) error {
	var cc struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		ToolCalls    []struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"toolCalls"`
	}
	if conformanceContext != "" {
		if err := json.Unmarshal([]byte(conformanceContext), &cc); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	oauth, err := oauthHandler(cc.ClientID, cc.ClientSecret)
	if err != nil {
		return err
	}
	cfg := &mcp.Config{Servers: map[string]mcp.ServerConfig{server: {Name: server, Transport: mcp.TransportHTTP, URL: serverURL}}}
	servers := mcp.Load(ctx, cfg, &mcp.LoadOptions{
		OAuth:  func(mcp.ServerConfig) auth.OAuthHandler { return oauth },
		Answer: answer,
	})
	defer servers.Close()
	if err := servers.Err(); err != nil {
		return err
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(servers.Tools()...); err != nil {
		return err
	}
	if len(cc.ToolCalls) > 0 {
		for _, c := range cc.ToolCalls {
			report(c.Name, reg.Execute(ctx, mcp.SanitizeName(server+"_"+c.Name), c.Arguments))
		}
		return nil
	}
	for _, t := range reg.Tools() {
		report(t.Name, reg.Execute(ctx, t.Name, simplestArguments(t.InputSchema)))
	}
	return nil
}

// report writes a call's result to stderr, where the suite keeps it.
func report(name string, r toolnexus.Result) {
	fmt.Fprintf(os.Stderr, "%s: error=%v %s\n", name, r.IsError, r.Output)
}

// oauthHandler is go-sdk's authorization code flow with every way of
// registering the client the suite tests: a pre-registered client (when
// the suite gives one), a client ID metadata document, dynamic client
// registration.
func oauthHandler(clientID, clientSecret string) (auth.OAuthHandler, error) {
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirectURL,
		AuthorizationCodeFetcher: followRedirect,
		ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{
			URL: "https://conformance-test.local/client-metadata.json"},
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{redirectURL}}},
	}
	if clientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: clientID,
			ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: clientSecret}}
	}
	return auth.NewAuthorizationCodeHandler(cfg)
}

// followRedirect is the person's browser: the suite's authorization server
// answers the authorization URL with a redirect to redirectURL that carries
// the code, the state and the issuer.
func followRedirect(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, args.URL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || loc.String() == "" {
		return nil, errors.New("the authorization server did not redirect")
	}
	q := loc.Query()
	return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
}

// answer accepts every form a server asks, filling in each required field
// the schema gives no default for with the simplest value of its type;
// the SDK client adds the defaults of the fields left out.
func answer(_ context.Context, _ string, p toolnexus.PendingRequest) (toolnexus.Answer, error) {
	var d struct {
		Schema json.RawMessage `json:"schema"`
	}
	_ = json.Unmarshal(p.Data, &d)
	return toolnexus.Answer{ID: p.ID, OK: true, Data: simplestArguments(d.Schema)}, nil
}

// simplestArguments is an object holding each required property of the
// object schema s: its default, its first enum value, or the simplest
// value of its type ("x", 1, true, {}, []).
func simplestArguments(s json.RawMessage) json.RawMessage {
	var schema struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Type    any   `json:"type"`
			Default any   `json:"default"`
			Enum    []any `json:"enum"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(s, &schema)
	out := map[string]any{}
	for _, name := range schema.Required {
		p := schema.Properties[name]
		switch {
		case p.Default != nil:
			out[name] = p.Default
		case len(p.Enum) > 0:
			out[name] = p.Enum[0]
		default:
			typ, _ := p.Type.(string)
			v, ok := map[string]any{"string": "x", "number": 1, "integer": 1, "boolean": true, "array": []any{}}[typ]
			if !ok {
				v = map[string]any{}
			}
			out[name] = v
		}
	}
	b, _ := json.Marshal(out)
	return b
}
