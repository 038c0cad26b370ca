package exec

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// DefaultMaxStreamBytes is the default of [Options.MaxStreamBytes]: 16 MiB.
const DefaultMaxStreamBytes = 16 << 20

// ErrStreamIncomplete is wrapped by the error a streaming method returns
// (and by the Result.Err of each call it could not run) when the stream
// did not finish as its provider finishes one: it was cut off, the
// provider sent an error event, an event was not valid JSON of the
// expected shape, or it went over [Options.MaxStreamBytes]. Calls whose
// arguments were complete before that point ran and have their results;
// a call whose arguments were not complete never runs, and its Output
// says `tool "x" was not run: the stream ended before its arguments were
// complete`. When no event before that point was of the method's own
// provider and one was recognisably another provider's stream event, the
// error says so and names the method that reads it, in the style of the whole-reply methods: `exec: stream
// incomplete: OpenAI stream: it looks like an Anthropic Messages stream
// (it has "type":"message_start"); read it with AnthropicStream or
// NewAnthropicFeed`.
var ErrStreamIncomplete = errors.New("exec: stream incomplete")

// maxStream is Options.MaxStreamBytes with its default.
func (e *Executor) maxStream() int {
	if e.opts.MaxStreamBytes > 0 {
		return e.opts.MaxStreamBytes
	}
	return DefaultMaxStreamBytes
}

// sseReader reads server-sent events (the WHATWG "event stream"
// format): lines ending in CRLF, LF or CR; "data:" lines, joined with
// "\n", are an event's data; a blank line ends the event; comments
// (":"), "event:", "id:" and "retry:" lines are skipped, since every
// provider here repeats the event type in the data. An event whose data
// would exceed max bytes is an error, not unbounded growth; an event not
// ended by a blank line when the body ends is dropped, as the format
// requires.
type sseReader struct {
	ctx     context.Context // checked at each line: a body of endless comments ends with it
	r       *bufio.Reader
	max     int
	data    []byte // the current event's data
	hasData bool
	line    []byte
	skipLF  bool // the last line ended with CR: a following LF is part of it
}

func newSSEReader(ctx context.Context, r io.Reader, max int) *sseReader {
	s := &sseReader{ctx: ctx, r: bufio.NewReaderSize(r, 32<<10), max: max}
	if b, err := s.r.Peek(3); err == nil && string(b) == "\ufeff" {
		_, _ = s.r.Discard(3) // a byte order mark the format lets a stream begin with
	}
	return s
}

// next returns the data of the next event; it is valid until the next
// call. At the end of the body it returns io.EOF.
func (s *sseReader) next() ([]byte, error) {
	s.data, s.hasData = s.data[:0], false
	for {
		if err := s.ctx.Err(); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrStreamIncomplete, context.Cause(s.ctx))
		}
		line, err := s.readLine()
		if err != nil {
			return nil, err
		}
		if len(line) == 0 {
			if s.hasData {
				return s.data, nil
			}
			continue
		}
		field, value := line, []byte(nil)
		for i, c := range line {
			if c == ':' {
				field, value = line[:i], line[i+1:]
				if len(value) > 0 && value[0] == ' ' {
					value = value[1:]
				}
				break
			}
		}
		if string(field) != "data" {
			continue // comment, event, id, retry, unknown
		}
		if s.hasData {
			s.data = append(s.data, '\n')
		}
		if len(s.data)+len(value) > s.max {
			return nil, fmt.Errorf("%w: an event is larger than the limit of %d bytes", ErrStreamIncomplete, s.max)
		}
		s.data, s.hasData = append(s.data, value...), true
	}
}

// readLine returns the next line without its ending, or an error (io.EOF
// at the end of the body, also for a last line without an ending).
func (s *sseReader) readLine() ([]byte, error) {
	s.line = s.line[:0]
	for {
		b, err := s.r.ReadByte()
		if err != nil {
			if err == io.EOF {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("%w: reading the stream: %w", ErrStreamIncomplete, err)
		}
		if s.skipLF {
			s.skipLF = false
			if b == '\n' {
				continue
			}
		}
		switch b {
		case '\r':
			s.skipLF = true
			return s.line, nil
		case '\n':
			return s.line, nil
		}
		if len(s.line) >= s.max {
			return nil, fmt.Errorf("%w: an event is larger than the limit of %d bytes", ErrStreamIncomplete, s.max)
		}
		s.line = append(s.line, b)
		// Copy the rest of the buffered line in one step.
		if buf, _ := s.r.Peek(s.r.Buffered()); len(buf) > 0 {
			n := 0
			for n < len(buf) && buf[n] != '\r' && buf[n] != '\n' {
				n++
			}
			if len(s.line)+n > s.max {
				n = s.max - len(s.line) + 1
			}
			if n > 0 {
				s.line = append(s.line, buf[:n]...)
				_, _ = s.r.Discard(n)
				if len(s.line) > s.max {
					return nil, fmt.Errorf("%w: an event is larger than the limit of %d bytes", ErrStreamIncomplete, s.max)
				}
			}
		}
	}
}

// feedAll reads the SSE body r and feeds each event's data to feed; it
// stops at the first error (io.EOF is not one).
// It also stops, with an error wrapping ctx's, when ctx is done.
func feedAll(ctx context.Context, r io.Reader, max int, feed func([]byte) error) error {
	s := newSSEReader(ctx, r, max) // it checks ctx at every line
	for {
		data, err := s.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := feed(data); err != nil {
			return err
		}
	}
}

// streamCalls runs the calls of one streamed reply as their arguments
// complete: add registers a call (in call order), start runs it, finish
// waits for all and answers the calls never started.
type streamCalls struct {
	e       *Executor
	ctx     context.Context
	limit   int // most workers; 0: no limit, or Concurrency 1 (run inline)
	mu      sync.Mutex
	pending []streamJob // started calls waiting for a worker
	workers int
	wg      sync.WaitGroup
	res     []*Result
	run     []bool
	kept    int   // bytes of call data kept (ids, names, arguments)
	err     error // why the stream is incomplete; the first reason

	shape replyShape // the provider whose stream this is
	own   bool       // an event of shape was seen
	other error      // while !own: the stream looks like another provider's

	cut    string         // the reply was cut at the output limit: the provider's marker (see truncatedResult)
	contra map[int]string // calls that ran and that the stream then contradicted: what it did

	closed   bool                 // finish was called
	partials []*partialArgs       // for Options.OnInvalidPartial, by call
	tools    map[string]*toolKeys // for Options.OnInvalidPartial, by name
}

func newStreamCalls(ctx context.Context, e *Executor, shape replyShape) *streamCalls {
	s := &streamCalls{e: e, ctx: ctx, shape: shape}
	if c := e.opts.Concurrency; c > 1 || c == 0 {
		if c == 0 {
			c = DefaultConcurrency
		}
		s.limit = c
	}
	return s
}

// callOverhead is what one call of a stream counts against
// [Options.MaxStreamBytes] besides its data: the memory the reader holds
// for it (measured by BenchmarkStreamHostile), so that a stream of
// millions of empty calls is bounded as one of long arguments is.
const callOverhead = 512

// add registers a call not yet complete and returns its position; its
// overhead is counted by the next keep.
func (s *streamCalls) add() int {
	s.res = append(s.res, new(Result))
	s.run = append(s.run, false)
	s.kept += callOverhead
	return len(s.res) - 1
}

// contradict records that call i, which ran, was contradicted by the
// stream (what says how); its answer says so (see contradicted).
func (s *streamCalls) contradict(i int, what string) {
	if what == "" {
		return
	}
	if s.contra == nil {
		s.contra = map[int]string{}
	}
	s.contra[i] = what
}

// keep counts n more bytes of call data against the limit.
func (s *streamCalls) keep(n int) error {
	s.kept += n
	if max := s.e.maxStream(); s.kept > max {
		return fmt.Errorf("%w: the calls' data is larger than the limit of %d bytes", ErrStreamIncomplete, max)
	}
	return nil
}

// start runs call i, now complete, unless it already runs: inside the
// caller with Concurrency 1; else on a worker, at most limit of them
// (none: one goroutine per call), a call waiting for a worker holding no
// goroutine of its own.
func (s *streamCalls) start(i int, call Call) {
	if s.run[i] {
		return
	}
	s.run[i] = true
	res := s.res[i]
	if s.e.opts.Concurrency == 1 {
		*res = s.e.Run(s.ctx, call)
		return
	}
	s.wg.Add(1)
	j := streamJob{i, call, res}
	if s.limit == 0 {
		go s.runJob(j)
		return
	}
	s.mu.Lock()
	s.pending = append(s.pending, j)
	spawn := s.workers < s.limit
	if spawn {
		s.workers++
	}
	s.mu.Unlock()
	if spawn {
		go s.work()
	}
}

// streamJob is a started call waiting for a worker.
type streamJob struct {
	i    int
	call Call
	res  *Result
}

// work runs pending calls until there are none.
func (s *streamCalls) work() {
	for {
		s.mu.Lock()
		if len(s.pending) == 0 {
			s.workers--
			s.mu.Unlock()
			return
		}
		j := s.pending[0]
		s.pending[0] = streamJob{}
		s.pending = s.pending[1:]
		s.mu.Unlock()
		s.runJob(j)
	}
}

// runJob runs one call on the current goroutine. A hook or handler that
// calls runtime.Goexit ends the goroutine: the call gets its answer, and
// a worker so ended is replaced.
func (s *streamCalls) runJob(j streamJob) {
	finished := false
	defer func() {
		if !finished {
			*j.res = s.e.goexited(s.ctx, j.call)
			if s.limit > 0 {
				s.mu.Lock()
				more := len(s.pending) > 0
				if !more {
					s.workers--
				}
				s.mu.Unlock()
				if more {
					go s.work()
				}
			}
		}
		s.wg.Done()
	}()
	presizeStack(j.i)
	*j.res = s.e.Run(s.ctx, j.call)
	finished = true
}

// unmarshalEvent decodes one event's data into v. An event holding a
// value nested more than MaxReplyDepth levels (which encoding/json
// refuses whole) is decoded with that value cut out (see cutDeep), and
// deep is true: the caller marks the calls that held one, so that only
// they fail.
func unmarshalEvent(data []byte, v any) (deep bool, err error) {
	err = json.Unmarshal(data, v)
	if err == nil {
		return false, nil
	}
	cut, ok := cutDeep(data)
	if !ok {
		return false, err
	}
	return true, json.Unmarshal(cut, v)
}

// errFeedClosed is returned by Feed after Close.
var errFeedClosed = errors.New("exec: Feed called after Close")

// usable is the error Feed returns before reading an event: the reason
// the stream is incomplete, or errFeedClosed.
func (s *streamCalls) usable() error {
	if s.closed {
		return errFeedClosed
	}
	return s.err
}

// fail records why the stream is incomplete (the first reason wins). For
// a stream that has shown only another provider's events, the reason is
// that (see look).
func (s *streamCalls) fail(err error) error {
	if s.err == nil {
		s.err = err
		if !s.own && s.other != nil {
			s.err = s.other
		}
	}
	return s.err
}

// look notes, until the first event of the stream's own provider, the
// first event of another provider's stream: a stream in another shape
// never finishes as this provider's does, and fail then says which it is.
// After an own event it costs nothing.
func (s *streamCalls) look(data []byte) {
	if s.own || s.other != nil {
		return
	}
	p, clue, ok := streamClue(data)
	switch {
	case !ok:
	case p == s.shape:
		s.own = true
	default:
		n := shapes[p]
		s.other = fmt.Errorf("%w: %s stream: it looks like %s (it has %s); read it with %s",
			ErrStreamIncomplete, shapes[s.shape].what, n.stream, clue, n.streamMethods)
	}
}

// finish waits for the started calls and answers the others; name(i)
// and id(i) are the call's as far as the stream got. The error is the
// stream's (wrapping ErrStreamIncomplete) or, failing that, ctx's if a
// call was cut short by it.
func (s *streamCalls) finish(ids func(i int) (id, name string)) ([]Result, error) {
	s.wg.Wait()
	s.closed = true
	for i := range s.res {
		if !s.run[i] && s.cut == "" {
			s.fail(fmt.Errorf("%w: the stream ended before the arguments of every call were complete", ErrStreamIncomplete))
		}
	}
	out := make([]Result, len(s.res))
	for i, r := range s.res {
		id, name := ids(i)
		switch {
		case s.run[i] && s.contra[i] != "":
			out[i] = contradicted(*r, s.contra[i])
		case s.run[i]:
			out[i] = *r
		case s.cut != "" && s.err == nil:
			out[i] = s.e.Run(s.ctx, Call{ID: id, Name: name, cut: s.cut})
		default:
			out[i] = s.e.cutOff(s.ctx, Call{ID: id, Name: name}, s.err)
		}
	}
	if s.err != nil {
		return out, s.err
	}
	return out, s.e.batchErr(s.ctx, out)
}

// cutOff is the result of a call whose arguments the stream never
// completed.
func (e *Executor) cutOff(ctx context.Context, call Call, why error) Result {
	r := Result{ID: call.ID, Name: call.Name}
	r.Output = validUTF8(fmt.Sprintf("tool %q was not run: the stream ended before its arguments were complete", call.Name))
	r.IsError = true
	if why == nil {
		why = ErrStreamIncomplete
	}
	r.Err = fmt.Errorf("tool %q: %w", call.Name, why)
	e.log(ctx, nil, &r)
	return r
}
