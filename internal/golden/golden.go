// Package golden is the one golden-file check the project's tests share:
// compare bytes with a file under testdata, byte for byte, and rewrite the
// file only when the test binary runs with -update.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Check compares got with the golden file at path. With -update it first
// writes got there (creating directories). A missing file or any difference
// fails t with the file name and the command that rewrites it. It returns
// the golden bytes (nil when the file cannot be read).
func Check(t testing.TB, path string, got []byte) []byte {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test -run '%s' -update in this package to create it)", err, t.Name())
		return nil
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s mismatch (-want +got):\n-%s\n+%s\nif the change is intended, review it and run: go test -run '%s' -update", path, want, got, t.Name())
	}
	return want
}
