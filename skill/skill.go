package skill

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FileName is the name of the file that defines a skill: "SKILL.md", as in
// the Agent Skills specification (agentskills.io/specification).
const FileName = "SKILL.md"

// MaxFileBytes is the largest SKILL.md discovery reads: 1 MiB. A larger
// one is skipped (TooLarge), read no further than the limit.
const MaxFileBytes = 1 << 20

// Skill is one agent skill.
//
// A skill found on disk has Path and Dir set; a skill given as data (see
// [New]) has them empty and may list Resources instead.
type Skill struct {
	// Name identifies the skill; the model passes it to the skill tool.
	// Trimmed; never empty in a Set.
	Name string `json:"name"`

	// Description tells the model when to use the skill. Trimmed; "" keeps
	// the skill out of the skills prompt (it can still be loaded by name).
	Description string `json:"description,omitempty"`

	// Content is the Markdown after the frontmatter, with CRLF line endings
	// turned into LF. The skill tool trims it when it renders it.
	Content string `json:"-"`

	// Path is the absolute path of the SKILL.md file as discovered (a
	// symbolic link is not resolved); "" for skills given as data.
	Path string `json:"path,omitempty"`

	// Dir is the skill's base directory, the directory holding Path;
	// relative paths in the content resolve against it. "" for skills given
	// as data.
	Dir string `json:"dir,omitempty"`

	// Resources names the files that come with a skill given as data; they
	// are listed, sorted, in the skill tool's <skill_files>. Ignored for
	// skills on disk, whose directory is listed when the skill is loaded.
	Resources []string `json:"resources,omitempty"`
}

// Reason says why a SKILL.md file was skipped.
type Reason int

// The reasons a skill is skipped.
const (
	// MissingName: no frontmatter, or no non-empty name in it.
	MissingName Reason = iota + 1
	// MalformedYAML: the frontmatter is not valid YAML, is not a mapping,
	// has no closing line, or name/description is not a plain value.
	MalformedYAML
	// Unreadable: the file (or a directory on the way to it) could not be
	// read.
	Unreadable
	// DuplicateName: an earlier skill has the same name; the first wins.
	DuplicateName
	// TooLarge: the file is larger than MaxFileBytes.
	TooLarge
)

// String returns "missing name", "malformed YAML", "unreadable",
// "duplicate name" or "too large".
func (r Reason) String() string {
	switch r {
	case MissingName:
		return "missing name"
	case MalformedYAML:
		return "malformed YAML"
	case Unreadable:
		return "unreadable"
	case DuplicateName:
		return "duplicate name"
	case TooLarge:
		return "too large"
	}
	return fmt.Sprintf("Reason(%d)", int(r))
}

// MarshalText returns the String form, so Reasons encode as JSON strings.
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// Skipped is a SKILL.md file (or a directory) that discovery skipped.
type Skipped struct {
	Path   string `json:"path"`   // absolute path of the SKILL.md file or unreadable directory
	Reason Reason `json:"reason"` // why it was skipped
	Detail string `json:"detail"` // one line for the author, e.g. `yaml: line 2: did not find expected key`
	Err    error  `json:"-"`      // the underlying error, when there is one
}

// String formats the entry as "PATH: REASON: DETAIL".
func (s Skipped) String() string {
	if s.Detail == "" {
		return s.Path + ": " + s.Reason.String()
	}
	return s.Path + ": " + s.Reason.String() + ": " + s.Detail
}

// frontmatter holds the keys read from a SKILL.md header.
type frontmatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// Parse parses the bytes of a SKILL.md file. It returns the skill (Path and
// Dir empty) or, when the file is not a valid skill, a *ParseError whose
// Reason is MissingName or MalformedYAML.
func Parse(data []byte) (Skill, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return Skill{}, &ParseError{Reason: MissingName, Msg: "no YAML frontmatter: the file must start with a line ---"}
	}
	header, body, ok := cutFence(rest)
	if !ok {
		return Skill{}, &ParseError{Reason: MalformedYAML, Msg: "the frontmatter has no closing --- line"}
	}
	var doc yaml.Node
	// The leading new line makes the library's line numbers those of the
	// file (line 1 is the opening ---).
	if err := yaml.Unmarshal([]byte("\n"+header), &doc); err != nil {
		return Skill{}, &ParseError{Reason: MalformedYAML, Msg: oneLine(err.Error()), Err: err}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return Skill{}, &ParseError{Reason: MissingName, Msg: "the frontmatter is empty"}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return Skill{}, &ParseError{Reason: MalformedYAML, Msg: fmt.Sprintf("the frontmatter must be a YAML mapping of keys to values, found a %s", kindName(root.Kind))}
	}
	var fm frontmatter
	if err := root.Decode(&fm); err != nil {
		msg := oneLine(err.Error())
		msg = strings.ReplaceAll(msg, "!!seq into string", "a list where a single value is expected")
		msg = strings.ReplaceAll(msg, "!!map into string", "a mapping where a single value is expected")
		return Skill{}, &ParseError{Reason: MalformedYAML, Msg: msg, Err: err}
	}
	s := Skill{Name: strings.TrimSpace(fm.Name), Description: strings.TrimSpace(fm.Description), Content: body}
	if s.Name == "" {
		return Skill{}, &ParseError{Reason: MissingName, Msg: "the frontmatter has no name"}
	}
	return s, nil
}

// cutFence splits s at the first line that is "---" or "...", returning
// what precedes and follows that line.
func cutFence(s string) (before, after string, ok bool) {
	for i := 0; i <= len(s); {
		j := strings.IndexByte(s[i:], '\n')
		end := len(s)
		if j >= 0 {
			end = i + j
		}
		line := strings.TrimRight(s[i:end], " \t")
		if line == "---" || line == "..." {
			if end < len(s) {
				return s[:i], s[end+1:], true
			}
			return s[:i], "", true
		}
		if j < 0 {
			break
		}
		i = end + 1
	}
	return "", "", false
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "single value"
	case yaml.AliasNode:
		return "alias"
	}
	return "non-mapping"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ParseError reports a SKILL.md file that is not a valid skill.
type ParseError struct {
	Reason Reason // MissingName or MalformedYAML
	Msg    string // for the skill's author, e.g. "the frontmatter has no name"
	Err    error  // the YAML library's error, when there is one
}

// Error returns "REASON: MSG".
func (e *ParseError) Error() string { return e.Reason.String() + ": " + e.Msg }

// Unwrap returns the YAML library's error, if any.
func (e *ParseError) Unwrap() error { return e.Err }

// RootError reports a skills root that cannot be searched: it does not
// exist, is not a directory, or cannot be read. Discovery stops at the first
// one; errors.Is(err, fs.ErrNotExist) holds for a missing root.
type RootError struct {
	Root string // the root as given
	Err  error  // the cause, from the os package, or errNotDir
}

var errNotDir = errors.New("not a directory")

// Error returns e.g. `skill: skills folder "skills": does not exist`.
func (e *RootError) Error() string {
	what := e.Err.Error()
	switch {
	case errors.Is(e.Err, errNotDir):
		what = "is not a directory"
	case isNotExist(e.Err):
		what = "does not exist"
	}
	return fmt.Sprintf("skill: skills folder %q: %s", e.Root, what)
}

// Unwrap returns the cause.
func (e *RootError) Unwrap() error { return e.Err }
