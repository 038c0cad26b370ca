package golden

import (
	"os"
	"path/filepath"
	"testing"
)

type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true }
func (r *recorder) Name() string          { return "TestX" }

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.json")
	if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	if got := Check(r, path, []byte("{}\n")); r.failed || string(got) != "{}\n" {
		t.Fatalf("equal bytes: failed=%v got=%q", r.failed, got)
	}
	r = &recorder{TB: t}
	Check(r, path, []byte("{} \n"))
	if !r.failed {
		t.Fatal("a one-byte difference must fail")
	}
	r = &recorder{TB: t}
	Check(r, filepath.Join(t.TempDir(), "missing.json"), []byte("{}"))
	if !r.failed {
		t.Fatal("a missing golden file must fail")
	}
	if b, _ := os.ReadFile(path); string(b) != "{}\n" {
		t.Fatalf("Check without -update must not write: %q", b)
	}
}
