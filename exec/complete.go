package exec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// This file says when a call's arguments are complete, as the readers of
// streamed and whole replies decide it, and what a call cut at the
// model's output limit is answered with.

// ErrTruncated is wrapped by the Result.Err of a call that did not run
// because the reply was cut at the model's output-token limit before the
// call's arguments were complete: OpenAI Chat finish_reason "length",
// Responses status "incomplete" for "max_output_tokens", Anthropic
// stop_reason "max_tokens" (or "model_context_window_exceeded"), Gemini
// finishReason "MAX_TOKENS". Its Output tells the model so, e.g. `tool
// "search" was not run: the reply was cut at the output-token limit
// (finish_reason "length") before this call was complete; call it again
// with shorter arguments, or split the work into smaller calls`. Which
// calls of a cut reply run is said in "Truncated replies" in the package
// doc. A cut reply is a finished reply: the methods return no error for
// it.
var ErrTruncated = errors.New("exec: reply truncated at the output-token limit")

// truncatedResult is the answer to a call cut at the output limit; why
// names the provider's marker (`finish_reason "length"`).
func truncatedResult(call Call) Result {
	r := Result{ID: call.ID, Name: call.Name}
	r.Output = validUTF8(fmt.Sprintf("tool %q was not run: the reply was cut at the output-token limit (%s) before this call was complete; "+
		"call it again with shorter arguments, or split the work into smaller calls", call.Name, call.cut))
	r.IsError = true
	r.Err = fmt.Errorf("tool %q: %w (%s)", call.Name, ErrTruncated, call.cut)
	return r
}

// The providers' markers of a reply cut at the output limit, as the
// answers name them.
const (
	cutChat      = `finish_reason "length"`
	cutResponses = `status "incomplete", reason "max_output_tokens"`
	cutAnthropic = `stop_reason "max_tokens"`
	cutGemini    = `finishReason "MAX_TOKENS"`
)

// anthropicCut is the marker for an Anthropic stop_reason (raw JSON), or
// "" when the reply was not cut at a limit.
func anthropicCut(stopReason json.RawMessage) string {
	switch string(stopReason) {
	case `"max_tokens"`:
		return cutAnthropic
	case `"model_context_window_exceeded"`:
		return `stop_reason "model_context_window_exceeded"`
	}
	return ""
}

// argScan follows a call's arguments text as it arrives and finds the
// byte that completes one JSON object: the '}' closing the first '{'.
// Each byte is read once (strings and escapes are followed, so braces in
// strings do not count); the JSON is not otherwise checked (the registry
// checks it before the tool runs). Text that does not begin with '{' is
// never complete here: such a call starts when the reply ends.
type argScan struct {
	state scanState
	depth int
}

type scanState uint8

const (
	scanStart  scanState = iota // before the first byte that is not white space
	scanIn                      // inside the object
	scanString                  // inside a string in it
	scanEscape                  // after a backslash in a string
	scanDone                    // the object is complete
	scanOther                   // the text is not an object
)

// feed reads b and returns the offset in b just past the byte that
// completed the object, or -1 when b did not complete it (or it was
// complete before b).
func (a *argScan) feed(b []byte) int {
	for i, c := range b {
		if a.state == scanDone || a.state == scanOther {
			return -1
		}
		if a.step(c) {
			return i + 1
		}
	}
	return -1
}

// step reads one byte; it reports whether that byte completed the
// object.
func (a *argScan) step(c byte) bool {
	switch a.state {
	case scanStart:
		switch c {
		case ' ', '\t', '\n', '\r':
		case '{':
			a.state, a.depth = scanIn, 1
		default:
			a.state = scanOther
		}
	case scanIn:
		switch c {
		case '"':
			a.state = scanString
		case '{', '[':
			a.depth++
		case '}', ']':
			if a.depth--; a.depth == 0 {
				a.state = scanDone
				return true
			}
		}
	case scanString:
		switch c {
		case '\\':
			a.state = scanEscape
		case '"':
			a.state = scanIn
		}
	case scanEscape:
		a.state = scanString
	}
	return false
}

func (a *argScan) complete() bool { return a.state == scanDone }

// completeObject reports whether text is one complete JSON object as
// argScan finds it, with nothing but white space after it.
func completeObject(text string) bool {
	var a argScan
	end := a.feed([]byte(text))
	return end >= 0 && len(bytes.TrimSpace([]byte(text[end:]))) == 0
}

// streamArgs is one streamed call's arguments: the text until the object
// is complete, then what the stream sends for the call after that, which
// must say the same (a producer that sends the whole arguments again at
// the end) or the call's result says the stream contradicted itself.
type streamArgs struct {
	text          []byte
	scan          argScan
	ran           string // the arguments the call started with
	extra         []byte // sent after the call started, since the last repeat
	again         argScan
	contradiction string
}

// add appends frag to the arguments; it reports whether they became
// complete with it. Bytes after the completing one are extra.
func (a *streamArgs) add(frag string) bool {
	if a.scan.complete() || a.ran != "" {
		a.more(frag)
		return false
	}
	end := a.scan.feed([]byte(frag))
	if end < 0 {
		a.text = append(a.text, frag...)
		return false
	}
	a.text = append(a.text, frag[:end]...)
	a.more(frag[end:])
	return true
}

// started records the arguments the call started with.
func (a *streamArgs) started(args string) {
	a.ran, a.text = args, nil
	if a.ran == "" {
		a.ran = "{}"
	}
}

// more takes text sent after the arguments were complete: white space,
// or a repeat of them (compared as JSON values when it is complete).
func (a *streamArgs) more(frag string) {
	if a.contradiction != "" {
		return
	}
	if len(a.extra) == 0 {
		frag = string(bytes.TrimLeft([]byte(frag), " \t\r\n"))
	}
	if frag == "" {
		return
	}
	a.extra = append(a.extra, frag...)
	if end := a.again.feed([]byte(frag)); end >= 0 {
		a.repeat(string(a.extra[:len(a.extra)-len(frag)+end]))
		rest := frag[end:]
		a.extra, a.again = nil, argScan{}
		a.more(rest)
	} else if a.again.state == scanOther {
		a.contradiction = fmt.Sprintf("then sent %q after them", a.extra)
	}
}

// repeat compares whole arguments sent again with those the call
// started with (or, before it started, those it will start with).
func (a *streamArgs) repeat(again string) {
	if strings.TrimSpace(again) == "" {
		return // no arguments said: nothing contradicts
	}
	ran := a.ran
	if ran == "" {
		ran = string(a.text)
	}
	if !sameJSON(ran, again) {
		a.contradiction = fmt.Sprintf("then sent the arguments %s for the same call", again)
	}
}

// end is called when the reply is complete: extra text that never
// became whole arguments contradicts the call.
func (a *streamArgs) end() string {
	if a.contradiction == "" && len(a.extra) > 0 {
		a.contradiction = fmt.Sprintf("then sent %q after them", a.extra)
	}
	return a.contradiction
}

// sameJSON reports whether a and b are the same JSON value (object keys
// in any order, numbers by their text).
func sameJSON(a, b string) bool {
	if a == b {
		return true
	}
	va, ok := decodeAny(a)
	if !ok {
		return false
	}
	vb, ok := decodeAny(b)
	return ok && reflect.DeepEqual(va, vb)
}

// decodeAny decodes s, one JSON value with nothing but white space
// after it.
func decodeAny(s string) (any, bool) {
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

// contradicted is the answer of a call that ran while the stream went on
// to say otherwise about it: the run's own result, marked failed, after
// what the stream did.
func contradicted(r Result, what string) Result {
	r.Output = validUTF8(fmt.Sprintf("the stream contradicted itself: tool %q ran with the arguments it had when they were complete, and the stream %s; "+
		"the result of that run: %s", r.Name, what, r.Output))
	r.IsError = true
	r.Err = fmt.Errorf("tool %q: %w: the stream contradicted itself: it %s", r.Name, ErrMalformedCall, what)
	r.Structured, r.Content = nil, nil
	return r
}

// lastCall is the index of the last element of items that is a call, or
// -1.
func lastCall[T any](items []T, isCall func(*T) bool) int {
	for i := len(items) - 1; i >= 0; i-- {
		if isCall(&items[i]) {
			return i
		}
	}
	return -1
}
