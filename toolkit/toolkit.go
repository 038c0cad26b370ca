// Package toolkit assembles one [toolnexus.Registry] from every source of
// tools: the program's own tools, agent skills (the `skill` tool), the
// built-in tools, and tools loaded from MCP servers (package mcp).
//
//	tk, err := toolkit.Build(ctx, &toolkit.Config{Skills: []string{"examples/skills"}})
//	if err != nil { ... }
//	defer tk.Close()
//	tools := render.OpenAI(tk.Tools()) // apply_patch bash edit glob grep question read skill todowrite webfetch write
//	system := basePrompt + "\n\n" + tk.SkillsPrompt()
//
// # Precedence
//
// When two sources offer the same name: an MCP tool beats the skill tool,
// which beats a built-in. A tool in [Config.Tools] replaces a built-in of
// the same name (a sandboxed bash, say); sharing a name with the skill tool
// or an MCP tool is an error, since neither side can be dropped silently.
//
// # Built-ins
//
// The ten built-in tools of package builtin are on by default.
// [Config.NoBuiltins] turns them all off; [Config.Builtins] turns single
// ones off by name, and a name there that is not a built-in is a Build
// error (so a typo such as "Bash" cannot leave bash on). Built-ins never
// appear in the skills prompt.
package toolkit

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/builtin"
	"github.com/toolnexus/toolnexus/codemode"
	"github.com/toolnexus/toolnexus/internal/suggest"
	"github.com/toolnexus/toolnexus/mcp"
	"github.com/toolnexus/toolnexus/skill"
)

// Config says what goes into a [Toolkit]. The zero value gives the ten
// built-in tools, confined to the current directory.
type Config struct {
	// Tools are the program's own tools: typed ones made with
	// toolnexus.NewTool, or raw ones. A tool here replaces a built-in of the
	// same name; a name shared with the skill tool, an MCP tool or another
	// entry of Tools is an error (wrapping toolnexus.ErrDuplicateTool).
	Tools []toolnexus.Tool

	// Skills are folders searched recursively for SKILL.md files (see
	// skill.Discover). A folder that does not exist is an error (a
	// *skill.RootError); bad SKILL.md files are skipped and reported by
	// Toolkit.Skills().Skipped(). When at least one skill loads (from here
	// or SkillData), the `skill` tool is added.
	Skills []string

	// SkillData are skills given as data, for hosts that do not keep them on
	// disk. They come before discovered skills, so a discovered skill of the
	// same name is skipped as a duplicate.
	SkillData []skill.Skill

	// SkillFiles is how many files of a skill's folder the skill tool lists;
	// zero means skill.DefaultMaxFiles (10), negative means none.
	SkillFiles int

	// NoBuiltins leaves out every built-in tool.
	NoBuiltins bool

	// Builtins switches single built-in tools by name: a name mapped to
	// false is left out; true, or no entry, keeps it. A key that is not
	// the name of a built-in tool (builtin.Names; names are case-sensitive)
	// is a Build error wrapping toolnexus.ErrUnknownTool that names the
	// key, suggests the built-in it differs from only in case, and lists
	// the built-ins: {"Bash": false} must not leave bash on.
	Builtins map[string]bool

	// BuiltinOptions configure the built-in tools: the workspace they are
	// confined to ("" means the current directory), network policy, limits.
	BuiltinOptions builtin.Options

	// Registry configures the registry Build creates: the argument size
	// limit and the default per-call timeout.
	Registry toolnexus.Options

	// MCP lists MCP servers whose tools join the toolkit (a parsed config,
	// see mcp.ParseConfig). Build starts or connects to every enabled
	// server (mcp.Load); a server that fails, and a tool the registry
	// refuses, is isolated and reported by Toolkit.MCPStatus, never a
	// Build error. Their tools, named "server_tool", beat the skill tool
	// and built-ins of the same name, and Toolkit.Close stops every server
	// process. The registry follows the servers after Build (see
	// Toolkit).
	MCP *mcp.Config

	// MCPFile is the path of an MCP config file ("mcpServers", "servers"
	// or "mcp"; see mcp.ParseConfig), used like MCP. A file that cannot
	// be read or parsed is a Build error; so is setting both MCP and
	// MCPFile.
	MCPFile string

	// MCPOptions configure how MCP servers are loaded (their stderr, the
	// HTTP client, ...); nil means the defaults.
	MCPOptions *mcp.LoadOptions

	// OpenAPI lists OpenAPI 3.0/3.1 documents (file paths or http(s)
	// URLs) whose operations join the toolkit as HTTP tools, one per
	// operation (see openapi.Import); a document that cannot be read or
	// parsed is a Build error, and operations that cannot be expressed are
	// reported by Toolkit.OpenAPI. They rank with MCP tools.
	OpenAPI []string

	// OpenAPIBaseURL, when not "", replaces the servers of every OpenAPI
	// document. Its host may be on the local or private network (the
	// operator named it); other hosts pass the private-network guard.
	OpenAPIBaseURL string
}

// Toolkit is the assembled registry plus what came with it. It embeds the
// *toolnexus.Registry, so tk.Tools(), tk.Execute(...) and the rest work
// directly; the registry may be changed after Build like any other.
//
// After Build the registry follows the MCP servers (mcp.Servers.OnChange):
// the tools of a server whose connection ends are removed, and a server
// that sends notifications/tools/list_changed has its tools replaced by
// the new listing (only the tools that changed are removed and added). A
// built-in or the skill tool that an MCP tool shadowed comes back when
// that MCP tool goes; an MCP tool that appears later under the name of a
// tool in Config.Tools is left out and reported in MCPStatus.Skipped.
// Every change is one Registry.Replace (removals and additions in one
// step, so a tool that changes or trades places with the one it shadows is
// never missing for a concurrent Execute), and Registry.OnChange functions
// (an MCP server's tools/list_changed) see it. A tool the caller removed
// comes back if its server changes it.
//
// A Toolkit is safe for concurrent use. Call Close when done with it.
type Toolkit struct {
	// Registry holds the assembled tools; its methods are the Toolkit's.
	*toolnexus.Registry

	skills  *skill.Set
	mcp     *mcp.Servers // nil without MCP config
	openapi []OpenAPIReport

	syncMu    sync.Mutex
	native    map[string]bool           // names of Config.Tools
	lower     map[string]toolnexus.Tool // built-ins and the skill tool by name, shadowed or not
	mcpTools  map[string]toolnexus.Tool // MCP tools in the registry, by name
	conflicts map[string]bool           // MCP tool names left out: also in Config.Tools

	closeOnce sync.Once
	closers   []func() error // run by Close in reverse order (MCP server processes)
	closeErr  error
}

// Sources of tools in increasing precedence; native (Config.Tools) is
// handled apart, see put.
type source int

const (
	fromBuiltin source = iota
	fromSkill
	fromMCP
	fromNative
)

func (s source) String() string {
	switch s {
	case fromBuiltin:
		return "built-in"
	case fromSkill:
		return "skill"
	case fromMCP:
		return "MCP"
	}
	return "Config.Tools"
}

type placed struct {
	tool toolnexus.Tool
	src  source
}

// assembly collects tools by name, applying the precedence rules.
type assembly struct {
	byName map[string]placed
	order  []string // first-seen order, for a stable Add
}

// put adds t from src. Among built-in, skill and MCP tools the higher
// source wins. A native tool beats a built-in and conflicts with anything
// else.
func (a *assembly) put(t toolnexus.Tool, src source) error {
	prev, ok := a.byName[t.Name]
	if !ok {
		a.byName[t.Name] = placed{t, src}
		a.order = append(a.order, t.Name)
		return nil
	}
	switch {
	case prev.src == src:
		return &toolkitError{fmt.Sprintf("duplicate tool: %q is given twice by %s", t.Name, src), toolnexus.ErrDuplicateTool}
	case prev.src == fromNative && src == fromBuiltin:
		return nil // the program's tool stays
	case src == fromNative && prev.src == fromBuiltin:
		a.byName[t.Name] = placed{t, src}
	case prev.src == fromNative || src == fromNative:
		other := prev.src
		if other == fromNative {
			other = src
		}
		return &toolkitError{fmt.Sprintf("duplicate tool: %q is both in Config.Tools and the name of a %s tool", t.Name, other), toolnexus.ErrDuplicateTool}
	case src > prev.src:
		a.byName[t.Name] = placed{t, src}
	}
	return nil
}

// Build assembles a Toolkit from a copy of config; nil means the zero
// Config (the ten built-in tools, confined to the current directory).
// Tools come from, in this order of precedence on a shared name: MCP
// servers, the skill tool, built-ins; the program's own tools
// (Config.Tools) replace built-ins (see the package doc).
//
// Errors: ctx is already done; a key of Config.Builtins is not a built-in
// tool (wrapping toolnexus.ErrUnknownTool); a skills folder is missing or
// unreadable (*skill.RootError, errors.Is(err, fs.ErrNotExist) for a
// missing one); the built-in workspace is missing; a tool is invalid or a
// name conflict the rules do not resolve (toolnexus.ErrInvalidName,
// ErrDuplicateTool, ...). An error of package skill, mcp, openapi or the
// registry is returned as it is, under that package's prefix ("skill: ",
// "mcp: ", "openapi: ", "toolnexus: "); Build's own errors start
// "toolkit: ". On error nothing is left running.
func Build(ctx context.Context, config *Config) (*Toolkit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var cfg Config
	if config != nil {
		cfg = *config
	}
	if err := checkBuiltinNames(cfg.Builtins); err != nil {
		return nil, err
	}
	tk := &Toolkit{}
	ok := false
	defer func() {
		if !ok {
			tk.Close()
		}
	}()

	a := &assembly{byName: map[string]placed{}}
	tk.native, tk.lower = map[string]bool{}, map[string]toolnexus.Tool{}
	for _, t := range cfg.Tools {
		if err := a.put(t, fromNative); err != nil {
			return nil, err
		}
		tk.native[t.Name] = true
	}

	set, err := skill.Load(cfg.Skills, &skill.Options{MaxFiles: cfg.SkillFiles, Data: cfg.SkillData})
	if err != nil {
		return nil, err
	}
	tk.skills = set
	if set.Len() > 0 {
		if err := a.put(set.Tool(), fromSkill); err != nil {
			return nil, err
		}
	}

	if !cfg.NoBuiltins {
		bts, err := builtinTools(cfg)
		if err != nil {
			return nil, err
		}
		for _, t := range bts {
			if err := a.put(t, fromBuiltin); err != nil {
				return nil, err
			}
		}
	}

	if cfg.MCP != nil || cfg.MCPFile != "" {
		mcfg := cfg.MCP
		if cfg.MCPFile != "" {
			if mcfg != nil {
				return nil, errors.New("toolkit: set Config.MCP or Config.MCPFile, not both")
			}
			if mcfg, err = mcp.LoadConfig(cfg.MCPFile); err != nil {
				return nil, err
			}
		}
		for name, p := range a.byName {
			if p.src == fromBuiltin || p.src == fromSkill {
				tk.lower[name] = p.tool
			}
		}
		tk.mcp = mcp.Load(ctx, mcfg, cfg.MCPOptions)
		tk.onClose(tk.mcp.Close)
		tk.mcpTools = map[string]toolnexus.Tool{}
		for _, t := range tk.mcp.Tools() {
			if err := a.put(t, fromMCP); err != nil {
				return nil, err
			}
			tk.mcpTools[t.Name] = t
		}
	}

	for _, doc := range cfg.OpenAPI {
		res, err := importOpenAPI(ctx, doc, cfg.OpenAPIBaseURL)
		if err != nil {
			return nil, err
		}
		tk.openapi = append(tk.openapi, OpenAPIReport{Document: doc, Skipped: res.Skipped, Notes: res.Notes})
		for _, t := range res.Tools {
			if err := a.put(t, fromMCP); err != nil {
				return nil, err
			}
		}
	}

	tools := make([]toolnexus.Tool, 0, len(a.order))
	for _, name := range a.order {
		tools = append(tools, a.byName[name].tool)
	}
	reg := toolnexus.NewRegistryWith(&cfg.Registry)
	if err := reg.Add(tools...); err != nil {
		return nil, err
	}
	tk.Registry = reg
	if tk.mcp != nil {
		tk.onClose(nilErr(tk.mcp.OnChange(tk.syncMCP)))
		tk.syncMCP() // changes between Load and OnChange
	}
	ok = true
	return tk, nil
}

func nilErr(fn func()) func() error { return func() error { fn(); return nil } }

// syncMCP brings the registry in line with the MCP servers' current
// tools: it removes the MCP tools that went or changed (restoring a
// built-in or the skill tool they shadowed) and adds the new and changed
// ones (removing a built-in or the skill tool they shadow). Tools are
// compared with reflect.DeepEqual; mcp.Servers.Tools gives equal values
// for tools that did not change.
func (tk *Toolkit) syncMCP() { tk.syncTools(tk.mcp.Tools()) }

// syncTools is syncMCP with the MCP servers' tools given.
func (tk *Toolkit) syncTools(mcpTools []toolnexus.Tool) {
	tk.syncMu.Lock()
	defer tk.syncMu.Unlock()
	next := map[string]toolnexus.Tool{}
	conflicts := map[string]bool{}
	for _, t := range mcpTools {
		if tk.native[t.Name] {
			conflicts[t.Name] = true
			continue
		}
		next[t.Name] = t
	}
	var remove []string
	var add []toolnexus.Tool
	for name, old := range tk.mcpTools {
		t, ok := next[name]
		if ok && reflect.DeepEqual(old, t) {
			continue
		}
		remove = append(remove, name)
		if low, shadowed := tk.lower[name]; !ok && shadowed {
			add = append(add, low)
		}
	}
	for name, t := range next {
		old, ok := tk.mcpTools[name]
		if ok && reflect.DeepEqual(old, t) {
			continue
		}
		if _, shadows := tk.lower[name]; !ok && shadows {
			remove = append(remove, name)
		}
		add = append(add, t)
	}
	slices.SortFunc(add, func(a, b toolnexus.Tool) int { return strings.Compare(a.Name, b.Name) })
	// One Replace: a tool that changes, or trades places with the one it
	// shadows, is never missing for a concurrent Execute.
	if err := tk.Registry.Replace(remove, add...); err != nil {
		// Only a name the caller took in the meantime: leave those out.
		var ok []toolnexus.Tool
		for _, t := range add {
			if _, taken := tk.Registry.Get(t.Name); taken && !slices.Contains(remove, t.Name) {
				if t.Source == "mcp" {
					delete(next, t.Name)
				}
				continue
			}
			ok = append(ok, t)
		}
		if tk.Registry.Replace(remove, ok...) != nil {
			// The caller is still changing the registry: one at a time.
			tk.Registry.Remove(remove...)
			for _, t := range ok {
				if tk.Registry.Add(t) != nil && t.Source == "mcp" {
					delete(next, t.Name)
				}
			}
		}
	}
	tk.mcpTools, tk.conflicts = next, conflicts
}

// checkBuiltinNames reports every key of m that is not a built-in tool, in
// name order, each with a did-you-mean when it differs from one only in
// case, followed by the list of built-ins.
func checkBuiltinNames(m map[string]bool) error {
	known := builtin.Names()
	var unknown []string
	for name := range m {
		if !slices.Contains(known, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	var b strings.Builder
	b.WriteString("Config.Builtins: ")
	for i, name := range unknown {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "unknown built-in tool %q", name)
		if k := suggest.Closest(name, known); k != "" {
			fmt.Fprintf(&b, " (did you mean %q?)", k)
		}
	}
	b.WriteString("; built-in tools: ")
	b.WriteString(strings.Join(known, ", "))
	return &toolkitError{b.String(), toolnexus.ErrUnknownTool}
}

// toolkitError is an error of Build's own: "toolkit: " then msg. It
// wraps target (toolnexus.ErrUnknownTool, ErrDuplicateTool) without
// repeating that error's text.
type toolkitError struct {
	msg    string
	target error
}

func (e *toolkitError) Error() string { return "toolkit: " + e.msg }
func (e *toolkitError) Unwrap() error { return e.target }

// builtinTools returns the built-ins cfg keeps.
func builtinTools(cfg Config) ([]toolnexus.Tool, error) {
	keep := false
	for _, name := range builtin.Names() {
		if on, set := cfg.Builtins[name]; !set || on {
			keep = true
			break
		}
	}
	if !keep {
		return nil, nil
	}
	all, err := builtin.Tools(&cfg.BuiltinOptions)
	if err != nil {
		return nil, err // builtin names its package
	}
	out := all[:0]
	for _, t := range all {
		if on, set := cfg.Builtins[t.Name]; set && !on {
			continue
		}
		out = append(out, t)
	}
	return out, nil
}

// Skills returns the skills the toolkit loaded (an empty Set when none);
// Skills().Skipped() lists the SKILL.md files that were skipped and why.
func (tk *Toolkit) Skills() *skill.Set { return tk.skills }

// SkillsPrompt returns the text for the system prompt that lists the
// loaded skills (see skill.Set.SkillsPrompt); "No skills are available."
// when none has a description. It never mentions built-in tools.
func (tk *Toolkit) SkillsPrompt() string { return tk.skills.SkillsPrompt() }

// MCPStatus reports every configured MCP server, sorted by name:
// connected (with its tools), failed (with the reason) or disabled. It is
// nil when the toolkit has no MCP config.
//
// A server's Tools are the names it offers; one that appeared after Build
// under the name of a tool in Config.Tools is moved to its Skipped as
// "name: also the name of a tool in Config.Tools".
func (tk *Toolkit) MCPStatus() []mcp.ServerStatus {
	if tk.mcp == nil {
		return nil
	}
	st := tk.mcp.Status()
	tk.syncMu.Lock()
	defer tk.syncMu.Unlock()
	for i := range st {
		for _, name := range st[i].Tools {
			if tk.conflicts[name] {
				st[i].Skipped = append(st[i].Skipped, name+": also the name of a tool in Config.Tools")
			}
		}
		st[i].Tools = slices.DeleteFunc(st[i].Tools, func(n string) bool { return tk.conflicts[n] })
	}
	return st
}

// CodeMode returns a registry whose one tool, run_code, runs JavaScript
// programs that call the toolkit's tools (see [codemode.NewRegistry]; opts
// nil means codemode's defaults). It follows the toolkit's registry, MCP
// servers' changes included, until Close. The error is codemode's (a
// tool it cannot declare).
func (tk *Toolkit) CodeMode(opts *codemode.Options) (*toolnexus.Registry, error) {
	reg, stop, err := codemode.NewRegistry(tk.Registry, opts)
	if err != nil {
		return nil, err
	}
	tk.onClose(nilErr(stop))
	return reg, nil
}

// onClose registers fn to run on Close (used by MCP server connections).
func (tk *Toolkit) onClose(fn func() error) { tk.closers = append(tk.closers, fn) }

// Close releases what the toolkit started: it stops every MCP server
// process and waits for them to exit. It is safe to call more than once; later calls
// return the first call's error. The registry stays usable, but tools of
// closed servers fail.
func (tk *Toolkit) Close() error {
	tk.closeOnce.Do(func() {
		var errs []error
		for i := len(tk.closers) - 1; i >= 0; i-- {
			if err := tk.closers[i](); err != nil {
				errs = append(errs, err)
			}
		}
		tk.closeErr = errors.Join(errs...)
	})
	return tk.closeErr
}
