package mcp

import (
	"context"
	"fmt"
	"io"
	"mime"
	"os"
	"path/filepath"
	"syscall"
	"unicode/utf8"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus/skill"
)

// MaxSkillFileBytes is the largest skill file [Server.AddSkills] serves as
// a resource (8 MiB); a read of a larger one is an error naming the limit.
const MaxSkillFileBytes = 8 << 20

// AddSkills serves the skills of set as MCP prompts and the files of the
// skills on disk as resources, beside the registry's tools (among them,
// usually, set's skill tool):
//
//   - Each skill is a prompt named as the skill, with its description and
//     no arguments; prompts/get answers one user message holding what the
//     skill tool returns for it ([skill.Set.Render]: the instructions, the
//     base directory and the list of files).
//   - Each file the skill tool lists for a skill on disk (at most
//     skill.Options.MaxFiles per skill, as listed now) is a resource whose
//     URI is its file:// URL, the form the skill's base directory takes in
//     the prompt, so a client resolves a relative path of the
//     instructions against it and reads the file. Its MIME type comes from
//     its extension; a file that is valid UTF-8 is sent as text, another as
//     a blob. A file over MaxSkillFileBytes, one gone since, or one that
//     is not a regular file (a named pipe, a device) is an error; nothing
//     outside the listed files is served, and no file whose path leads out
//     of the skill's folder through a symbolic link, or through an
//     absolute one (os.Root's rule; a skill may link to your credentials,
//     and the skill tool still lists such a file).
//
// Skills given as data have no files to serve. Call AddSkills again after
// the folder changed to serve the files as they are then; a prompt or
// resource of the same name or URI is replaced.
func (s *Server) AddSkills(set *skill.Set) {
	for _, sk := range set.Skills() {
		name := sk.Name
		s.srv.AddPrompt(&mcpsdk.Prompt{Name: name, Title: "Skill: " + name, Description: sk.Description},
			func(context.Context, *mcpsdk.GetPromptRequest) (*mcpsdk.GetPromptResult, error) {
				text, err := set.Render(name)
				if err != nil {
					return nil, err
				}
				return &mcpsdk.GetPromptResult{Description: sk.Description,
					Messages: []*mcpsdk.PromptMessage{{Role: "user", Content: &mcpsdk.TextContent{Text: text}}}}, nil
			})
		if sk.Dir == "" {
			continue
		}
		files, _, _ := set.Files(name)
		dir := sk.Dir
		for _, path := range files {
			rel, err := filepath.Rel(dir, path)
			if err != nil || !inRoot(dir, rel) {
				continue // a link out of the skill's folder
			}
			uri := skill.FileURL(path)
			s.srv.AddResource(&mcpsdk.Resource{URI: uri, Name: name + "/" + filepath.ToSlash(rel),
				Description: fmt.Sprintf("A file of the skill %q.", name), MIMEType: fileMIME(path)},
				func(context.Context, *mcpsdk.ReadResourceRequest) (*mcpsdk.ReadResourceResult, error) {
					return readSkillFile(uri, dir, rel)
				})
		}
	}
}

// fileMIME is the MIME type of path by its extension, "" when unknown.
func fileMIME(path string) string {
	return mime.TypeByExtension(filepath.Ext(path))
}

// inRoot reports whether rel can be opened in dir without leaving it, as
// os.Root allows: symbolic links relative and within dir.
func inRoot(dir, rel string) bool {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return false
	}
	defer root.Close()
	_, err = root.Stat(rel)
	return err == nil
}

// readSkillFile reads rel in dir (at most MaxSkillFileBytes) as the
// resource uri, through an os.Root, so a link changed since to lead out of
// dir is not followed.
func readSkillFile(uri, dir, rel string) (*mcpsdk.ReadResourceResult, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, mcpsdk.ResourceNotFoundError(uri)
	}
	defer root.Close()
	// O_NONBLOCK: opening a named pipe for reading would otherwise wait
	// for a writer, for ever; only regular files are served.
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, mcpsdk.ResourceNotFoundError(uri)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", uri)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSkillFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", uri, err)
	}
	if len(data) > MaxSkillFileBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes (mcp.MaxSkillFileBytes)", uri, MaxSkillFileBytes)
	}
	c := &mcpsdk.ResourceContents{URI: uri, MIMEType: fileMIME(rel)}
	if utf8.Valid(data) {
		c.Text = string(data)
		if c.MIMEType == "" {
			c.MIMEType = "text/plain"
		}
	} else {
		c.Blob = data
		if c.MIMEType == "" {
			c.MIMEType = "application/octet-stream"
		}
	}
	return &mcpsdk.ReadResourceResult{Contents: []*mcpsdk.ResourceContents{c}}, nil
}
