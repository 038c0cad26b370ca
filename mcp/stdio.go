package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultDrainTimeout is the [ServerOptions.DrainTimeout] used when that
// field is zero.
const DefaultDrainTimeout = 30 * time.Second

// maxTrackedLine bounds the bytes ServeIO buffers to read one input line,
// the SDK's default line limit (mcpsdk.DefaultMaxLineLength): the SDK
// refuses a longer message, ending the session.
const maxTrackedLine = mcpsdk.DefaultMaxLineLength

// ServeStdio serves one MCP session over the process's standard input and
// output, as [Server.ServeIO] does. Nothing else may write to os.Stdout
// meanwhile.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.ServeIO(ctx, os.Stdin, os.Stdout)
}

// ServeIO serves one MCP session over r and w (newline-delimited JSON-RPC,
// the MCP stdio transport) until r ends or ctx is done; it returns nil then,
// and the error otherwise (a malformed message, a failed write).
//
// When r ends, every request already read still gets its reply: ServeIO
// waits for the replies to the calls read (the SDK alone would drop them),
// but at most ServerOptions.DrainTimeout ([DefaultDrainTimeout] if zero,
// no limit if negative). Calls still running then are cancelled and get no
// reply. A call is counted from its input line: a message spread over
// several lines, which the MCP stdio transport forbids, is served but not
// waited for.
func (s *Server) ServeIO(ctx context.Context, r io.Reader, w io.Writer) error {
	limit := s.opts.DrainTimeout
	if limit == 0 {
		limit = DefaultDrainTimeout
	}
	d := &drain{r: r, w: w, limit: limit, changed: make(chan struct{}, 1), closed: make(chan struct{})}
	err := s.srv.Run(ctx, s.transport(&mcpsdk.IOTransport{Reader: drainReader{d}, Writer: drainWriter{d}}))
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, mcpsdk.ErrConnectionClosed) || errors.Is(err, io.EOF)) {
		return nil
	}
	return err
}

// drain holds back the end of a stdio session's input until the calls read
// have been answered (or limit has passed), because the SDK cancels the
// calls in flight, and writes no more replies, as soon as its input ends.
type drain struct {
	r     io.Reader
	w     io.Writer
	limit time.Duration // < 0: none

	// Read side, used by the SDK's one reading goroutine only.
	line    []byte // the input line read so far
	skip    bool   // the current line is over maxTrackedLine: not counted
	atEOF   bool   // r has ended; the next Read waits, then reports it
	drained bool   // the wait is over

	mu      sync.Mutex
	pending int           // calls read minus replies written
	changed chan struct{} // a value after pending drops
	closed  chan struct{} // closed by Close

	closeOnce sync.Once
}

// drainReader is the session's input: r, with its end held back.
type drainReader struct{ d *drain }

func (dr drainReader) Read(p []byte) (int, error) {
	d := dr.d
	if d.atEOF {
		if !d.drained {
			d.wait()
			d.drained = true
		}
		return 0, io.EOF
	}
	n, err := d.r.Read(p)
	d.scan(p[:n])
	if err == io.EOF {
		d.atEOF = true
		d.endLine()
		if n == 0 {
			return dr.Read(p)
		}
		return n, nil // the data first; the next Read waits
	}
	return n, err
}

// Close ends a wait in progress: the SDK closes the connection when ctx is
// done.
func (dr drainReader) Close() error {
	dr.d.closeOnce.Do(func() { close(dr.d.closed) })
	return nil
}

// drainWriter is the session's output: w, counting the replies written.
type drainWriter struct{ d *drain }

// Write writes p, one message (or a batch of them) as the SDK writes it.
func (dw drainWriter) Write(p []byte) (int, error) {
	n, err := dw.d.w.Write(p)
	if err == nil {
		if _, replies := kinds(p, true); replies > 0 {
			dw.d.add(-replies)
		}
	}
	return n, err
}

func (drainWriter) Close() error { return nil }

// scan counts the calls on the complete lines of b, keeping a partial last
// line for the next Read.
func (d *drain) scan(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			d.keep(b)
			return
		}
		if len(d.line) == 0 && !d.skip {
			d.count(b[:i])
		} else {
			d.keep(b[:i])
			d.endLine()
		}
		b = b[i+1:]
	}
}

// keep adds b to the current line, or drops the line once it is too long.
func (d *drain) keep(b []byte) {
	if d.skip {
		return
	}
	if len(d.line)+len(b) > maxTrackedLine {
		d.line, d.skip = nil, true
		return
	}
	d.line = append(d.line, b...)
}

// endLine counts the calls on the current line and starts a new one.
func (d *drain) endLine() {
	if !d.skip {
		d.count(d.line)
	}
	d.line, d.skip = d.line[:0], false
	if cap(d.line) > 64<<10 {
		d.line = nil // do not hold a long line's buffer for the session
	}
}

func (d *drain) count(line []byte) {
	if calls, _ := kinds(line, false); calls > 0 {
		d.add(calls)
	}
}

func (d *drain) add(n int) {
	d.mu.Lock()
	d.pending += n
	d.mu.Unlock()
	if n < 0 {
		select {
		case d.changed <- struct{}{}:
		default:
		}
	}
}

// wait returns once every call read has been answered, limit has passed,
// or the connection is closed.
func (d *drain) wait() {
	var timeout <-chan time.Time
	if d.limit > 0 {
		t := time.NewTimer(d.limit)
		defer t.Stop()
		timeout = t.C
	}
	for {
		d.mu.Lock()
		idle := d.pending <= 0
		d.mu.Unlock()
		if idle {
			return
		}
		select {
		case <-d.changed:
		case <-timeout:
			return
		case <-d.closed:
			return
		}
	}
}

// kinds reports how many of the JSON-RPC messages in b (one message, or a
// batch as a JSON array) are calls (a "method" and an "id" that is not
// null) and how many are replies (no "method"). With out set, b was written
// by the SDK, whose messages put "method", "result" or "error" before
// anything long, so the walk of a single message stops there and only its
// replies are counted. Malformed JSON counts as nothing: the SDK refuses
// it.
func kinds(b []byte, out bool) (calls, replies int) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return 0, 0
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return 0, 0
	}
	switch tok {
	case json.Delim('{'):
		return message(dec, out)
	case json.Delim('['):
		for dec.More() {
			tok, err := dec.Token()
			if err != nil || tok != json.Delim('{') {
				return calls, replies
			}
			c, r := message(dec, false)
			calls, replies = calls+c, replies+r
		}
	}
	return calls, replies
}

// message classifies the object whose '{' dec has just read, reading it to
// its end, or, when stopAtReply is set, only to its first "method",
// "result" or "error" key (a message the SDK wrote has one of them, after
// "jsonrpc" and "id" only).
func message(dec *json.Decoder, stopAtReply bool) (calls, replies int) {
	method, id := false, false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return 0, 0
		}
		key, _ := tok.(string)
		switch {
		case !stopAtReply:
		case key == "method":
			return 0, 0 // a request or notification of the server's
		case key == "result" || key == "error":
			return 0, 1
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return 0, 0
		}
		switch key {
		case "method":
			method = true
		case "id":
			id = string(v) != "null"
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return 0, 0
	}
	switch {
	case method && id:
		return 1, 0
	case !method:
		return 0, 1
	}
	return 0, 0
}
