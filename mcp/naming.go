package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
)

// MaxToolNameLength is the longest registry tool name: 64 characters, the
// limit OpenAI (function.name) and Anthropic (tools[].name) document.
const MaxToolNameLength = 64

// SanitizeName replaces every character of s outside [a-zA-Z0-9_-] by "_"
// (one "_" per Unicode character, so "café" becomes "caf_"). It does not
// shorten s.
func SanitizeName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, c := range s {
		if c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// ToolRef identifies one tool of one server, by the names the server uses.
type ToolRef struct {
	Server string // the server's name in the config
	Tool   string // the tool's name as the server lists it
}

// hashLen is the number of hex digits of the suffix that makes a long or
// colliding name unique.
const hashLen = 8

// ToolNames assigns a registry name to every (server, tool) pair:
//
//   - The base name is SanitizeName(server) + "_" + SanitizeName(tool).
//   - A base name of at most 64 characters that no other pair shares is
//     used as it is.
//   - Every other pair (too long, or sanitising made two pairs equal, such
//     as tools "a.b" and "a_b") gets its base name cut to 55 characters
//     plus "_" and the first 8 hex digits of SHA-256(server + "\x00" +
//     tool). The suffix depends only on the pair, so the name is the same
//     on every run and whatever other servers are configured, as long as
//     the pair stays long or colliding.
//   - In the astronomically unlikely case that a suffixed name still meets
//     another name, the hash input gets "\x00" and a counter appended until
//     it is free; pairs are handled in (server, tool) order, so the result
//     is deterministic.
//
// The result maps each pair to its name; all names are distinct and match
// ^[a-zA-Z0-9_-]{1,64}$.
func ToolNames(refs []ToolRef) map[ToolRef]string {
	bases := make(map[ToolRef]string, len(refs))
	count := map[string]int{}
	for _, r := range refs {
		if _, seen := bases[r]; seen {
			continue
		}
		b := SanitizeName(r.Server) + "_" + SanitizeName(r.Tool)
		bases[r] = b
		count[b]++
	}
	out := make(map[ToolRef]string, len(bases))
	taken := map[string]bool{}
	var rest []ToolRef
	for r, b := range bases {
		if len(b) <= MaxToolNameLength && count[b] == 1 {
			out[r] = b
			taken[b] = true
		} else {
			rest = append(rest, r)
		}
	}
	sortRefs(rest)
	for _, r := range rest {
		b := bases[r]
		prefix := b
		if len(prefix) > MaxToolNameLength-1-hashLen {
			prefix = prefix[:MaxToolNameLength-1-hashLen]
		}
		for n := 0; ; n++ {
			in := r.Server + "\x00" + r.Tool
			if n > 0 {
				in += "\x00" + strconv.Itoa(n)
			}
			sum := sha256.Sum256([]byte(in))
			name := prefix + "_" + hex.EncodeToString(sum[:])[:hashLen]
			if !taken[name] {
				out[r] = name
				taken[name] = true
				break
			}
		}
	}
	return out
}

func sortRefs(refs []ToolRef) {
	slices.SortFunc(refs, func(a, b ToolRef) int {
		if c := strings.Compare(a.Server, b.Server); c != 0 {
			return c
		}
		return strings.Compare(a.Tool, b.Tool)
	})
}
