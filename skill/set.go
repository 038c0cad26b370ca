package skill

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolnexus/toolnexus"
)

// DefaultMaxFiles is how many files the skill tool lists in <skill_files>
// when Options.MaxFiles is zero.
const DefaultMaxFiles = 10

// ToolName is the name of the tool made by [Set.Tool]: "skill".
const ToolName = "skill"

// ErrUnknownSkill is the Result.Err of a skill tool call (and the error of
// [Set.Render]) naming a skill that is not in the Set.
var ErrUnknownSkill = errors.New("skill: unknown skill")

// Options configure a [Set]. The zero value is ready to use.
type Options struct {
	// MaxFiles is how many files of a skill's directory the skill tool lists
	// in <skill_files>; zero means DefaultMaxFiles (10) and a negative value
	// means none (the element is then empty).
	MaxFiles int

	// Data are skills given as data rather than found on disk. [Load] puts
	// them before the discovered ones, so a discovered skill with the same
	// name is skipped as a DuplicateName.
	Data []Skill
}

// Set is an immutable collection of skills with unique names: the source of
// the skill tool and the skills prompt. It is safe for concurrent use.
type Set struct {
	skills  []Skill // sorted by name
	byName  map[string]int
	skipped []Skipped
	max     int
}

// New returns a Set of the given skills and opts.Data, in that order. Names
// are trimmed. It returns an error for a skill without a name or a name
// given twice; use [Load] to skip such skills instead. opts nil means the
// zero Options.
func New(skills []Skill, opts *Options) (*Set, error) {
	if opts == nil {
		opts = &Options{}
	}
	all := append(slices.Clone(skills), opts.Data...)
	s := newSet(*opts)
	for _, sk := range all {
		sk.Name = strings.TrimSpace(sk.Name)
		sk.Description = strings.TrimSpace(sk.Description)
		if sk.Name == "" {
			return nil, errors.New("skill: New: a skill has no name")
		}
		if _, dup := s.byName[sk.Name]; dup {
			return nil, fmt.Errorf("skill: New: skill %q is given twice", sk.Name)
		}
		s.add(sk)
	}
	s.sort()
	return s, nil
}

// Load discovers the skills under roots with [Discover] and returns a Set
// of opts.Data followed by them. Skipped files, and data skills without a
// name or with a taken one, are kept in [Set.Skipped]. The error is
// Discover's (a *RootError) and the Set is nil then. opts nil means the
// zero Options.
func Load(roots []string, opts *Options) (*Set, error) {
	if opts == nil {
		opts = &Options{}
	}
	inv, err := Discover(roots...)
	if err != nil {
		return nil, err
	}
	s := newSet(*opts)
	for i, sk := range opts.Data {
		sk.Name = strings.TrimSpace(sk.Name)
		sk.Description = strings.TrimSpace(sk.Description)
		where := fmt.Sprintf("Options.Data[%d]", i)
		if sk.Name == "" {
			s.skipped = append(s.skipped, Skipped{Path: where, Reason: MissingName, Detail: "the skill has no name"})
			continue
		}
		if _, dup := s.byName[sk.Name]; dup {
			s.skipped = append(s.skipped, Skipped{Path: where, Reason: DuplicateName, Detail: fmt.Sprintf("skill %q is given twice", sk.Name)})
			continue
		}
		s.add(sk)
	}
	for _, sk := range inv.Skills {
		if _, dup := s.byName[sk.Name]; dup {
			s.skipped = append(s.skipped, Skipped{Path: sk.Path, Reason: DuplicateName,
				Detail: fmt.Sprintf("skill %q is already given as data", sk.Name)})
			continue
		}
		s.add(sk)
	}
	s.skipped = append(s.skipped, inv.Skipped...)
	s.sort()
	return s, nil
}

func newSet(opts Options) *Set {
	max := opts.MaxFiles
	if max == 0 {
		max = DefaultMaxFiles
	}
	return &Set{byName: map[string]int{}, max: max}
}

func (s *Set) add(sk Skill) {
	sk.Resources = slices.Clone(sk.Resources)
	s.byName[sk.Name] = len(s.skills)
	s.skills = append(s.skills, sk)
}

func (s *Set) sort() {
	slices.SortFunc(s.skills, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	for i, sk := range s.skills {
		s.byName[sk.Name] = i
	}
}

// Skills returns a copy of the skills, sorted by name.
func (s *Set) Skills() []Skill { return slices.Clone(s.skills) }

// Names returns the skill names, sorted.
func (s *Set) Names() []string {
	out := make([]string, len(s.skills))
	for i, sk := range s.skills {
		out[i] = sk.Name
	}
	return out
}

// Len returns the number of skills.
func (s *Set) Len() int { return len(s.skills) }

// Get returns the named skill.
func (s *Set) Get(name string) (Skill, bool) {
	i, ok := s.byName[name]
	if !ok {
		return Skill{}, false
	}
	return s.skills[i], true
}

// Skipped returns what [Load] skipped, in discovery order (data skills
// first); nil for a Set made by [New].
func (s *Set) Skipped() []Skipped { return slices.Clone(s.skipped) }

// skillsPreamble opens the skills prompt.
const skillsPreamble = "Skills are folders of instructions, scripts and reference files for specific tasks. " +
	"When a task matches one of the skills below, call the `skill` tool with its name to load it before you start, " +
	"then follow the instructions it returns."

// noSkillsPrompt is the whole skills prompt when no skill has a description.
const noSkillsPrompt = "No skills are available."

// SkillsPrompt returns the text to add to the system prompt so the model
// knows which skills exist:
//
//	Skills are folders of instructions, ... then follow the instructions it returns.
//
//	## Available Skills
//	- **hello-world**: Greets someone by name with the bundled script.
//
// One line per skill that has a description, sorted by name, with the
// description's white space (new lines included) collapsed to single
// spaces. With no described skill the whole text is "No skills are
// available." with no preamble. Skills without a description can still be
// loaded by name but are not advertised.
func (s *Set) SkillsPrompt() string {
	var b strings.Builder
	for _, sk := range s.skills {
		if sk.Description == "" {
			continue
		}
		if b.Len() == 0 {
			b.WriteString(skillsPreamble)
			b.WriteString("\n\n## Available Skills\n")
		}
		b.WriteString("- **")
		b.WriteString(sk.Name)
		b.WriteString("**: ")
		b.WriteString(oneLine(sk.Description))
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		return noSkillsPrompt
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// toolDescription is the skill tool's description.
const toolDescription = "Load a skill: the full instructions, and the list of bundled files, for one kind of task. " +
	"The skills you can load are listed under \"Available Skills\" in the system prompt, each with a description of when it applies. " +
	"When the task at hand matches one of them, call this tool with that skill's name before doing the task, then follow the instructions it returns. " +
	"Relative paths in a skill resolve against the base directory given in the result."

type toolArgs struct {
	Name string `json:"name" jsonschema_description:"The name of the skill to load, exactly as listed under Available Skills in the system prompt."`
}

// Tool returns the `skill` tool (Source "skill"). Its input is
//
//	{"type":"object","properties":{"name":{"type":"string","description":"The name of the skill to load, ..."}},"required":["name"],"additionalProperties":false}
//
// and its output is [Set.Render] of the named skill. An unknown name is an
// error result listing the available skills, with Err wrapping
// ErrUnknownSkill.
func (s *Set) Tool() toolnexus.Tool {
	t, err := toolnexus.NewResultTool(ToolName, toolDescription, func(_ context.Context, a toolArgs) toolnexus.Result {
		out, err := s.Render(a.Name)
		if err != nil {
			return toolnexus.Result{Output: err.Error(), IsError: true, Err: err}
		}
		return toolnexus.Result{Output: out}
	})
	if err != nil {
		panic("skill: building the skill tool: " + err.Error()) // static input: cannot happen
	}
	t.Title = "Load skill"
	t.Source = "skill"
	t.Annotations = &toolnexus.Annotations{Title: "Load skill", ReadOnlyHint: true, IdempotentHint: true,
		OpenWorldHint: new(false)}
	return t
}

// Render returns the skill tool's output for the named skill (see the
// package doc for the format). For a skill on disk it lists the skill's
// directory now, so the file list reflects the folder at call time; for a
// skill given as data it lists Resources, sorted. The error, for an unknown
// name, wraps ErrUnknownSkill and its text lists the available skills.
func (s *Set) Render(name string) (string, error) {
	sk, ok := s.Get(name)
	if !ok {
		list := "none"
		if len(s.skills) > 0 {
			list = strings.Join(s.Names(), ", ")
		}
		shown := name
		if len(shown) > 80 {
			shown = strings.ToValidUTF8(shown[:80], "") + "…"
		}
		return "", &unknownError{msg: fmt.Sprintf("unknown skill %q; available skills: %s", shown, list)}
	}
	files, more := s.files(sk)
	var b strings.Builder
	b.WriteString(`<skill_content name="`)
	b.WriteString(escapeXML(sk.Name))
	b.WriteString("\">\n# Skill: ")
	b.WriteString(sk.Name)
	b.WriteString("\n\n")
	if body := strings.TrimSpace(sk.Content); body != "" {
		b.WriteString(body)
		b.WriteString("\n\n")
	}
	if sk.Dir != "" {
		b.WriteString("Base directory for this skill: ")
		b.WriteString(FileURL(sk.Dir))
		b.WriteString("\nRelative paths in this skill (for example scripts/ or reference/) resolve against this base directory.\n")
	}
	if more {
		b.WriteString(fmt.Sprintf("Note: the file list is sampled; it shows the first %d files in path order.\n", len(files)))
	}
	if sk.Dir != "" || more {
		b.WriteByte('\n')
	}
	b.WriteString("<skill_files>\n")
	for _, f := range files {
		b.WriteString("<file>")
		b.WriteString(escapeXML(f))
		b.WriteString("</file>\n")
	}
	b.WriteString("</skill_files>\n</skill_content>")
	return b.String(), nil
}

// Files returns the files the skill tool lists for the named skill, as
// [Set.Render] lists them: for a skill on disk the absolute paths of the
// files in its directory now (its SKILL.md, names starting with "." and
// nested skills left out; symbolic links followed), for a skill given as
// data its Resources, sorted; at most Options.MaxFiles of them, with more
// reporting that others were left out. ok is false for an unknown name.
func (s *Set) Files(name string) (files []string, more, ok bool) {
	sk, ok := s.Get(name)
	if !ok {
		return nil, false, false
	}
	files, more = s.files(sk)
	return files, more, true
}

func (s *Set) files(sk Skill) (files []string, more bool) {
	if sk.Dir != "" {
		return listFiles(sk.Dir, s.max)
	}
	if s.max <= 0 {
		return nil, false
	}
	files = slices.Clone(sk.Resources)
	slices.Sort(files)
	if len(files) > s.max {
		files, more = files[:s.max], true
	}
	return files, more
}

type unknownError struct{ msg string }

func (e *unknownError) Error() string { return e.msg }
func (e *unknownError) Unwrap() error { return ErrUnknownSkill }

// FileURL returns the file:// URL of an absolute path, as [Set.Render]
// writes a skill's base directory: file:///home/me/skills/pdf.
func FileURL(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows: C:/x -> /C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// listFiles returns up to max files under dir (absolute paths, depth first
// in byte order of names), leaving out the skill's own SKILL.md, names
// starting with ".", and subdirectories that hold their own SKILL.md (they
// are other skills). Symbolic links to directories are followed once. more
// reports that files were left out.
func listFiles(dir string, max int) (files []string, more bool) {
	if max <= 0 {
		return nil, false
	}
	seen := map[string]bool{}
	var walk func(d string, top bool) bool // false: stop
	walk = func(d string, top bool) bool {
		real, err := filepath.EvalSymlinks(d)
		if err != nil || seen[real] {
			return true
		}
		seen[real] = true
		entries, err := os.ReadDir(d)
		if err != nil {
			return true
		}
		if !top && slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == FileName }) {
			return true // a nested skill
		}
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") || top && name == FileName {
				continue
			}
			p := filepath.Join(d, name)
			typ := e.Type()
			if typ&fs.ModeSymlink != 0 {
				fi, err := os.Stat(p)
				if err != nil {
					continue
				}
				typ = fi.Mode().Type()
			}
			if typ.IsDir() {
				if !walk(p, false) {
					return false
				}
				continue
			}
			if len(files) == max {
				more = true
				return false
			}
			files = append(files, p)
		}
		return true
	}
	walk(dir, true)
	return files, more
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func escapeXML(s string) string { return xmlEscaper.Replace(s) }
