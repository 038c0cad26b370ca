package skill

import (
	"github.com/toolnexus/toolnexus/internal/golden"

	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, in          string
		wantName, wantDsc string
		wantBody          string
	}{
		{"plain", "---\nname: a\ndescription: does a\n---\nbody\n", "a", "does a", "body\n"},
		{"folded", "---\nname: a\ndescription: >\n  one\n  two\n\n  three\n---\n", "a", "one two\nthree", ""},
		{"literal", "---\nname: a\ndescription: |\n  line one\n  line two\n---\nx", "a", "line one\nline two", "x"},
		{"quoted", "---\nname: \"quoted: name\"\ndescription: 'it''s #1'\n---\n", "quoted: name", "it's #1", ""},
		{"multiline plain", "---\nname: a\ndescription: first\n  second\n  third\n---\n", "a", "first second third", ""},
		{"trimmed", "---\nname: '  spaced  '\ndescription: \"\\t tabbed \\n\"\n---\n", "spaced", "tabbed", ""},
		{"crlf and bom", "\xef\xbb\xbf---\r\nname: a\r\ndescription: d\r\n---\r\nline1\r\nline2\r\n", "a", "d", "line1\nline2\n"},
		{"no description", "---\nname: a\n---\n# A\n", "a", "", "# A\n"},
		{"dots close", "---\nname: a\n...\nafter\n", "a", "", "after\n"},
		{"fence with trailing space", "--- \nname: a\n---  \nb", "a", "", "b"},
		{"number name", "---\nname: 42\n---\n", "42", "", ""},
		{"extra keys", "---\nname: a\nlicense: MIT\nallowed-tools: [bash, read]\nmetadata:\n  k: v\n---\n", "a", "", ""},
		{"no trailing newline", "---\nname: a\n---", "a", "", ""},
		{"body keeps later fences", "---\nname: a\n---\ntext\n---\nmore\n", "a", "", "text\n---\nmore\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.in))
			require.NoError(t, err, "Parse")
			assert.Equal(t, tt.wantName, s.Name, "Parse = {Name:%q Description:%q Content:%q}, want {%q %q %q}", s.Name, s.Description, s.Content, tt.wantName, tt.wantDsc, tt.wantBody)
			assert.Equal(t, tt.wantDsc, s.Description, "Parse = {Name:%q Description:%q Content:%q}, want {%q %q %q}", s.Name, s.Description, s.Content, tt.wantName, tt.wantDsc, tt.wantBody)
			assert.Equal(t, tt.wantBody, s.Content, "Parse = {Name:%q Description:%q Content:%q}, want {%q %q %q}", s.Name, s.Description, s.Content, tt.wantName, tt.wantDsc, tt.wantBody)
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in string
		reason   Reason
		msg      string
	}{
		{"no frontmatter", "# Title\nname: a\n", MissingName, "no YAML frontmatter: the file must start with a line ---"},
		{"empty file", "", MissingName, "no YAML frontmatter: the file must start with a line ---"},
		{"empty frontmatter", "---\n---\nbody", MissingName, "the frontmatter is empty"},
		{"no name", "---\ndescription: d\n---\n", MissingName, "the frontmatter has no name"},
		{"blank name", "---\nname: '   '\n---\n", MissingName, "the frontmatter has no name"},
		{"null name", "---\nname: ~\n---\n", MissingName, "the frontmatter has no name"},
		{"unclosed", "---\nname: a\n", MalformedYAML, "the frontmatter has no closing --- line"},
		{"bad yaml", "---\nname: a\ndescription: [unclosed\n---\n", MalformedYAML, "yaml: line 2: did not find expected ',' or ']'"},
		{"bad indent", "---\nname: a\n  description: b\n---\n", MalformedYAML, "yaml: line 3: mapping values are not allowed in this context"},
		{"list", "---\n- name: a\n---\n", MalformedYAML, "the frontmatter must be a YAML mapping of keys to values, found a list"},
		{"scalar", "---\njust text\n---\n", MalformedYAML, "the frontmatter must be a YAML mapping of keys to values, found a single value"},
		{"name is a list", "---\nname: [a, b]\n---\n", MalformedYAML, "yaml: unmarshal errors: line 2: cannot unmarshal a list where a single value is expected"},
		{"duplicate key", "---\nname: a\nname: b\n---\n", MalformedYAML, `yaml: unmarshal errors: line 3: mapping key "name" already defined at line 2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var pe *ParseError
			require.ErrorAs(t, err, &pe, "Parse error = %v, want a *ParseError", err)
			assert.Equal(t, tt.reason, pe.Reason, "Parse error = {%v, %q}, want {%v, %q}", pe.Reason, pe.Msg, tt.reason, tt.msg)
			assert.Equal(t, tt.msg, pe.Msg, "Parse error = {%v, %q}, want {%v, %q}", pe.Reason, pe.Msg, tt.reason, tt.msg)
			got, want := err.Error(), tt.reason.String()+": "+tt.msg
			assert.Equal(t, want, got, "Error() = %q, want %q", got, want)
		})
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks not supported: %v", err)
	}
}

func skillMD(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\nBody of " + name + ".\n"
}

// tree builds a skills folder exercising every discovery rule.
func tree(t *testing.T) (root, outside string) {
	base := t.TempDir()
	root = filepath.Join(base, "skills")
	outside = filepath.Join(base, "outside")
	write(t, filepath.Join(root, "alpha", "SKILL.md"), skillMD("alpha", "first skill"))
	write(t, filepath.Join(root, "alpha", "run.sh"), "echo alpha\n")
	write(t, filepath.Join(root, "group", "beta", "SKILL.md"), skillMD("beta", "nested two levels"))
	write(t, filepath.Join(root, "group", "dup", "SKILL.md"), skillMD("alpha", "a second alpha"))
	write(t, filepath.Join(root, "noname", "SKILL.md"), "---\ndescription: no name here\n---\n")
	write(t, filepath.Join(root, "badyaml", "SKILL.md"), "---\nname: [x\n---\n")
	write(t, filepath.Join(root, "notes", "README.md"), "not a skill")
	// a skill outside the root, reached through a directory symlink
	write(t, filepath.Join(outside, "gamma", "SKILL.md"), skillMD("gamma", "through a linked dir"))
	symlink(t, outside, filepath.Join(root, "linked"))
	// a symlinked SKILL.md file
	write(t, filepath.Join(outside, "files", "delta.md"), skillMD("delta", "linked file"))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "delta"), 0o755))
	symlink(t, filepath.Join(outside, "files", "delta.md"), filepath.Join(root, "delta", "SKILL.md"))
	// cycles: a link back to the root and a link to itself's parent
	symlink(t, root, filepath.Join(root, "group", "loop"))
	symlink(t, filepath.Join(outside, "gamma"), filepath.Join(outside, "gamma", "self"))
	// a dangling SKILL.md link
	require.NoError(t, os.MkdirAll(filepath.Join(root, "zbroken"), 0o755))
	symlink(t, filepath.Join(base, "missing.md"), filepath.Join(root, "zbroken", "SKILL.md"))
	return root, outside
}

func TestDiscover(t *testing.T) {
	root, _ := tree(t)
	inv, err := Discover(root)
	require.NoError(t, err)
	var got []string
	for _, s := range inv.Skills {
		rel, _ := filepath.Rel(root, s.Path)
		got = append(got, s.Name+" "+rel+" desc="+s.Description)
		assert.Equal(t, filepath.Dir(s.Path), s.Dir, "%s: Dir = %q, want the directory of %q", s.Name, s.Dir, s.Path)
		assert.Equal(t, "Body of "+s.Name+".\n", s.Content, "%s: Content = %q", s.Name, s.Content)
	}
	want := []string{
		"alpha alpha/SKILL.md desc=first skill",
		"delta delta/SKILL.md desc=linked file",
		"beta group/beta/SKILL.md desc=nested two levels",
		"gamma linked/gamma/SKILL.md desc=through a linked dir",
	}
	assert.Equal(t, strings.Join(want, "\n"), strings.Join(got, "\n"), "skills:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	var skipped []string
	for _, s := range inv.Skipped {
		rel, _ := filepath.Rel(root, s.Path)
		skipped = append(skipped, rel+": "+s.Reason.String()+": "+s.Detail)
	}
	wantSkipped := []string{
		"badyaml/SKILL.md: malformed YAML: yaml: line 1: did not find expected ',' or ']'",
		"group/dup/SKILL.md: duplicate name: skill \"alpha\" is already defined by " + filepath.Join(root, "alpha", "SKILL.md"),
		"noname/SKILL.md: missing name: the frontmatter has no name",
		"zbroken/SKILL.md: unreadable: no such file or directory",
	}
	assert.Equal(t, strings.Join(wantSkipped, "\n"), strings.Join(skipped, "\n"), "skipped:\n%s\nwant:\n%s", strings.Join(skipped, "\n"), strings.Join(wantSkipped, "\n"))
	if assert.False(t, inv.Skipped[3].Err == nil, "dangling link: Err = %v, want fs.ErrNotExist", inv.Skipped[3].Err) {
		assert.ErrorIs(t, inv.Skipped[3].Err, fs.ErrNotExist, "dangling link: Err = %v, want fs.ErrNotExist", inv.Skipped[3].Err)
	}
}

func TestDiscoverSeveralRootsFirstWins(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write(t, filepath.Join(a, "x", "SKILL.md"), skillMD("shared", "from a"))
	write(t, filepath.Join(b, "y", "SKILL.md"), skillMD("shared", "from b"))
	write(t, filepath.Join(b, "z", "SKILL.md"), skillMD("only-b", "from b"))
	inv, err := Discover(a, b, a) // a root given twice is read once
	require.NoError(t, err)
	require.Len(t, inv.Skills, 2, "skills = %+v", inv.Skills)
	require.Equal(t, "from a", inv.Skills[0].Description, "skills = %+v", inv.Skills)
	require.Equal(t, "only-b", inv.Skills[1].Name, "skills = %+v", inv.Skills)
	require.Len(t, inv.Skipped, 1, "skipped = %+v", inv.Skipped)
	require.Equal(t, DuplicateName, inv.Skipped[0].Reason, "skipped = %+v", inv.Skipped)
	require.Equal(t, filepath.Join(b, "y", "SKILL.md"), inv.Skipped[0].Path, "skipped = %+v", inv.Skipped)
}

func TestDiscoverSkillFileIsNotRegular(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "pipe", "SKILL.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(fifo), 0o755))
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	inv, err := Discover(root)
	require.NoError(t, err)
	require.Len(t, inv.Skipped, 1, "skipped = %+v", inv.Skipped)
	require.Equal(t, Unreadable, inv.Skipped[0].Reason, "skipped = %+v", inv.Skipped)
	require.Equal(t, "not a regular file", inv.Skipped[0].Detail, "skipped = %+v", inv.Skipped)
}

// A SKILL.md over MaxFileBytes is skipped, naming the file and the limit,
// and read no further than the limit; one at the limit loads.
func TestDiscoverSkillFileTooLarge(t *testing.T) {
	root := t.TempDir()
	head := "---\nname: big\n---\n"
	write(t, filepath.Join(root, "big", "SKILL.md"), head+strings.Repeat("x", MaxFileBytes+1-len(head)))
	write(t, filepath.Join(root, "fits", "SKILL.md"), "---\nname: fits\n---\n"+strings.Repeat("x", MaxFileBytes-len(head)-1))
	inv, err := Discover(root)
	require.NoError(t, err)
	require.Len(t, inv.Skills, 1)
	assert.Equal(t, "fits", inv.Skills[0].Name)
	require.Len(t, inv.Skipped, 1)
	assert.Equal(t, filepath.Join(root, "big", "SKILL.md")+": too large: more than the limit of 1048576 bytes", inv.Skipped[0].String())
}

func TestDiscoverRootErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.txt")
	write(t, file, "x")
	missing := filepath.Join(dir, "nope")
	_, err := Discover(missing)
	var re *RootError
	require.ErrorAs(t, err, &re, "missing root: err = %v", err)
	require.Equal(t, missing, re.Root, "missing root: err = %v", err)
	require.ErrorIs(t, err, fs.ErrNotExist, "missing root: err = %v", err)
	want := `skill: skills folder "` + missing + `": does not exist`
	assert.EqualError(t, err, want, "missing root: %q, want %q", err.Error(), want)
	_, err = Discover(file)
	want = `skill: skills folder "` + file + `": is not a directory`
	assert.EqualError(t, err, want, "file root: %v, want %q", err, want)
	inv, err := Discover()
	if assert.NoError(t, err, "no roots: %+v", inv) {
		if assert.Empty(t, inv.Skills, "no roots: %+v, %v", inv, err) {
			assert.Empty(t, inv.Skipped, "no roots: %+v, %v", inv, err)
		}
	}
}

func examplesRoot(t *testing.T) string {
	abs, err := filepath.Abs(filepath.Join("..", "examples", "skills"))
	require.NoError(t, err)
	return abs
}

// normalize replaces the machine-specific path of root with $ROOT.
func normalize(out, root string) string {
	out = strings.ReplaceAll(out, FileURL(root), "file://$ROOT")
	return strings.ReplaceAll(out, root, "$ROOT")
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name), []byte(got))
}

func TestSkillToolGolden(t *testing.T) {
	root := examplesRoot(t)
	set, err := Load([]string{root}, &Options{})
	require.NoError(t, err)
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(set.Tool()))
	res := reg.Execute(context.Background(), "skill", json.RawMessage(`{"name":"hello-world"}`))
	require.False(t, res.IsError, "skill tool failed: %s", res.Output)
	assert.Contains(t, res.Output, "<file>"+filepath.Join(root, "hello-world", "hello.sh")+"</file>", "output does not list the absolute path of hello.sh:\n%s", res.Output)
	checkGolden(t, "hello-world.txt", normalize(res.Output, root))
}

func TestSkillToolDefinition(t *testing.T) {
	set, err := New(nil, &Options{})
	require.NoError(t, err)
	tool := set.Tool()
	assert.Equal(t, "skill", tool.Name, "Name, Source = %q, %q", tool.Name, tool.Source)
	assert.Equal(t, "skill", tool.Source, "Name, Source = %q, %q", tool.Name, tool.Source)
	want := `{"type":"object","properties":{"name":{"type":"string","description":"The name of the skill to load, exactly as listed under Available Skills in the system prompt."}},"required":["name"],"additionalProperties":false}`
	assert.Equal(t, want, string(tool.InputSchema), "InputSchema =\n%s\nwant\n%s", tool.InputSchema, want)
	for _, phrase := range []string{"Available Skills", "system prompt", "matches", "skill's name"} {
		assert.Contains(t, tool.Description, phrase, "description lacks %q: %s", phrase, tool.Description)
	}
}

func TestSkillToolErrors(t *testing.T) {
	set, err := New([]Skill{{Name: "b", Description: "B"}, {Name: "a", Description: "A"}}, &Options{})
	require.NoError(t, err)
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(set.Tool()))
	ctx := context.Background()
	res := reg.Execute(ctx, "skill", json.RawMessage(`{"name":"nope"}`))
	assert.True(t, res.IsError, "unknown: %+v", res)
	assert.Equal(t, `unknown skill "nope"; available skills: a, b`, res.Output, "unknown: %+v", res)
	assert.ErrorIs(t, res.Err, ErrUnknownSkill, "unknown: %+v", res)
	res = reg.Execute(ctx, "skill", json.RawMessage(`{}`))
	assert.True(t, res.IsError, "missing name: %+v", res)
	assert.Equal(t, `invalid arguments for "skill": "name" is required`, res.Output, "missing name: %+v", res)
	res = reg.Execute(ctx, "skill", json.RawMessage(`{"name":7}`))
	assert.True(t, res.IsError, "wrong type: %+v", res)
	assert.Contains(t, res.Output, `"name" must be a string`, "wrong type: %+v", res)
	empty, _ := New(nil, &Options{})
	_, err = empty.Render("x")
	assert.EqualError(t, err, `unknown skill "x"; available skills: none`, "empty set: %v", err)
}

func TestRenderDataSkill(t *testing.T) {
	set, err := New([]Skill{{
		Name: "pdf", Description: "PDF work", Content: "\n  Use the scripts.  \n\n",
		Resources: []string{"scripts/b.py", "a.md", "scripts/a.py"},
	}}, &Options{MaxFiles: 2})

	require.NoError(t, err)
	out, err := set.Render("pdf")
	require.NoError(t, err)
	want := "<skill_content name=\"pdf\">\n# Skill: pdf\n\nUse the scripts.\n\n" +
		"Note: the file list is sampled; it shows the first 2 files in path order.\n\n" +
		"<skill_files>\n<file>a.md</file>\n<file>scripts/a.py</file>\n</skill_files>\n</skill_content>"
	assert.Equal(t, want, out, "Render =\n%s\nwant\n%s", out, want)
	set, _ = New([]Skill{{Name: `a"<b>`, Content: ""}}, &Options{})
	out, _ = set.Render(`a"<b>`)
	want = "<skill_content name=\"a&quot;&lt;b&gt;\">\n# Skill: a\"<b>\n\n<skill_files>\n</skill_files>\n</skill_content>"
	assert.Equal(t, want, out, "Render =\n%q\nwant\n%q", out, want)
}

func TestRenderFileSampling(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "big")
	write(t, filepath.Join(dir, "SKILL.md"), skillMD("big", "many files"))
	for _, f := range []string{"z.txt", "a.txt", "scripts/run.sh", "scripts/lib/util.sh", ".hidden", ".git/config", "m.txt"} {
		write(t, filepath.Join(dir, f), "x")
	}
	write(t, filepath.Join(dir, "child", "SKILL.md"), skillMD("child", "nested skill"))
	write(t, filepath.Join(dir, "child", "own.txt"), "x")
	symlink(t, dir, filepath.Join(dir, "scripts", "up")) // a cycle inside the skill

	list := func(max int) string {
		set, err := Load([]string{root}, &Options{MaxFiles: max})
		require.NoError(t, err)
		require.Equal(t, 2, set.Len(), "skills = %v", set.Names())
		out, err := set.Render("big")
		require.NoError(t, err)
		return normalize(out[strings.Index(out, "Base directory"):], dir)
	}
	want := "Base directory for this skill: file://$ROOT\n" +
		"Relative paths in this skill (for example scripts/ or reference/) resolve against this base directory.\n\n" +
		"<skill_files>\n<file>$ROOT/a.txt</file>\n<file>$ROOT/m.txt</file>\n" +
		"<file>$ROOT/scripts/lib/util.sh</file>\n<file>$ROOT/scripts/run.sh</file>\n<file>$ROOT/z.txt</file>\n" +
		"</skill_files>\n</skill_content>"
	got := list(0)
	assert.Equal(t, want, got, "all files:\n%s\nwant\n%s", got, want)
	want = "Base directory for this skill: file://$ROOT\n" +
		"Relative paths in this skill (for example scripts/ or reference/) resolve against this base directory.\n" +
		"Note: the file list is sampled; it shows the first 3 files in path order.\n\n" +
		"<skill_files>\n<file>$ROOT/a.txt</file>\n<file>$ROOT/m.txt</file>\n<file>$ROOT/scripts/lib/util.sh</file>\n" +
		"</skill_files>\n</skill_content>"
	got = list(3)
	assert.Equal(t, want, got, "three files:\n%s\nwant\n%s", got, want)
	got = list(-1)
	assert.Contains(t, got, "<skill_files>\n</skill_files>", "no files:\n%s", got)
}

func TestFileURL(t *testing.T) {
	got := FileURL("/a b/c#d%")
	assert.Equal(t, "file:///a%20b/c%23d%25", got, "fileURL = %q", got)
}

func TestSkillsPrompt(t *testing.T) {
	set, err := New([]Skill{
		{Name: "zeta", Description: "Last one."},
		{Name: "hidden"},
		{Name: "alpha", Description: "Line one\nline two\n\n  spaced"},
	}, &Options{})

	require.NoError(t, err)
	want := "Skills are folders of instructions, scripts and reference files for specific tasks. " +
		"When a task matches one of the skills below, call the `skill` tool with its name to load it before you start, " +
		"then follow the instructions it returns.\n\n## Available Skills\n" +
		"- **alpha**: Line one line two spaced\n- **zeta**: Last one."
	got := set.SkillsPrompt()
	assert.Equal(t, want, got, "SkillsPrompt =\n%s\nwant\n%s", got, want)
	none, _ := New([]Skill{{Name: "hidden"}}, &Options{})
	got = none.SkillsPrompt()
	assert.Equal(t, "No skills are available.", got, "no described skills: %q", got)
	empty, _ := New(nil, &Options{})
	got = empty.SkillsPrompt()
	assert.Equal(t, "No skills are available.", got, "empty: %q", got)
}

func TestNewErrors(t *testing.T) {
	_, err := New([]Skill{{Name: " "}}, &Options{})
	assert.EqualError(t, err, "skill: New: a skill has no name", "blank name: %v", err)
	_, err = New([]Skill{{Name: "a"}}, &Options{Data: []Skill{{Name: " a "}}})
	assert.EqualError(t, err, `skill: New: skill "a" is given twice`, "duplicate: %v", err)
}

func TestLoadDataFirst(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "x", "SKILL.md"), skillMD("x", "from disk"))
	write(t, filepath.Join(root, "y", "SKILL.md"), skillMD("y", "from disk"))
	set, err := Load([]string{root}, &Options{Data: []Skill{{Name: "x", Description: "from data"}, {Name: ""}, {Name: "x"}}})
	require.NoError(t, err)
	x, _ := set.Get("x")
	assert.Equal(t, "from data", x.Description, "x = %+v", x)
	assert.Equal(t, "", x.Dir, "x = %+v", x)
	var got []string
	for _, s := range set.Skipped() {
		got = append(got, s.String())
	}
	want := []string{
		"Options.Data[1]: missing name: the skill has no name",
		`Options.Data[2]: duplicate name: skill "x" is given twice`,
		filepath.Join(root, "x", "SKILL.md") + `: duplicate name: skill "x" is already given as data`,
	}
	assert.Equal(t, strings.Join(want, "\n"), strings.Join(got, "\n"), "skipped:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	_, err = Load([]string{filepath.Join(root, "missing")}, &Options{})
	assert.ErrorIs(t, err, fs.ErrNotExist, "missing root: %v", err)
}

func TestInventoryJSON(t *testing.T) {
	inv := Inventory{
		Skills:  []Skill{{Name: "a", Description: "A", Path: "/s/a/SKILL.md", Dir: "/s/a", Content: "secret body"}},
		Skipped: []Skipped{{Path: "/s/b/SKILL.md", Reason: MissingName, Detail: "the frontmatter has no name"}},
	}
	b, err := json.Marshal(inv)
	require.NoError(t, err)
	want := `{"skills":[{"name":"a","description":"A","path":"/s/a/SKILL.md","dir":"/s/a"}],"skipped":[{"path":"/s/b/SKILL.md","reason":"missing name","detail":"the frontmatter has no name"}]}`
	assert.Equal(t, want, string(b), "JSON =\n%s\nwant\n%s", b, want)
}

func TestSetConcurrentRender(t *testing.T) {
	set, err := Load([]string{examplesRoot(t)}, &Options{})
	require.NoError(t, err)
	tool := set.Tool()
	done := make(chan string, 8)
	for range 8 {
		go func() {
			res := tool.Handler.Call(context.Background(), json.RawMessage(`{"name":"hello-world"}`))
			done <- res.Output
		}()
	}
	first := <-done
	for range 7 {
		got := <-done
		require.Equal(t, first, got, "concurrent renders differ")
	}
}

// nil Options are the zero Options.
func TestNilOptions(t *testing.T) {
	s, err := New([]Skill{{Name: "a", Description: "A."}}, nil)
	if assert.NoError(t, err, "New(..., nil) = %v", s) {
		assert.Equal(t, 1, s.Len(), "New(..., nil) = %v, %v", s, err)
		assert.Equal(t, DefaultMaxFiles, s.max, "New(..., nil) = %v, %v", s, err)
	}
	s, err = Load(nil, nil)
	if assert.NoError(t, err, "Load(nil, nil) = %v", s) {
		assert.Equal(t, 0, s.Len(), "Load(nil, nil) = %v, %v", s, err)
		assert.Equal(t, DefaultMaxFiles, s.max, "Load(nil, nil) = %v, %v", s, err)
	}
}
