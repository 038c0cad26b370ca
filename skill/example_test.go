package skill_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/skill"
)

func ExampleParse() {
	s, err := skill.Parse([]byte(`---
name: release-notes
description: >
  Writes release notes from the git log
  since the last tag.
---
# Release notes
Run git log...
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %q\n", s.Name, s.Description)
	fmt.Printf("%q\n", s.Content)

	_, err = skill.Parse([]byte("---\ndescription: no name\n---\n"))
	fmt.Println(err)
	// Output:
	// release-notes: "Writes release notes from the git log since the last tag."
	// "# Release notes\nRun git log...\n"
	// missing name: the frontmatter has no name
}

func ExampleDiscover() {
	inv, err := skill.Discover("../examples/skills")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range inv.Skills {
		fmt.Println(s.Name, "-", s.Description)
	}
	fmt.Println(len(inv.Skipped), "skipped")

	_, err = skill.Discover("../examples/no-such-folder")
	fmt.Println(err)
	// Output:
	// hello-world - Greets someone by name using the bundled hello.sh script. Use it when the user asks for a greeting or wants to check that skills work.
	// 0 skipped
	// skill: skills folder "../examples/no-such-folder": does not exist
}

func ExampleSet_Tool() {
	set, err := skill.New([]skill.Skill{{
		Name:        "haiku",
		Description: "Answers in a haiku.",
		Content:     "Reply with exactly three lines of 5, 7 and 5 syllables.",
		Resources:   []string{"examples.md"},
	}}, &skill.Options{})

	if err != nil {
		fmt.Println(err)
		return
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(set.Tool()); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(set.SkillsPrompt())
	fmt.Println("---")
	res := reg.Execute(context.Background(), "skill", json.RawMessage(`{"name":"haiku"}`))
	fmt.Println(res.Output)
	res = reg.Execute(context.Background(), "skill", json.RawMessage(`{"name":"sonnet"}`))
	fmt.Println(res.IsError, res.Output)
	// Output:
	// Skills are folders of instructions, scripts and reference files for specific tasks. When a task matches one of the skills below, call the `skill` tool with its name to load it before you start, then follow the instructions it returns.
	//
	// ## Available Skills
	// - **haiku**: Answers in a haiku.
	// ---
	// <skill_content name="haiku">
	// # Skill: haiku
	//
	// Reply with exactly three lines of 5, 7 and 5 syllables.
	//
	// <skill_files>
	// <file>examples.md</file>
	// </skill_files>
	// </skill_content>
	// true unknown skill "sonnet"; available skills: haiku
}
