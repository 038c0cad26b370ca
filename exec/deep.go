package exec

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

// This file keeps one call's arguments nested deeper than encoding/json
// reads (10,000 levels) from failing the whole reply. encoding/json checks
// the whole input before decoding anything, so such a reply gives no
// calls at all. When a Parse* function fails, cutDeep scans the reply
// once more, without recursion: if it is valid JSON and only too deep,
// every too-deep value is replaced by deepMarker, the reply is read again,
// and each call whose fields hold the marker is a malformed call
// (ErrMalformedCall) naming the field; the other calls run as usual.

// MaxReplyDepth is the deepest nesting of JSON arrays and objects read in
// a reply: 10,000 levels, encoding/json's own limit. A call whose fields
// nest deeper (its arguments, usually) is answered with an error result
// wrapping [ErrMalformedCall], e.g. `the tool call could not be read:
// "input" is nested more than 10000 levels deep`; the other calls of the
// reply run. Arguments within the limit still go to the registry, which
// has its own, lower limit.
const MaxReplyDepth = 10000

// deepCutDepth is the depth of the values cutDeep replaces (when what
// they hold nests past MaxReplyDepth). It is below every limit and above
// the deepest field of any reply envelope (arguments in a whole chat
// completion are at depth 7), so the marker always lands inside a field's
// value, never in place of an envelope or a call.
const deepCutDepth = 32

// deepMarker replaces a too-deep value: a JSON string no provider sends,
// made unique to the process so that no input can hold it by chance.
var deepMarker = func() []byte {
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	return []byte(`"\u0000toolnexus: nested too deep ` + hex.EncodeToString(nonce[:]) + `"`)
}()

// cutDeep returns raw with each value at depth deepCutDepth that nests
// more than MaxReplyDepth levels replaced by deepMarker. ok is false when
// nothing was replaced or raw is not one valid JSON value.
func cutDeep(raw []byte) (out []byte, ok bool) {
	spans, valid := deepSpans(raw, deepCutDepth, MaxReplyDepth)
	if !valid || len(spans) == 0 {
		return nil, false
	}
	out = make([]byte, 0, len(raw))
	prev := 0
	for _, s := range spans {
		out = append(out, raw[prev:s[0]]...)
		out = append(out, deepMarker...)
		prev = s[1]
	}
	return append(out, raw[prev:]...), true
}

// deepSpans scans raw, which must be one JSON value with optional
// whitespace around it (valid reports whether it is), and returns the
// byte spans of the containers opened at depth cutAt whose contents nest
// more than limit levels (the root container is at depth 1). It keeps one
// byte per open container and never recurses, so any depth is safe.
func deepSpans(raw []byte, cutAt, limit int) (spans [][2]int, valid bool) {
	w := walker{d: raw}
	var stack []byte // the closing byte of each open container
	start, deep := -1, false
	// closed pops the container just closed at w.i.
	closed := func() {
		if len(stack) == cutAt && start >= 0 {
			if deep {
				spans = append(spans, [2]int{start, w.i})
			}
			start = -1
		}
		stack = stack[:len(stack)-1]
	}
	for {
		// A value is expected.
		switch c := w.peek(); {
		case c == '{' || c == '[':
			end := byte('}')
			if c == '[' {
				end = ']'
			}
			stack = append(stack, end)
			if len(stack) == cutAt {
				start, deep = w.i, false
			}
			if len(stack) > limit {
				deep = true
			}
			w.i++
			if w.peek() == end {
				w.i++
				closed()
				break
			}
			if c == '{' && !w.key() {
				return nil, false
			}
			continue
		case c == '"':
			if _, ok := w.quoted(); !ok {
				return nil, false
			}
		case c == 't' || c == 'f' || c == 'n':
			end, err := jsonlex.Lit(w.d, w.i)
			if err != jsonlex.None {
				return nil, false
			}
			w.i = end
		case c == '-' || c >= '0' && c <= '9':
			end, _, err := jsonlex.Num(w.d, w.i)
			if err != jsonlex.None {
				return nil, false
			}
			w.i = end
		default:
			return nil, false
		}
		// A value ended: close containers until a comma.
		for {
			if len(stack) == 0 {
				if jsonlex.WS(w.d, w.i) != len(w.d) {
					return nil, false
				}
				return spans, true
			}
			c := w.peek()
			if c == ',' {
				w.i++
				if stack[len(stack)-1] == '}' && !w.key() {
					return nil, false
				}
				break
			}
			if c != stack[len(stack)-1] {
				return nil, false
			}
			w.i++
			closed()
		}
	}
}

// key consumes an object key and its colon.
func (w *walker) key() bool {
	if _, ok := w.quoted(); !ok || w.peek() != ':' {
		return false
	}
	w.i++
	return true
}

// deepField is the problem of a field that held a too-deep value, or "".
func deepField(field string, value []byte) string {
	if !bytes.Contains(value, deepMarker) {
		return ""
	}
	return fmt.Sprintf("%q is nested more than %d levels deep", field, MaxReplyDepth)
}

// deepStr is deepField for a string field, which holds the JSON text of a
// value of another type (see the UnmarshalJSON methods): the marker in it becomes "…",
// so that what is echoed (an id, a name) is short and the same each run.
func deepStr(field string, value *string) string {
	if !strings.Contains(*value, string(deepMarker)) {
		return ""
	}
	*value = strings.ReplaceAll(*value, string(deepMarker), `"…"`)
	return deepField(field, deepMarker)
}
