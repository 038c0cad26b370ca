package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// DefaultTimeout is the per-server timeout used when a server entry sets
// none: 30 seconds. It bounds starting, the initialize handshake and
// listing tools, and separately each tool call.
const DefaultTimeout = 30 * time.Second

// Transport kinds of a [ServerConfig].
const (
	TransportStdio = "stdio" // a local process spoken to over stdin/stdout
	TransportHTTP  = "http"  // a remote server on MCP streamable HTTP
	TransportSSE   = "sse"   // a remote server on the older HTTP+SSE transport (spec 2024-11-05)
)

// Config is a parsed MCP configuration file: the servers it lists, by name.
type Config struct {
	// Servers holds one entry per server, keyed by the server's name (the
	// key in the file). Names are non-empty.
	Servers map[string]ServerConfig
}

// Names returns the server names, sorted.
func (c *Config) Names() []string {
	if c == nil {
		return nil
	}
	names := make([]string, 0, len(c.Servers))
	for n := range c.Servers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ServerConfig describes one MCP server. It is filled from an entry of a
// config file by [ParseConfig]; programs may also build it directly.
type ServerConfig struct {
	// Name is the server's name: its key in the config file. It becomes the
	// prefix of its tools' names ("server_tool").
	Name string

	// Transport is TransportStdio, TransportHTTP or TransportSSE. In a file
	// it comes from "type" (or "transport"): "stdio" or "local" mean stdio;
	// "http", "streamable-http", "streamableHttp" or "remote" mean HTTP;
	// "sse" means SSE. Without it, an entry with "command" is stdio and one
	// with "url" is HTTP.
	Transport string

	// Command is the program to run and its first arguments (stdio only).
	// In a file "command" is a string (the program, never split at spaces)
	// or an array of strings (program and arguments).
	Command []string

	// Args are appended to Command ("args" in a file).
	Args []string

	// Env holds extra environment variables for the process, added to its
	// default environment (see InheritEnv) and replacing variables of the
	// same name ("env" or "environment" in a file). Values may
	// use ${VAR} and ${VAR:-default} (default: literal text without "}"
	// or "${"), expanded when the server starts; other forms, nesting
	// included, are an error. There is no escape for a literal "${".
	Env map[string]string

	// InheritEnv passes the whole environment of this process to the
	// server ("inheritEnv": true in a file). Without it (and without
	// LoadOptions.InheritEnv) the server gets only the variables named by
	// DefaultEnvNames that are set, plus Env, so secrets such as API keys
	// in this process's environment do not reach it.
	InheritEnv bool

	// Dir is the working directory of the process ("cwd"); "" means the
	// current directory.
	Dir string

	// URL is the endpoint of a remote server ("url").
	URL string

	// Headers are sent with every HTTP request to a remote server
	// ("headers"). Values may use ${VAR} and ${VAR:-default}, expanded from
	// the environment when the server connects, with the same rules as Env.
	// Header values are secrets: they never appear in errors, logs, status
	// or String.
	Headers map[string]string

	// Disabled skips the server: it is reported as disabled and not
	// started. In a file: "disabled": true or "enabled": false.
	Disabled bool

	// IncludeTools, when not empty, names the server's tools (by the
	// server's own names, before the prefix) that are offered; the others
	// are not loaded. ExcludeTools names tools that are not offered, even
	// when IncludeTools names them too. In a file "includeTools" and
	// "excludeTools", arrays of names, as Gemini CLI's mcpServers entries
	// write them.
	IncludeTools, ExcludeTools []string

	// Timeout bounds starting the server plus listing its tools, and each
	// tool call; zero means DefaultTimeout. In a file "timeout" is a number
	// of milliseconds or a Go duration string such as "45s"; a value that
	// does not fit a time.Duration (over about 292 years) is an error.
	Timeout time.Duration
}

// String describes the server without secrets: header and environment
// values are replaced by "<redacted>".
func (c ServerConfig) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s", c.Name, c.Transport)
	switch c.Transport {
	case TransportStdio:
		fmt.Fprintf(&b, ": %q", slices.Concat(c.Command, c.Args))
		if len(c.Env) > 0 {
			fmt.Fprintf(&b, ", env %s", redactedKeys(c.Env))
		}
		if c.InheritEnv {
			b.WriteString(", inherits the environment")
		}
	default:
		fmt.Fprintf(&b, ": %s", c.URL)
		if len(c.Headers) > 0 {
			fmt.Fprintf(&b, ", headers %s", redactedKeys(c.Headers))
		}
	}
	if c.Disabled {
		b.WriteString(", disabled")
	}
	b.WriteString(")")
	return b.String()
}

// GoString is String, so that %#v does not print secrets either.
func (c ServerConfig) GoString() string { return c.String() }

func redactedKeys(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k+"=<redacted>")
	}
	sort.Strings(keys)
	return "[" + strings.Join(keys, " ") + "]"
}

func (c ServerConfig) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// LoadConfig reads and parses the MCP configuration file at path (see
// [ParseConfig]). Errors name the file.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mcp: read config: %w", err)
	}
	cfg, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("mcp: %s: %w", path, err)
	}
	return cfg, nil
}

// ParseConfig parses an MCP configuration in the common JSON shape shared
// by Claude Desktop/Claude Code ("mcpServers"), VS Code ("servers") and
// opencode ("mcp"):
//
//	{"mcpServers": {
//	  "files":  {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
//	             "env": {"DEBUG": "1"}, "timeout": 10000},
//	  "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
//	  "off":    {"command": ["./server"], "disabled": true}
//	}}
//
// The top-level object must have at least one of "mcpServers", "servers"
// and "mcp" (several are merged). A server name given twice, in one object
// or across them, is an error, and so is one of these three keys given
// twice. Each
// entry needs "command" or "url" but not both. Keys not described in
// [ServerConfig] are ignored, so files written for other clients load.
// Errors name the server and the field.
func ParseConfig(data []byte) (*Config, error) {
	cfg, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("mcp: %w", err)
	}
	return cfg, nil
}

// parseConfig is ParseConfig with errors that start "config".
func parseConfig(data []byte) (*Config, error) {
	top, err := objectMembers(data)
	if err != nil {
		return nil, fmt.Errorf("config is not a JSON object: %w", err)
	}
	cfg := &Config{Servers: map[string]ServerConfig{}}
	found := false
	for _, key := range []string{"mcpServers", "servers", "mcp"} {
		i := slices.IndexFunc(top, func(m member) bool { return m.key == key })
		if i < 0 {
			continue
		}
		if slices.ContainsFunc(top[i+1:], func(m member) bool { return m.key == key }) {
			return nil, fmt.Errorf("config: %q is given twice", key)
		}
		found = true
		entries, err := objectMembers(top[i].val)
		if err != nil {
			return nil, fmt.Errorf("config %q must be an object of servers by name", key)
		}
		slices.SortStableFunc(entries, func(a, b member) int { return strings.Compare(a.key, b.key) })
		for j, e := range entries {
			name := e.key
			if name == "" {
				return nil, fmt.Errorf("config %q: a server has an empty name", key)
			}
			if j > 0 && entries[j-1].key == name {
				return nil, fmt.Errorf("config %q: server %q is given twice", key, name)
			}
			if _, dup := cfg.Servers[name]; dup {
				return nil, fmt.Errorf("config: server %q is given twice", name)
			}
			sc, err := parseServer(name, e.val)
			if err != nil {
				return nil, fmt.Errorf("config: server %q: %w", name, err)
			}
			cfg.Servers[name] = sc
		}
	}
	if !found {
		return nil, errors.New(`config has no "mcpServers", "servers" or "mcp" object`)
	}
	return cfg, nil
}

// member is one key and raw value of a JSON object, in document order.
type member struct {
	key string
	val json.RawMessage
}

// objectMembers returns the members of the JSON object in data in document
// order, keeping keys that appear more than once (json.Unmarshal into a map
// would silently keep the last). data must be exactly one object.
func objectMembers(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not an object")
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string) // the decoder only yields strings as keys
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		out = append(out, member{key, val})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid data after the top-level object")
	}
	return out, nil
}

// offers reports whether the server's tool name is offered under
// IncludeTools and ExcludeTools.
func (sc ServerConfig) offers(name string) bool {
	if len(sc.IncludeTools) > 0 && !slices.Contains(sc.IncludeTools, name) {
		return false
	}
	return !slices.Contains(sc.ExcludeTools, name)
}

// rawServer is one entry as found in a file.
type rawServer struct {
	Type        string            `json:"type"`
	Transport   string            `json:"transport"`
	Command     json.RawMessage   `json:"command"`
	Args        []string          `json:"args"`
	Env         map[string]string `json:"env"`
	Environment map[string]string `json:"environment"`
	InheritEnv  bool              `json:"inheritEnv"`
	Cwd         string            `json:"cwd"`
	URL         string            `json:"url"`
	Headers     map[string]string `json:"headers"`
	Disabled    *bool             `json:"disabled"`
	Enabled     *bool             `json:"enabled"`
	Timeout     json.RawMessage   `json:"timeout"`
	Include     []string          `json:"includeTools"`
	Exclude     []string          `json:"excludeTools"`
}

func parseServer(name string, raw json.RawMessage) (ServerConfig, error) {
	var r rawServer
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&r); err != nil {
		return ServerConfig{}, fieldError(err)
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return ServerConfig{}, errors.New("entry is null, want an object")
	}
	sc := ServerConfig{Name: name, Args: r.Args, Dir: r.Cwd, URL: r.URL, Headers: r.Headers, InheritEnv: r.InheritEnv,
		IncludeTools: r.Include, ExcludeTools: r.Exclude}
	switch {
	case r.Env != nil && r.Environment != nil:
		return sc, errors.New(`give "env" or "environment", not both`)
	case r.Env != nil:
		sc.Env = r.Env
	default:
		sc.Env = r.Environment
	}
	if len(r.Command) > 0 && !bytes.Equal(r.Command, []byte("null")) {
		var one string
		if err := json.Unmarshal(r.Command, &one); err == nil {
			sc.Command = []string{one}
		} else if err := json.Unmarshal(r.Command, &sc.Command); err != nil {
			return sc, errors.New(`"command" must be a string or an array of strings`)
		}
		if len(sc.Command) == 0 || sc.Command[0] == "" {
			return sc, errors.New(`"command" is empty`)
		}
	}
	typ := r.Type
	if typ == "" {
		typ = r.Transport
	}
	switch strings.ToLower(typ) {
	case "":
		switch {
		case sc.Command != nil:
			sc.Transport = TransportStdio
		case sc.URL != "":
			sc.Transport = TransportHTTP
		}
	case "stdio", "local":
		sc.Transport = TransportStdio
	case "http", "streamable-http", "streamablehttp", "streamable_http", "remote":
		sc.Transport = TransportHTTP
	case "sse":
		sc.Transport = TransportSSE
	default:
		return sc, fmt.Errorf(`unknown "type" %q (want "stdio", "http" or "sse")`, typ)
	}
	switch {
	case sc.Command != nil && sc.URL != "":
		return sc, errors.New(`give "command" or "url", not both`)
	case sc.Command == nil && sc.URL == "":
		return sc, errors.New(`needs "command" (a local server) or "url" (a remote one)`)
	case sc.Transport == TransportStdio && sc.Command == nil:
		return sc, errors.New(`stdio server needs "command"`)
	case sc.Transport != TransportStdio && sc.URL == "":
		return sc, fmt.Errorf(`%s server needs "url"`, sc.Transport)
	}
	if sc.Transport != TransportStdio && len(sc.Args) > 0 {
		return sc, errors.New(`"args" only applies to a server with "command"`)
	}
	if sc.Transport != TransportStdio && sc.InheritEnv {
		return sc, errors.New(`"inheritEnv" only applies to a server with "command"`)
	}
	if (r.Disabled != nil && *r.Disabled) || (r.Enabled != nil && !*r.Enabled) {
		sc.Disabled = true
	}
	if len(r.Timeout) > 0 && !bytes.Equal(r.Timeout, []byte("null")) {
		d, err := parseTimeout(r.Timeout)
		if err != nil {
			return sc, err
		}
		sc.Timeout = d
	}
	return sc, nil
}

func parseTimeout(raw json.RawMessage) (time.Duration, error) {
	const maxMs = math.MaxInt64 / int64(time.Millisecond)
	var num json.Number
	if err := json.Unmarshal(raw, &num); err == nil {
		tooLarge := fmt.Errorf(`"timeout" %s ms is too large (at most %d ms, about 292 years)`, num, maxMs)
		if ms, err := strconv.ParseInt(num.String(), 10, 64); err == nil {
			switch {
			case ms < 0:
				return 0, fmt.Errorf(`"timeout" is negative (%d ms)`, ms)
			case ms > maxMs:
				return 0, tooLarge
			}
			return time.Duration(ms) * time.Millisecond, nil
		}
		ms, err := num.Float64()
		switch {
		case err != nil && !errors.Is(err, strconv.ErrRange):
			return 0, fmt.Errorf(`"timeout" %s is not a number`, num)
		case ms < 0:
			return 0, fmt.Errorf(`"timeout" is negative (%s ms)`, num)
		case err != nil || ms > float64(maxMs):
			return 0, tooLarge
		}
		return time.Duration(ms * float64(time.Millisecond)), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, errors.New(`"timeout" must be a number of milliseconds or a duration string like "45s"`)
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf(`"timeout" %q is not a duration like "45s" or "2m"`, s)
	}
	return d, nil
}

// fieldError turns a json decoding error into one naming the field.
func fieldError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("%q has the wrong type: got JSON %s", te.Field, te.Value)
	}
	return fmt.Errorf("entry is not a valid object: %v", err)
}

// expandEnv replaces ${VAR} and ${VAR:-default} in s with values from
// lookup. A variable that is unset (and has no default) is an error naming
// the variable; the error never contains s itself.
//
// These are the only forms: the default is literal text up to the first
// "}", so it cannot contain "}" and a nested "${" in it is an error rather
// than a guess. A "$" not followed by "{" is kept as it is, and there is no
// escape ("$$" is two dollar signs), so a value cannot contain a literal
// "${".
func expandEnv(s string, lookup func(string) (string, bool)) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", errors.New(`unclosed "${"`)
		}
		b.WriteString(s[:i])
		expr := s[i+2 : i+j]
		name, def, hasDef := strings.Cut(expr, ":-")
		if !validEnvName(name) {
			return "", fmt.Errorf("invalid variable name %q in ${...} (only ${VAR} and ${VAR:-default} are supported)", name)
		}
		if strings.Contains(def, "${") {
			return "", fmt.Errorf("nested ${...} in the default of ${%s:-...} is not supported", name)
		}
		v, ok := lookup(name)
		switch {
		case ok && (v != "" || !hasDef):
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			return "", fmt.Errorf("environment variable %s is not set", name)
		}
		s = s[i+j+1:]
	}
}

func validEnvName(name string) bool {
	if name == "" {
		return false
	}
	for i, c := range name {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
