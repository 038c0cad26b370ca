package builtin

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Each built-in's own work stops when its context ends: these call the
// tools' functions directly, because Registry.Execute returns at the
// context's end whether or not the work goes on behind it.

func contextEnv(t *testing.T) *env {
	t.Helper()
	ws := t.TempDir()
	for name, content := range map[string]string{
		"a.txt":       "alpha\n",
		"big.txt":     strings.Repeat("line\n", 3*ctxEvery),
		"dir/b.txt":   "beta\n",
		"dir/c/d.txt": "delta\n",
	} {
		p := filepath.Join(ws, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := newEnv(Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestFileToolsStopWhenContextEnds(t *testing.T) {
	e := contextEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		run  func() (string, error)
		want string
	}{
		{"grep walk", func() (string, error) { return e.grep(ctx, grepArgs{Pattern: "line"}) }, "search stopped: context canceled"},
		{"grep one file", func() (string, error) { return e.grep(ctx, grepArgs{Pattern: "nothing", Path: "big.txt"}) }, "search stopped: context canceled"},
		{"glob", func() (string, error) { return e.glob(ctx, globArgs{Pattern: "**"}) }, "search stopped: context canceled"},
		{"read", func() (string, error) { return e.read(ctx, readArgs{Path: "big.txt", Offset: 2 * ctxEvery}) }, "read stopped: context canceled"},
		{"edit", func() (string, error) {
			return e.edit(ctx, editArgs{Path: "a.txt", OldString: "alpha", NewString: "omega"})
		}, `edit stopped: context canceled; "a.txt" was not changed`},
		{"write", func() (string, error) { return e.write(ctx, writeArgs{Path: "a.txt", Content: "omega"}) },
			`write stopped: context canceled; "a.txt" was not changed`},
		{"write new", func() (string, error) { return e.write(ctx, writeArgs{Path: "new/n.txt", Content: "omega"}) },
			`write stopped: context canceled; "new/n.txt" was not changed`},
		{"apply_patch", func() (string, error) {
			return e.applyPatch(ctx, "*** Begin Patch\n*** Add File: p.txt\n+x\n*** End Patch")
		}, "apply_patch stopped: context canceled; no file was changed"},
	} {
		out, err := c.run()
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: (%.80q, %v), want error %q", c.name, out, err, c.want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(e.root, "a.txt")); string(b) != "alpha\n" {
		t.Errorf("a.txt = %q", b)
	}
	for _, p := range []string{"new", "p.txt"} {
		if _, err := os.Stat(filepath.Join(e.root, p)); err == nil {
			t.Errorf("%s was created", p)
		}
	}
}

// endsAfter is a context whose Err turns to Canceled after n calls, to
// end a call in the middle of its work.
type endsAfter struct {
	context.Context
	n atomic.Int32
}

func (c *endsAfter) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// grep's search of one file checks the context as it goes, not only
// between files: the context ends after the check before the search.
// x{1000}y makes the work between checks about 1 KiB. (A long line is
// TestGrepStopsAtItsDeadline's.)
func TestGrepStopsInsideAFile(t *testing.T) {
	e := contextEnv(t)
	ctx := &endsAfter{Context: context.Background()}
	ctx.n.Store(1)
	out, err := e.grep(ctx, grepArgs{Pattern: "x{1000}y", Path: "big.txt"})
	assert.EqualError(t, err, "search stopped: context canceled", out)
}

// read checks the context inside a long line too, between the buffer's
// chunks: a file that is one 1 MiB line stops after the check before it.
func TestReadStopsInsideALine(t *testing.T) {
	e := contextEnv(t)
	assert.NoError(t, os.WriteFile(filepath.Join(e.root, "line.txt"), []byte(strings.Repeat("x", 1<<20)), 0o644))
	ctx := &endsAfter{Context: context.Background()}
	ctx.n.Store(1)
	out, err := e.read(ctx, readArgs{Path: "line.txt", Offset: 2})
	assert.EqualError(t, err, "read stopped: context canceled", out)
}

// webfetch stops reading a body that stalls, and its HTML pass stops too.
func TestWebfetchStopsWhenContextEnds(t *testing.T) {
	release := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("first part\n"))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer s.Close()
	defer close(release)
	e, err := newEnv(Options{Workspace: t.TempDir(), AllowPrivateNetwork: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	out, err := e.fetch(ctx, e.fetchClient(), webfetchArgs{URL: s.URL, Timeout: 60})
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("fetch returned after %v", d)
	}
	if err == nil || !strings.Contains(err.Error(), "was cancelled") && !strings.Contains(err.Error(), "timed out") {
		t.Errorf("fetch = %q, %v", out, err)
	}

	done, stop := context.WithCancel(context.Background())
	stop()
	if _, _, err := slimHTML(done, []byte("<p>x</p>"), maxConvertBytes); err == nil || err.Error() != "webfetch stopped: context canceled" {
		t.Errorf("slimHTML with a cancelled context: %v", err)
	}
}

// bash's command is killed when the context ends, and bash returns.
func TestBashStopsWhenContextEnds(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	e, err := newEnv(Options{Workspace: t.TempDir(), Shell: "/bin/sh"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = e.bash(ctx, bashArgs{Command: "sleep 30"})
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("bash returned after %v", d)
	}
	if err == nil {
		t.Error("bash with an ended context succeeded")
	}
}
