package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolnexus/toolnexus"
)

func TestPrintResult(t *testing.T) {
	var out, errb bytes.Buffer
	res := toolnexus.ContentResult(toolnexus.TextPart("chart:"), toolnexus.ImagePart("image/png", []byte("PNG")),
		toolnexus.FilePart("../q3.pdf", "application/pdf", []byte("%PDF")), toolnexus.AudioPart("audio/x-unknown-kind", []byte{1}))
	if err := printResult(&out, &errb, "draw", res, ""); err != nil {
		t.Fatal(err)
	}
	want := "chart:\n[image: image/png, 3 bytes]\n[file: ../q3.pdf, application/pdf, 4 bytes]\n[audio: audio/x-unknown-kind, 1 bytes]\n"
	if out.String() != want || errb.Len() != 0 {
		t.Errorf("stdout %q, stderr %q; want stdout %q", out.String(), errb.String(), want)
	}

	dir := t.TempDir()
	out.Reset()
	if err := printResult(&out, &errb, "draw", res, dir); err != nil {
		t.Fatal(err)
	}
	want = "chart:\n" +
		"[image: image/png, 3 bytes] saved to " + filepath.Join(dir, "draw-2.png") + "\n" +
		"[file: ../q3.pdf, application/pdf, 4 bytes] saved to " + filepath.Join(dir, "draw-3-q3.pdf") + "\n" +
		"[audio: audio/x-unknown-kind, 1 bytes] saved to " + filepath.Join(dir, "draw-4.bin") + "\n"
	if out.String() != want {
		t.Errorf("stdout %q\nwant   %q", out.String(), want)
	}
	for name, data := range map[string]string{"draw-2.png": "PNG", "draw-3-q3.pdf": "%PDF", "draw-4.bin": "\x01"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != data {
			t.Errorf("%s: %q, %v", name, b, err)
		}
	}

	// Plain and structured results print their text; errors go to stderr.
	out.Reset()
	printResult(&out, &errb, "sum", toolnexus.Result{Output: "see it", Structured: []byte(`{"sum":1}`)}, "")
	printResult(&out, &errb, "x", toolnexus.Result{Output: "bad", IsError: true}, "")
	if out.String() != "{\"sum\":1}\n" || errb.String() != "bad\n" {
		t.Errorf("stdout %q stderr %q", out.String(), errb.String())
	}
}

func TestProgressPrinter(t *testing.T) {
	var b bytes.Buffer
	fn, done := progressPrinter(&b, "build")
	fn(toolnexus.Event{Kind: toolnexus.EventProgress, Progress: 50, Total: 100, Message: "compiling"})
	fn(toolnexus.Event{Kind: toolnexus.EventLog, Level: slog.LevelWarn, Message: "slow disk"})
	fn(toolnexus.Event{Kind: toolnexus.EventProgress, Progress: 3})
	done()
	done()
	want := "\r\x1b[Ktoolnexus: build 50% (50/100) compiling" +
		"\r\x1b[Ktoolnexus: build [warning] slow disk\n" +
		"\r\x1b[Ktoolnexus: build 3" +
		"\r\x1b[K"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	if isTerminal(&b) {
		t.Error("a buffer is not a terminal")
	}
}
