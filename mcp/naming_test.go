package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func TestSanitizeName(t *testing.T) {
	tests := map[string]string{
		"echo":            "echo",
		"get-sum_2":       "get-sum_2",
		"get.weather/v2":  "get_weather_v2",
		"café":            "caf_",
		"a b\tc":          "a_b_c",
		"日本":              "__",
		"":                "",
		"emoji🙂":          "emoji_",
		"UPPER.lower-0_9": "UPPER_lower-0_9",
	}
	for in, want := range tests {
		if got := SanitizeName(in); got != want {
			t.Errorf("SanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// suffixed is the documented scheme, computed independently of ToolNames.
func suffixed(server, tool string) string {
	base := SanitizeName(server) + "_" + SanitizeName(tool)
	if len(base) > 55 {
		base = base[:55]
	}
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	return base + "_" + hex.EncodeToString(sum[:])[:8]
}

func TestToolNames(t *testing.T) {
	long := strings.Repeat("x", 70)
	refs := []ToolRef{
		{"files", "read_file"},
		{"my.server", "get.weather"},
		{"s", "a.b"}, {"s", "a_b"}, // collide after sanitising
		{"s", "a-b"},        // does not collide
		{"srv", long},       // too long
		{"srv", long + "y"}, // too long, same 55-char prefix
		{strings.Repeat("n", 64), "t"},
	}
	got := ToolNames(refs)
	want := map[ToolRef]string{
		{"files", "read_file"}:         "files_read_file",
		{"my.server", "get.weather"}:   "my_server_get_weather",
		{"s", "a.b"}:                   suffixed("s", "a.b"),
		{"s", "a_b"}:                   suffixed("s", "a_b"),
		{"s", "a-b"}:                   "s_a-b",
		{"srv", long}:                  suffixed("srv", long),
		{"srv", long + "y"}:            suffixed("srv", long+"y"),
		{strings.Repeat("n", 64), "t"}: suffixed(strings.Repeat("n", 64), "t"),
	}
	if len(got) != len(want) {
		t.Fatalf("ToolNames returned %d names, want %d: %v", len(got), len(want), got)
	}
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	seen := map[string]ToolRef{}
	for ref, w := range want {
		g := got[ref]
		if g != w {
			t.Errorf("ToolNames()[%v] = %q, want %q", ref, g, w)
		}
		if !valid.MatchString(g) {
			t.Errorf("name %q is not a valid tool name", g)
		}
		if prev, dup := seen[g]; dup {
			t.Errorf("name %q given to %v and %v", g, prev, ref)
		}
		seen[g] = ref
	}
	if n := got[ToolRef{"srv", long}]; len(n) != 64 {
		t.Errorf("long name has %d characters, want 64", len(n))
	}

	// Deterministic: the same answer whatever the input order, and a
	// pair's suffixed name does not depend on the other servers.
	rev := make([]ToolRef, len(refs))
	for i, r := range refs {
		rev[len(refs)-1-i] = r
	}
	again := ToolNames(rev)
	for ref, name := range got {
		if again[ref] != name {
			t.Errorf("reversed input: %v -> %q, was %q", ref, again[ref], name)
		}
	}
	alone := ToolNames([]ToolRef{{"srv", long}})
	if alone[ToolRef{"srv", long}] != got[ToolRef{"srv", long}] {
		t.Errorf("long name depends on other servers: %q vs %q", alone[ToolRef{"srv", long}], got[ToolRef{"srv", long}])
	}
}

func TestToolNamesManyUnique(t *testing.T) {
	// 2000 pairs that all sanitise to a handful of long, colliding bases.
	var refs []ToolRef
	for i := 0; i < 2000; i++ {
		refs = append(refs, ToolRef{Server: "server.with.a.rather.long.name", Tool: fmt.Sprintf("tool.%s.%d", strings.Repeat("q", 40), i)})
		refs = append(refs, ToolRef{Server: "s", Tool: fmt.Sprintf("t/%d", i%7) + strings.Repeat(".", i%3)})
	}
	names := ToolNames(refs)
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Fatalf("duplicate name %q", n)
		}
		seen[n] = true
		if len(n) > 64 {
			t.Fatalf("name %q longer than 64", n)
		}
	}
}
