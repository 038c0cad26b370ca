package builtin_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/builtin"
)

// bigArgsFixture is a fixture whose registry accepts arguments of up to
// 32 MiB, so a call can carry more than MaxFileBytes.
func bigArgsFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t, builtin.Options{})
	tools, err := builtin.Tools(&builtin.Options{Workspace: f.ws})
	if err != nil {
		t.Fatal(err)
	}
	f.reg = toolnexus.NewRegistryWith(&toolnexus.Options{MaxArgumentBytes: 32 << 20})
	if err := f.reg.Add(tools...); err != nil {
		t.Fatal(err)
	}
	return f
}

// allocated runs fn and returns the bytes the process allocated meanwhile.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// The case: replaceAll on a 100 KB file that would make it 200 MB
// is refused before the result is built, and the file keeps its bytes.
func TestEditRefusesResultOverMaxFileBytes(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	before := strings.Repeat("a", 100_000)
	f.file("a.txt", before)
	args := map[string]any{"path": "a.txt", "oldString": "a", "newString": strings.Repeat("b", 2000), "replaceAll": true}
	var r toolnexus.Result
	alloc := allocated(func() { r = f.call("edit", args) })
	if !r.IsError {
		t.Fatalf("edit: want an error result, got %.200q", r.Output)
	}
	wantEqual(t, "output", r.Output, fmt.Sprintf(
		`refused: "a.txt" would be 200000000 bytes, more than the limit of %d bytes; no file was changed`, builtin.MaxFileBytes))
	if got := f.content("a.txt"); got != before {
		t.Errorf("a.txt changed: %d bytes", len(got))
	}
	// The file (100 KB) is read and copied once or twice; the 200 MB
	// result must never exist.
	if alloc > 4<<20 {
		t.Errorf("edit allocated %d bytes, want at most 4 MiB", alloc)
	}

}

// Without replaceAll one occurrence counts; at the limit exactly the edit
// goes through.
func TestEditAtMaxFileBytes(t *testing.T) {
	f := bigArgsFixture(t)
	f.file("b.txt", "x"+strings.Repeat("y", 1000))
	grow := strings.Repeat("z", builtin.MaxFileBytes-1000)
	wantEqual(t, "one over", f.fail("edit", map[string]any{"path": "b.txt", "oldString": "x", "newString": grow + "z"}),
		fmt.Sprintf(`refused: "b.txt" would be %d bytes, more than the limit of %d bytes; no file was changed`, builtin.MaxFileBytes+1, builtin.MaxFileBytes))
	wantEqual(t, "at the limit", f.ok("edit", map[string]any{"path": "b.txt", "oldString": "x", "newString": grow}), "replaced 1 occurrence in b.txt")
	if n := len(f.content("b.txt")); n != builtin.MaxFileBytes {
		t.Errorf("b.txt is %d bytes, want %d", n, builtin.MaxFileBytes)
	}
}

func TestWriteRefusesContentOverMaxFileBytes(t *testing.T) {
	f := bigArgsFixture(t)
	f.file("w.txt", "old\n")
	big := strings.Repeat("w", builtin.MaxFileBytes+1)
	wantEqual(t, "write", f.fail("write", map[string]any{"path": "w.txt", "content": big}),
		fmt.Sprintf(`refused: "w.txt" would be %d bytes, more than the limit of %d bytes; no file was changed`, builtin.MaxFileBytes+1, builtin.MaxFileBytes))
	wantEqual(t, "w.txt", f.content("w.txt"), "old\n")
	f.fail("write", map[string]any{"path": "new.txt", "content": big})
	if f.exists("new.txt") {
		t.Error("new.txt was created")
	}
	f.ok("write", map[string]any{"path": "new.txt", "content": big[1:]})
}

func TestApplyPatchRefusesResultOverMaxFileBytes(t *testing.T) {
	f := bigArgsFixture(t)
	const half = builtin.MaxFileBytes / 2
	// 5 MiB file of 1 KiB lines; the hunk adds 5 MiB + 1 KiB of lines.
	line := strings.Repeat("o", 1023)
	orig := strings.Repeat(line+"\n", half/1024)
	f.file("big.txt", orig)
	var p strings.Builder
	p.WriteString("*** Begin Patch\n*** Update File: big.txt\n " + line + "\n")
	for range half/1024 + 1 {
		p.WriteString("+" + line + "\n")
	}
	p.WriteString("*** End Patch\n")
	wantEqual(t, "update", f.fail("apply_patch", map[string]any{"patchText": p.String()}),
		fmt.Sprintf(`refused: "big.txt" would be %d bytes, more than the limit of %d bytes; no file was changed`, builtin.MaxFileBytes+1024, builtin.MaxFileBytes))
	if f.content("big.txt") != orig {
		t.Error("big.txt changed")
	}

	var add strings.Builder
	add.WriteString("*** Begin Patch\n*** Add File: new.txt\n")
	for range builtin.MaxFileBytes/1024 + 1 {
		add.WriteString("+" + line + "\n")
	}
	add.WriteString("*** End Patch\n")
	wantEqual(t, "add", f.fail("apply_patch", map[string]any{"patchText": add.String()}),
		fmt.Sprintf(`refused: "new.txt" would be %d bytes, more than the limit of %d bytes; no file was changed`, builtin.MaxFileBytes+1024, builtin.MaxFileBytes))
	if f.exists("new.txt") {
		t.Error("new.txt was created")
	}
}

// apply_patch keeps the old content of what it deletes until the patch is
// done: a file over MaxFileBytes cannot be deleted with it, and one call
// holds at most 64 MiB of old and new content.
func TestApplyPatchHoldsBoundedContent(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	sized := func(name string, size int64) {
		p := f.file(name, "")
		if err := os.Truncate(p, size); err != nil { // sparse: no disk, no time
			t.Fatal(err)
		}
	}
	sized("huge.bin", builtin.MaxFileBytes+1)
	wantEqual(t, "huge", f.fail("apply_patch", patch("*** Begin Patch", "*** Delete File: huge.bin", "*** End Patch")),
		fmt.Sprintf(`"huge.bin" is too large to delete with apply_patch (%d bytes; the limit is %d)`, builtin.MaxFileBytes+1, builtin.MaxFileBytes))
	lines := []string{"*** Begin Patch"}
	for i := range 7 {
		name := fmt.Sprintf("f%d.bin", i)
		sized(name, builtin.MaxFileBytes)
		lines = append(lines, "*** Delete File: "+name)
	}
	lines = append(lines, "*** End Patch")
	wantEqual(t, "seven", f.fail("apply_patch", patch(lines...)),
		"refused: the patch would hold more than 67108864 bytes of old and new file content (the limit of one call); no file was changed; split it into smaller patches")
	for i := range 7 {
		if !f.exists(fmt.Sprintf("f%d.bin", i)) {
			t.Errorf("f%d.bin was deleted", i)
		}
	}
	if !f.exists("huge.bin") {
		t.Error("huge.bin was deleted")
	}
	six := append(lines[:7:7], "*** End Patch") // six deletes: 60 MiB
	wantEqual(t, "six", f.ok("apply_patch", patch(six...)),
		"Success. Updated the following files:\nD f0.bin\nD f1.bin\nD f2.bin\nD f3.bin\nD f4.bin\nD f5.bin")
	if f.exists("f0.bin") || !f.exists("f6.bin") {
		t.Error("the six deletes did not happen as asked")
	}
}

// The brace pattern through the registry, under a deadline: the
// call ends with glob's own result, not the deadline's.
func TestGlobAdversarialThroughRegistry(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file(strings.Repeat("a", 200), "a\n")
	pattern := strings.Repeat("{a,a}", 38) + "*b*"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := f.callCtx(ctx, "glob", map[string]any{"pattern": pattern})
	if r.IsError || r.Output != "no files match" {
		t.Errorf("glob = %q (error %v)", r.Output, r.IsError)
	}
	r = f.callCtx(ctx, "grep", map[string]any{"pattern": "a", "include": pattern})
	if r.IsError || r.Output != "no matches" {
		t.Errorf("grep = %q (error %v)", r.Output, r.IsError)
	}
}
