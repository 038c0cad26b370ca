// Package skill implements agent skills: folders holding a SKILL.md file
// (YAML frontmatter plus Markdown instructions) and any scripts or reference
// files beside it. A model sees only each skill's name and description, in
// the system prompt ([Set.SkillsPrompt]); when a task matches one, it calls
// the `skill` tool ([Set.Tool]) to load the full instructions.
//
// # SKILL.md
//
//	---
//	name: hello-world
//	description: >
//	  Greets someone by name with the bundled script.
//	---
//	# Hello world
//	Run hello.sh NAME from this skill's base directory.
//
// The frontmatter is the block between a first line "---" and the next
// line "---" (or "..."), parsed with a YAML library, so folded (>) and
// literal (|) scalars, quoting and multi-line values all work. Values are
// trimmed of surrounding white space. name is required; description is
// optional, but a skill without one is left out of the skills prompt.
// Other keys (license, allowed-tools, metadata, ...) are accepted and
// ignored. Everything after the closing line is the skill's content.
//
// # Discovery
//
// [Discover] finds every file named SKILL.md under one or more roots,
// recursively, following symbolic links to directories and to SKILL.md
// files; a directory reached twice (a symlink cycle, or two links to one
// place) is read once. Bad skills never stop discovery: each is reported in
// [Inventory.Skipped] with a [Reason] (missing name, malformed YAML,
// unreadable file, duplicate name, larger than [MaxFileBytes]) and the
// others load. [Load] turns the result into a [Set]; [New] builds a Set
// from skills held as data.
//
// # The skill tool
//
// [Set.Tool] returns one tool named "skill" whose input is {"name": string}.
// Its output for a skill found on disk is:
//
//	<skill_content name="hello-world">
//	# Skill: hello-world
//
//	<the trimmed content>
//
//	Base directory for this skill: file:///abs/path/hello-world
//	Relative paths in this skill (for example scripts/ or reference/) resolve against this base directory.
//
//	<skill_files>
//	<file>/abs/path/hello-world/hello.sh</file>
//	</skill_files>
//	</skill_content>
//
// The file list holds at most [Options.MaxFiles] (default 10) other files of
// the skill directory in path order; when more exist, a line saying the list
// is sampled precedes it. An unknown name is an error result that lists the
// available skills.
package skill
