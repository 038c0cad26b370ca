// Package suggest finds the likely intended name of a mistyped one, for
// the did-you-mean of every place a name is looked up (the command line,
// toolkit's Config.Builtins).
package suggest

import "strings"

// Closest returns the name in known closest to name, case ignored, when
// it is a likely typo: at most 1+len(name)/3 single-byte edits away
// (insertions, deletions, substitutions); otherwise "".
func Closest(name string, known []string) string {
	best, bestDist := "", 2+len(name)/3
	a := strings.ToLower(name)
	for _, k := range known {
		b := strings.ToLower(k)
		// dist[j] is the edit distance of a[:i] and b[:j], row by row.
		dist := make([]int, len(b)+1)
		for j := range dist {
			dist[j] = j
		}
		for i := 1; i <= len(a); i++ {
			diag := dist[0]
			dist[0] = i
			for j := 1; j <= len(b); j++ {
				sub := diag
				if a[i-1] != b[j-1] {
					sub++
				}
				diag = dist[j]
				dist[j] = min(dist[j]+1, dist[j-1]+1, sub)
			}
		}
		if dist[len(b)] < bestDist {
			best, bestDist = k, dist[len(b)]
		}
	}
	return best
}
