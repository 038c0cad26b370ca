package mcp

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
)

// BenchmarkListOverCap loads a server whose one tools/list page has
// 50,000 tools (2.3 MB): refused after the first 1001.
func BenchmarkListOverCap(b *testing.B) {
	page := toolsJSON("t", 50_000, "")
	srv := &fakeServer{list: func(string) (string, string) { return page, "" }}
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		s := loadFake(context.Background(), "s", srv, nil)
		if st := s.Status()[0]; st.State != StateFailed {
			b.Fatalf("state %s", st.State)
		}
		s.Close()
	}
}

// BenchmarkRebuild is the work after a tools/list_changed of a server
// with 1000 tools: names, registry checks and status for all of them.
func BenchmarkRebuild(b *testing.B) {
	srv := &fakeServer{list: func(string) (string, string) { return toolsJSON("t", 1000, ""), "" }}
	s := loadFake(context.Background(), "s", srv, nil)
	defer s.Close()
	b.ReportAllocs()
	for b.Loop() {
		s.mu.Lock()
		s.rebuildLocked()
		s.mu.Unlock()
	}
	if len(s.Tools()) != 1000 {
		b.Fatalf("%d tools", len(s.Tools()))
	}
}

// BenchmarkCleanOutput cleans and caps 1 MiB of text with an ANSI escape
// every 64 bytes.
func BenchmarkCleanOutput(b *testing.B) {
	text := strings.Repeat(strings.Repeat("x", 56)+"\x1b[31m ", 1<<14)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		cleanOutput(text, toolnexus.DefaultMaxOutputBytes)
	}
}

// BenchmarkCaptureSSE reads a 16 MiB tools/list event 1 KiB at a time
// through the schema capture.
func BenchmarkCaptureSSE(b *testing.B) {
	event := []byte("data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"tools\":[{\"name\":\"big\",\"description\":\"" +
		strings.Repeat("x", 16<<20) + "\",\"inputSchema\":{}}]}}\n\n")
	b.SetBytes(int64(len(event)))
	for b.Loop() {
		var store schemaStore
		store.expect([]byte("7"))
		body := &captureBody{ReadCloser: &chunkReader{data: event, n: 1 << 10}, sse: true, store: &store, max: 32 << 20}
		if _, err := io.Copy(io.Discard, body); err != nil {
			b.Fatal(err)
		}
	}
}
