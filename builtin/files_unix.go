//go:build unix

package builtin

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openNonblock is added to the flags of every open of a file the model
// names: opening a FIFO (or a device) with it returns at once instead of
// waiting for the other end; the file is then checked with fstat.
const openNonblock = syscall.O_NONBLOCK

// clearNonblock puts a regular file opened with openNonblock back into
// blocking mode (O_NONBLOCK has no effect on regular files on Linux and the
// BSDs, but it is cleared so no platform differs).
func clearNonblock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}

// linkCount returns the number of hard links of a file, from its stat data.
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// isFIFOWithoutReader reports the error of a non-blocking write open of a
// FIFO that nobody reads (ENXIO).
func isFIFOWithoutReader(err error) bool { return errors.Is(err, syscall.ENXIO) }

// fileKey identifies a file by device and inode, for map lookups that
// os.SameFile would need pairwise.
func fileKey(fi fs.FileInfo) (any, bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return [2]uint64{uint64(st.Dev), uint64(st.Ino)}, true
	}
	return nil, false
}

// openDirectory makes an open fail (ENOTDIR) unless the path is a
// directory.
const openDirectory = syscall.O_DIRECTORY
