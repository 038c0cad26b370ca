//go:build !unix

package builtin

import (
	"io/fs"
	"os"
)

// openNonblock is 0 where O_NONBLOCK does not exist (Windows has no FIFOs
// that a path open could block on).
const openNonblock = 0

func clearNonblock(f *os.File) error { return nil }

// linkCount is 1 on platforms where this package does not read the hard
// link count (Windows): the hard-link refusal of write, edit and
// apply_patch is not enforced there.
func linkCount(fi fs.FileInfo) uint64 { return 1 }

func isFIFOWithoutReader(err error) bool { return false }

// fileKey reports false: callers compare with os.SameFile instead.
func fileKey(fi fs.FileInfo) (any, bool) { return nil, false }

// openDirectory is 0 where O_DIRECTORY does not exist; the caller checks
// the opened file's type.
const openDirectory = 0
