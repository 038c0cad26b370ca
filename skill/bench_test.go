package skill

import (
	"context"
	"encoding/json"
	"testing"
)

func BenchmarkDiscoverExamples(b *testing.B) {
	root := "../examples/skills"
	for b.Loop() {
		if _, err := Discover(root); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSkillToolCall(b *testing.B) {
	set, err := Load([]string{"../examples/skills"}, &Options{})
	if err != nil {
		b.Fatal(err)
	}
	tool := set.Tool()
	args := json.RawMessage(`{"name":"hello-world"}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := tool.Handler.Call(ctx, args); res.IsError {
			b.Fatal(res.Output)
		}
	}
}

func BenchmarkSkillsPrompt(b *testing.B) {
	skills := make([]Skill, 50)
	for i := range skills {
		skills[i] = Skill{Name: string(rune('a'+i%26)) + string(rune('a'+i/26)), Description: "Does one thing\nwell."}
	}
	set, err := New(skills, &Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = set.SkillsPrompt()
	}
}
