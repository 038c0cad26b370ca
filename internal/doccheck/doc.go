// Package doccheck holds the test that type-checks every Go snippet in
// README.md and docs/*.md (see doccheck_test.go and docs/development.md for
// the snippet conventions). It has no API of its own.
package doccheck
