package main

import (
	"fmt"
	"io"
	"log/slog"
	"mime"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/toolnexus/toolnexus"
)

// printResult writes a call's result for a person: each text part (or the
// whole text of a plain result) as it is, each other part as its one-line
// summary ("[image: image/png, 12345 bytes]"). With saveDir set, each
// part that carries bytes is also written to saveDir/NAME-N.EXT (N the
// part's position from 1, EXT from the MIME type, or the part's own file
// name when it has one) and the summary line says where. The result goes
// to w, or to errw when it is an error.
func printResult(w, errw io.Writer, name string, res toolnexus.Result, saveDir string) error {
	if res.IsError {
		w = errw
	}
	if len(res.Content) == 0 {
		_, err := io.WriteString(w, withNewline(res.Text()))
		return err
	}
	for i, p := range res.Content {
		line := p.Summary()
		if saveDir != "" && len(p.Data) > 0 && p.IsBinary() {
			path := filepath.Join(saveDir, partFileName(name, i+1, p))
			if err := os.WriteFile(path, p.Data, 0o644); err != nil {
				return err
			}
			line += " saved to " + path
		}
		if _, err := io.WriteString(w, withNewline(line)); err != nil {
			return err
		}
	}
	return nil
}

// partFileName is the file name a binary part is saved under: its own
// base name when it has one (file parts), else tool-N plus an extension
// for its MIME type (".bin" when none is known).
func partFileName(tool string, n int, p toolnexus.Part) string {
	if p.Kind == toolnexus.PartFile && p.Name != "" {
		if b := filepath.Base(p.Name); b != "." && b != "/" && b != ".." {
			return fmt.Sprintf("%s-%d-%s", tool, n, b)
		}
	}
	ext := ".bin"
	if exts, _ := mime.ExtensionsByType(p.MIMEType); len(exts) > 0 {
		ext = preferredExt(p.MIMEType, exts)
	}
	return fmt.Sprintf("%s-%d%s", tool, n, ext)
}

// preferredExt picks a stable extension: the common one for well-known
// types, otherwise the first the mime package lists (sorted).
func preferredExt(mimeType string, exts []string) string {
	common := map[string]string{"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
		"audio/wav": ".wav", "audio/mpeg": ".mp3", "application/pdf": ".pdf", "text/plain": ".txt", "application/json": ".json"}
	if e, ok := common[strings.ToLower(mimeType)]; ok {
		return e
	}
	return exts[0]
}

// progressPrinter returns the receiver of a running tool's events for a
// terminal: progress as one line rewritten in place ("\r" and clear to end
// of line), e.g. "toolnexus: build 50% (50/100) compiling", and log lines
// as "toolnexus: build [info] message" on lines of their own. done clears
// the progress line, if any.
func progressPrinter(w io.Writer, tool string) (fn func(toolnexus.Event), done func()) {
	var mu sync.Mutex
	open := false
	fn = func(ev toolnexus.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch ev.Kind {
		case toolnexus.EventProgress:
			s := fmt.Sprintf("%g", ev.Progress)
			if ev.Total > 0 {
				s = fmt.Sprintf("%.0f%% (%g/%g)", 100*ev.Progress/ev.Total, ev.Progress, ev.Total)
			}
			if ev.Message != "" {
				s += " " + ev.Message
			}
			fmt.Fprintf(w, "\r\x1b[Ktoolnexus: %s %s", tool, s)
			open = true
		case toolnexus.EventLog:
			if open {
				io.WriteString(w, "\r\x1b[K")
				open = false
			}
			fmt.Fprintf(w, "toolnexus: %s [%s] %s\n", tool, levelName(ev.Level), ev.Message)
		}
	}
	done = func() {
		mu.Lock()
		defer mu.Unlock()
		if open {
			io.WriteString(w, "\r\x1b[K")
			open = false
		}
	}
	return fn, done
}

func levelName(l slog.Level) string {
	switch {
	case l < slog.LevelInfo:
		return "debug"
	case l < slog.LevelWarn:
		return "info"
	case l < slog.LevelError:
		return "warning"
	}
	return "error"
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTTY(f)
}
