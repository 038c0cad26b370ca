package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// refEvents is the SSE event splitting of the specification, done the
// slow, obvious way on a whole stream: the data of every complete event
// whose data is at most max bytes.
func refEvents(stream []byte, max int) []string {
	s := strings.ReplaceAll(string(stream), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	lines = lines[:len(lines)-1] // the last one has no end yet
	var out, data []string
	has := false
	for _, l := range lines {
		if l == "" {
			if joined := strings.Join(data, "\n"); has && len(joined) <= max {
				out = append(out, joined)
			}
			data, has = nil, false
			continue
		}
		if l == "data" || strings.HasPrefix(l, "data:") {
			v := strings.TrimPrefix(strings.TrimPrefix(l[len("data"):], ":"), " ")
			data, has = append(data, v), true
		}
	}
	return out
}

// scanChunks feeds stream to an sseScanner in pieces of the given sizes
// (cycled) and returns the events.
func scanChunks(stream []byte, sizes []int, max int) []string {
	var sc sseScanner
	var out []string
	emit := func(b []byte) error { out = append(out, string(b)); return nil }
	for i := 0; len(stream) > 0; i++ {
		n := min(max1(sizes[i%len(sizes)]), len(stream))
		sc.scan(stream[:n], max, emit)
		stream = stream[n:]
	}
	return out
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

func TestSSEScanner(t *testing.T) {
	stream := []byte("event: message\ndata: {\"a\":1}\n\n: comment\r\ndata:two\r\ndata\r\ndata: lines\r\n\r\n" +
		"data: dropped, too long for max 20\n\ndata: cr only\r\rdata: unterminated")
	want := []string{`{"a":1}`, "two\n\nlines", "cr only"}
	for _, sizes := range [][]int{{len(stream)}, {1}, {2, 3}, {7}} {
		if got := scanChunks(stream, sizes, 20); !slices.Equal(got, want) {
			t.Errorf("chunks %v: events = %q, want %q", sizes, got, want)
		}
	}
	if got := refEvents(stream, 20); !slices.Equal(got, want) {
		t.Errorf("refEvents = %q, want %q", got, want)
	}
}

func FuzzSSEScanner(f *testing.F) {
	f.Add([]byte("data: a\n\ndata:b\r\ndata\r\n\r\n"), uint8(1), uint8(3), uint8(16))
	f.Add([]byte("data: toolong\r\rdata: x\r\n\n"), uint8(2), uint8(5), uint8(4))
	f.Add([]byte("dat"+"a: split\n\n"), uint8(3), uint8(1), uint8(2))
	f.Fuzz(func(t *testing.T, stream []byte, a, b, max uint8) {
		m := int(max%64) + 1
		want := refEvents(stream, m)
		got := scanChunks(stream, []int{int(a % 16), int(b % 16)}, m)
		if !slices.Equal(got, want) {
			t.Fatalf("stream %q in chunks %d,%d, max %d: events %q, want %q", stream, a%16, b%16, m, got, want)
		}
	})
}

// chunkReader returns its data n bytes per Read.
type chunkReader struct {
	data []byte
	n    int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.n)], r.data)
	r.data = r.data[k:]
	return k, nil
}

func (r *chunkReader) Close() error { return nil }

// TestCaptureBodyLinear reads one SSE event of 16 MiB, 1 KiB at a time.
// Rescanning the whole event on every read (the old capture) is quadratic:
// about 16384 reads of 8 MiB on average, 137 GB scanned, many minutes. A
// linear capture takes well under a second, so the generous bound below
// only trips on the quadratic behaviour, not on a loaded machine
// (BenchmarkCaptureSSE measures the speed).
func TestCaptureBodyLinear(t *testing.T) {
	const size = 16 << 20
	event := []byte("data: " + strings.Repeat("x", size) + "\r\n\r\n")
	body := &captureBody{ReadCloser: &chunkReader{data: event, n: 1 << 10}, sse: true, store: &schemaStore{}, max: 32 << 20}
	start := time.Now()
	if n, err := io.Copy(io.Discard, body); err != nil || n != int64(len(event)) {
		t.Fatalf("read %d bytes, err %v; want %d", n, err, len(event))
	}
	if d := time.Since(start); d > 60*time.Second {
		t.Errorf("16 MiB in 1 KiB reads took %v: the capture is not linear", d)
	}

	// The schema of a large tools/list result is captured.
	listEvent := "data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"tools\":[{\"name\":\"big\",\"description\":\"" +
		strings.Repeat("x", 1<<20) + "\",\"inputSchema\":{\"type\": \"object\"}}]}}\r\n\r\n"
	var store schemaStore
	store.expect([]byte("7"))
	body = &captureBody{ReadCloser: &chunkReader{data: []byte(listEvent), n: 1 << 10}, sse: true, store: &store, max: 32 << 20}
	if _, err := io.Copy(io.Discard, body); err != nil {
		t.Fatal(err)
	}
	if schema, ok := store.get("big"); !ok || string(schema) != `{"type":"object"}` {
		t.Errorf("captured schema = %s, %v; want {\"type\":\"object\"}", schema, ok)
	}
}

func TestTailBuffer(t *testing.T) {
	tb := &tailBuffer{max: 8}
	var all bytes.Buffer
	for i := range 1000 {
		p := []byte(strings.Repeat(string(rune('a'+i%26)), i%11))
		if n, err := tb.Write(p); n != len(p) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
		all.Write(p)
		want := all.Bytes()[max(0, all.Len()-8):]
		if got := tb.String(); got != string(want) {
			t.Fatalf("after %d writes String() = %q, want %q", i+1, got, want)
		}
		if cap(tb.buf) > 2*8+16 {
			t.Fatalf("buffer grew to %d bytes", cap(tb.buf))
		}
	}
}

// FuzzAddResult checks the streaming tools/list reader against
// json.Unmarshal: for a valid result it records the same names, in order,
// up to the limit, and says when it went over.
func FuzzAddResult(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b"}],"nextCursor":"x"}`), uint8(1))
	f.Add([]byte(`{"x":[1,{"tools":2}],"tools":[]}`), uint8(0))
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{ "type" : "object" }}]}`), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, limit uint8) {
		var s schemaStore
		s.limit = int(limit % 8)
		err := s.addResult(data)
		var ref struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		if json.Unmarshal(data, &ref) != nil || bytes.Count(data, []byte(`"tools"`)) != 1 {
			return // invalid, or a key given twice: only no panic is checked
		}
		var want []string
		for _, tool := range ref.Tools {
			want = append(want, tool.Name)
		}
		over := s.limit > 0 && len(want) > s.limit
		if over {
			want = want[:s.limit]
		}
		if got := s.names(); !slices.Equal(got, want) || (err != nil) != over || s.overCap() != over {
			t.Fatalf("names %q, err %v, overCap %v; want %q, over %v", got, err, s.overCap(), want, over)
		}
	})
}
