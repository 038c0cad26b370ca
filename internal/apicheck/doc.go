// Package apicheck holds only a test: it parses every non-test Go file of
// the repository and fails on each exported identifier, exported struct
// field or interface method that has no doc comment, and on any comment
// that cites a file kept outside the repository (the design notes), so
// that the repository's documentation rules stay true.
package apicheck
