package mcp_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp"
	"github.com/toolnexus/toolnexus/skill"
)

// Served skills are prompts whose text is the skill tool's, and their
// files resources at the file:// URLs the prompt's base directory leads
// to; nothing else on disk is served.
func TestServeSkills(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "pdf")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "scripts"), 0o755))
	write := func(name string, data []byte) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	write("SKILL.md", []byte("---\nname: pdf\ndescription: Fill PDF forms.\n---\nRun scripts/fill.sh.\n"))
	write("scripts/fill.sh", []byte("#!/bin/sh\necho fill\n"))
	write("fields.json", []byte(`{"a":1}`))
	write("logo.bin", []byte{0xff, 0x00, 0xfe})
	write(".secret", []byte("hidden"))
	outside := filepath.Join(t.TempDir(), "credentials")
	require.NoError(t, os.WriteFile(outside, []byte("aws_secret=1"), 0o600))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "creds.txt")))
	require.NoError(t, os.Symlink("fields.json", filepath.Join(dir, "alias.json")))
	set, err := skill.Load([]string{root}, nil)
	require.NoError(t, err)

	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(set.Tool()))
	s := mcp.NewServer(reg, nil)
	s.AddSkills(set)
	ct, st := mcpsdk.NewInMemoryTransports()
	go s.Run(t.Context(), st)
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "t", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	require.NoError(t, err)
	defer cs.Close()

	prompts, err := cs.ListPrompts(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, prompts.Prompts, 1)
	require.Equal(t, "pdf", prompts.Prompts[0].Name)
	require.Equal(t, "Fill PDF forms.", prompts.Prompts[0].Description)
	got, err := cs.GetPrompt(t.Context(), &mcpsdk.GetPromptParams{Name: "pdf"})
	require.NoError(t, err)
	want, err := set.Render("pdf")
	require.NoError(t, err)
	require.Len(t, got.Messages, 1)
	require.Equal(t, want, got.Messages[0].Content.(*mcpsdk.TextContent).Text)

	res, err := cs.ListResources(t.Context(), nil)
	require.NoError(t, err)
	var uris, names []string
	for _, r := range res.Resources {
		uris, names = append(uris, r.URI), append(names, r.Name)
	}
	slices.Sort(names)
	require.Equal(t, []string{"pdf/alias.json", "pdf/fields.json", "pdf/logo.bin", "pdf/scripts/fill.sh"}, names, "a link inside the folder is served, one out of it is not")
	read := func(uri string) (*mcpsdk.ResourceContents, error) {
		r, err := cs.ReadResource(t.Context(), &mcpsdk.ReadResourceParams{URI: uri})
		if err != nil {
			return nil, err
		}
		return r.Contents[0], nil
	}
	base := skill.FileURL(dir)
	require.Contains(t, want, "Base directory for this skill: "+base+"\n")
	js, err := read(base + "/fields.json")
	require.NoError(t, err)
	require.Equal(t, `{"a":1}`, js.Text)
	require.Equal(t, "application/json", js.MIMEType)
	sh, err := read(base + "/scripts/fill.sh")
	require.NoError(t, err)
	require.Equal(t, "#!/bin/sh\necho fill\n", sh.Text)
	bin, err := read(base + "/logo.bin")
	require.NoError(t, err)
	require.Equal(t, []byte{0xff, 0x00, 0xfe}, bin.Blob)
	require.Empty(t, bin.Text)
	alias, err := read(base + "/alias.json")
	require.NoError(t, err)
	require.Equal(t, `{"a":1}`, alias.Text)
	for _, uri := range []string{base + "/.secret", base + "/SKILL.md", base + "/../pdf/.secret", "file:///etc/passwd", base + "/creds.txt"} {
		_, err := read(uri)
		require.Error(t, err, uri)
	}
}
