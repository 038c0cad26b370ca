package main

import (
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/toolnexus/toolnexus/mcp"
)

// ---- serve ----

// tokenEnv names the environment variable that holds the bearer token for
// `serve --http`.
const tokenEnv = "TOOLNEXUS_TOKEN"

type serveOpts struct {
	kit      kitFlags
	http     string
	codeMode bool
	tasks    bool

	// HTTP only.
	tokenFile         string
	noAuth            bool
	allowOrigins      listFlag
	allowHosts        listFlag
	stateless         bool
	sessionTimeout    time.Duration
	maxSessions       int
	maxStreams        int
	maxSessionCalls   int
	maxBody           int64
	maxConns          int
	readTimeout       time.Duration
	readHeaderTimeout time.Duration
	idleTimeout       time.Duration

	fs *flag.FlagSet // to tell which flags were given
}

// httpOnly names the flags that apply only with --http.
var httpOnly = map[string]bool{"token-file": true, "no-auth": true, "allow-origin": true, "allow-host": true, "stateless": true,
	"session-timeout": true, "max-sessions": true, "max-streams": true, "max-body": true, "max-connections": true,
	"read-timeout": true, "read-header-timeout": true, "idle-timeout": true}

// httpFlagSet reports the first flag given (in name order) that applies only
// with --http, "" if none.
func (o *serveOpts) httpFlagSet() string {
	first := ""
	o.fs.Visit(func(f *flag.Flag) {
		if first == "" && httpOnly[f.Name] {
			first = "--" + f.Name
		}
	})
	return first
}

// token returns the bearer token from TOOLNEXUS_TOKEN or --token-file
// (surrounding whitespace removed), "" when neither is given.
func (o *serveOpts) token() (string, error) {
	env, inEnv := os.LookupEnv(tokenEnv)
	if o.tokenFile == "" {
		if inEnv && strings.TrimSpace(env) == "" {
			return "", fmt.Errorf("%s is set but empty", tokenEnv)
		}
		return strings.TrimSpace(env), nil
	}
	if inEnv {
		return "", fmt.Errorf("both %s and --token-file give a token; give only one", tokenEnv)
	}
	b, err := os.ReadFile(o.tokenFile)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("--token-file %s: the file is empty", o.tokenFile)
	}
	return tok, nil
}

// optionName matches the option a ServerOptions.Validate error names;
// optionFlags gives the flag (or source) it came from.
var (
	optionName  = regexp.MustCompile(`ServerOptions\.(\w+)(\[\d+\])?`)
	optionFlags = map[string]string{"AllowedOrigins": "--allow-origin", "AllowedHosts": "--allow-host", "BearerToken": "the token"}
)

// usageErr prints a serve usage error and returns exitUsage.
func usageErr(e *env, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "toolnexus serve: "+format+"\n", args...)
	return exitUsage
}

var serveCommand = &command{
	name: "serve",
	args: "[--skills DIR]... [--mcp FILE] [--openapi FILE_OR_URL]... [--openapi-base-url URL] [--no-builtins] [--disable NAME,...] [--workspace DIR]\n" +
		"                       [--code-mode] [--tasks] [--http ADDR [--token-file FILE | --no-auth] [--allow-origin ORIGIN]... [--allow-host HOST]... [--stateless] [limits]]",
	summary: "serve the toolkit's tools to MCP clients (stdio, or streamable HTTP with --http)",
	detail: "Builds the toolkit and serves its tools over the Model Context Protocol:\n" +
		"tools/list gives every tool with its input schema, tools/call runs it, and\n" +
		"an error result (invalid arguments, a failed call) comes back with isError\n" +
		"set. By default the server speaks MCP on standard input and output, for a\n" +
		"client that launches it (command \"toolnexus\", args [\"serve\", ...]); with\n" +
		"--http it listens on ADDR (host:port) for the streamable HTTP transport at\n" +
		"any path, until interrupted. With --skills, the skills prompt is sent as\n" +
		"the server's instructions. Diagnostics go to standard error.\n" +
		"\n" +
		"Whoever can call the server runs its tools (bash included) as you, so\n" +
		"every request needs \"Authorization: Bearer TOKEN\" (401 otherwise). The\n" +
		"token comes from the environment variable " + tokenEnv + " or from\n" +
		"--token-file FILE (never from the command line); without either, a random\n" +
		"token is generated and printed on standard error with the URL. On a\n" +
		"loopback ADDR (127.0.0.1:PORT, [::1]:PORT, localhost:PORT), --no-auth\n" +
		"serves without a token: then every user of this machine, and anyone whose\n" +
		"requests a proxy here forwards, can run the tools (a request carrying a\n" +
		"proxy header such as X-Forwarded-For gets 403). Any other ADDR (:PORT,\n" +
		"0.0.0.0:PORT, a LAN address, a host name) needs a token you set (exit\n" +
		"status 2 otherwise). A request from a browser page of another origin\n" +
		"than the server's gets 403 (--allow-origin adds origins), and so does a\n" +
		"Host header the server does not answer to (--allow-host adds names), which\n" +
		"stops DNS rebinding.",
	flags: func(fs *flag.FlagSet) any {
		o := &serveOpts{fs: fs}
		o.kit.register(fs)
		fs.BoolVar(&o.codeMode, "code-mode", false, "serve one tool, run_code, whose JavaScript programs call the loaded tools (docs/code-mode.md)")
		fs.BoolVar(&o.tasks, "tasks", false, "let clients call the tools as tasks that run on after the request (MCP 2025-11-25 tasks; at most 100, kept an hour)")
		fs.StringVar(&o.http, "http", "", "serve streamable HTTP on `ADDR` (e.g. 127.0.0.1:8080) instead of stdio")
		fs.StringVar(&o.tokenFile, "token-file", "", "require the bearer token in `FILE` (instead of $"+tokenEnv+")")
		fs.BoolVar(&o.noAuth, "no-auth", false, "serve a loopback ADDR without a bearer token (every local user can then run the tools)")
		fs.Var(&o.allowOrigins, "allow-origin", "also accept browser requests from `ORIGIN` (scheme://host[:port]; repeatable)")
		fs.Var(&o.allowHosts, "allow-host", "also answer to Host header `HOST` (name or IP, optional :port; repeatable)")
		fs.BoolVar(&o.stateless, "stateless", false, "serve each request on its own, without sessions (for replicas behind a load balancer)")
		fs.DurationVar(&o.sessionTimeout, "session-timeout", mcp.DefaultSessionTimeout, "close sessions idle for `DURATION` (negative: never)")
		fs.IntVar(&o.maxSessions, "max-sessions", mcp.DefaultMaxSessions, "refuse new sessions while `N` are open (negative: no limit)")
		fs.IntVar(&o.maxStreams, "max-streams", mcp.DefaultMaxStreams, "refuse POST requests while `N` are in progress, a batch counting per message (negative: no limit)")
		fs.IntVar(&o.maxSessionCalls, "max-session-calls", mcp.DefaultMaxSessionCalls, "run at most `N` tool calls of one session at once; more wait (negative: no limit)")
		fs.Int64Var(&o.maxBody, "max-body", mcp.DefaultMaxRequestBytes, "refuse request bodies over `BYTES` (negative: no limit)")
		fs.IntVar(&o.maxConns, "max-connections", mcp.DefaultMaxConnections, "hold at most `N` connections open; at the limit a new one closes the oldest that has not passed the token check, else waits (negative: no limit)")
		fs.DurationVar(&o.readTimeout, "read-timeout", mcp.DefaultReadTimeout, "cut off a request body not received within `DURATION` (negative: no limit)")
		fs.DurationVar(&o.readHeaderTimeout, "read-header-timeout", mcp.DefaultReadHeaderTimeout, "close a connection whose request headers take longer than `DURATION` (negative: no limit)")
		fs.DurationVar(&o.idleTimeout, "idle-timeout", mcp.DefaultIdleTimeout, "close a keep-alive connection idle for `DURATION` (negative: no limit)")
		return o
	},
	run: func(e *env, opts any, args []string) int {
		o := opts.(*serveOpts)
		sopts := &mcp.ServerOptions{Name: "toolnexus", Version: version()}
		generated := false // sopts.BearerToken made up for this run
		if o.http == "" {
			if f := o.httpFlagSet(); f != "" {
				return usageErr(e, "%s applies only with --http", f)
			}
		} else {
			if _, _, err := net.SplitHostPort(o.http); err != nil {
				var ae *net.AddrError
				if errors.As(err, &ae) {
					err = errors.New(ae.Err)
				}
				return usageErr(e, "--http %s: %v; ADDR is host:port (e.g. 127.0.0.1:8080)", o.http, err)
			}
			tok, err := o.token()
			if err != nil {
				return usageErr(e, "%v", err)
			}
			if tok != "" && o.noAuth {
				return usageErr(e, "--no-auth and a bearer token (%s or --token-file) contradict each other; give one", tokenEnv)
			}
			// Keep the token from the processes the tools start (bash,
			// stdio MCP servers).
			os.Unsetenv(tokenEnv)
			sopts.BearerToken = tok
			sopts.AllowedOrigins = o.allowOrigins.vals
			sopts.AllowedHosts = o.allowHosts.vals
			sopts.Stateless = o.stateless
			sopts.SessionTimeout = o.sessionTimeout
			sopts.MaxSessions = o.maxSessions
			sopts.MaxStreams = o.maxStreams
			sopts.MaxSessionCalls = o.maxSessionCalls
			sopts.MaxRequestBytes = o.maxBody
			sopts.MaxConnections = o.maxConns
			sopts.ReadTimeout = o.readTimeout
			sopts.ReadHeaderTimeout = o.readHeaderTimeout
			sopts.IdleTimeout = o.idleTimeout
			if err := sopts.Validate(); err != nil {
				msg := strings.TrimPrefix(err.Error(), "mcp: ")
				msg = optionName.ReplaceAllStringFunc(msg, func(m string) string { return optionFlags[optionName.FindStringSubmatch(m)[1]] })
				return usageErr(e, "%s", msg)
			}
			if tok == "" && !mcp.IsLoopbackAddr(o.http) {
				return usageErr(e, "--http %s is not a loopback address, and no bearer token is set: anyone who can reach it could run the served tools (bash and write included) as you.\n"+
					"Set the token in %s or give --token-file FILE, or listen on 127.0.0.1.", o.http, tokenEnv)
			}
			if tok == "" && !o.noAuth {
				sopts.BearerToken, generated = rand.Text(), true
			}
		}
		tk, err := o.kit.build(e)
		if err != nil {
			return fail(e, err)
		}
		defer tk.Close()
		if tk.Skills().Len() > 0 {
			sopts.Instructions = tk.SkillsPrompt()
		}
		served := tk.Registry
		if o.codeMode {
			if served, err = tk.CodeMode(nil); err != nil {
				return fail(e, err)
			}
		}
		if o.tasks {
			sopts.Tasks = &mcp.TaskOptions{}
		}
		srv := mcp.NewServer(served, sopts)
		defer srv.Close()
		srv.AddSkills(tk.Skills())         // prompts, and their files as resources
		for _, sk := range srv.Skipped() { // "name: reason"
			fmt.Fprintf(e.stderr, "toolnexus: warning: tool not served over MCP: %s\n", sk)
		}
		if o.http != "" {
			err = srv.ListenAndServe(e.ctx, o.http, func(a net.Addr) {
				fmt.Fprintf(e.stderr, "toolnexus: serving %d tools over MCP streamable HTTP on http://%s/\n", served.Len(), a)
				switch {
				case o.noAuth:
					fmt.Fprintf(e.stderr, "toolnexus: warning: --no-auth: every user of this machine, and anyone whose requests a proxy here forwards, can run these tools as you\n")
				case generated:
					fmt.Fprintf(e.stderr, "toolnexus: send the header \"Authorization: Bearer %s\" (a token generated for this run; set %s or --token-file to choose one)\n", sopts.BearerToken, tokenEnv)
				}
			})
		} else {
			err = srv.ServeIO(e.ctx, e.stdin, e.stdout)
		}
		if err != nil {
			return fail(e, err)
		}
		return exitOK
	},
}
