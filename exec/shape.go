package exec

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

// This file recognises a reply meant for another provider's method (an
// Anthropic message passed to OpenAIChatJSON, ...), which would otherwise
// parse as a reply with no tool calls and give an empty answer. It runs
// only when a Parse function found no call to run, or failed on valid
// JSON, so it costs the replies with calls nothing.

// replyShape is one of the four providers' reply shapes, as an index
// into shapes.
type replyShape int

const (
	chatShape replyShape = iota
	responsesShape
	anthropicShape
	geminiShape
)

// shapes are the providers' names and signs, by replyShape; each is
// declared in its provider's file.
var shapes = [...]*shapeInfo{chatShape: &chatInfo, responsesShape: &responsesInfo,
	anthropicShape: &anthropicInfo, geminiShape: &geminiInfo}

// shapeInfo names one provider's replies and streams and lists the signs
// that only its replies and stream events have.
type shapeInfo struct {
	what          string // its name in error messages: "OpenAI", ...
	reply         string // "an OpenAI Chat Completions reply", ...
	methods       string // the methods that read a reply
	stream        string // "an OpenAI Chat Completions stream", ...
	streamMethods string // the methods that read a stream

	keys      map[string]bool   // top-level keys of a reply; true: a strong sign
	objects   []string          // top-level "object" values of a reply
	types     []string          // top-level "type" values of a reply
	itemKeys  map[string]string // keys of a call array's element, with their clue
	itemTypes map[string]string // "type" values of an element, with their clue ("": the array's word)

	eventKeys    []string          // keys of a stream event
	eventObjects []string          // "object" values of a stream event
	eventType    func(string) bool // whether a stream event's "type" is the provider's
}

// otherProvider returns, when raw is recognisably another provider's
// reply than own's, an error saying which and naming the method to use;
// otherwise err. A reply that failed to parse (err not nil) is looked at
// only if it is valid JSON: a syntax error is the better message.
func otherProvider(raw []byte, own replyShape, err error) error {
	if err != nil && !json.Valid(raw) {
		return err
	}
	c := clues(raw, own)
	for _, strong := range [...]bool{true, false} {
		for p, clue := range c.clue {
			if clue != "" && c.strong[p] == strong {
				n := shapes[p]
				return fmt.Errorf("exec: %s reply: it looks like %s (it has %s); read it with %s", shapes[own].what, n.reply, clue, n.methods)
			}
		}
	}
	return err
}

// streamClue returns the provider whose stream the event data is
// recognisably from, and the sign: [DONE] (Chat), or a key, "object" or
// "type" value of shapeInfo's event signs. Events that any provider may
// send (an error, a ping) and data that is not a JSON object give ok
// false.
func streamClue(data []byte) (p replyShape, clue string, ok bool) {
	data = bytes.TrimSpace(data)
	if string(data) == "[DONE]" {
		return chatShape, "data: [DONE]", true
	}
	w := walker{d: data}
	if w.peek() != '{' {
		return 0, "", false
	}
	w.members(func(key []byte) bool {
		k := string(key)
		if k == "object" || k == "type" {
			v := string(w.strValue())
			for i, s := range shapes {
				if k == "object" && slices.Contains(s.eventObjects, v) || k == "type" && s.eventType != nil && s.eventType(v) {
					p, clue, ok = replyShape(i), `"`+k+`":"`+v+`"`, true
					break
				}
			}
			return !ok
		}
		for i, s := range shapes {
			if slices.Contains(s.eventKeys, k) {
				p, clue, ok = replyShape(i), `"`+k+`"`, true
			}
		}
		return !ok && w.skipAny()
	})
	return p, clue, ok
}

// replyClues are the signs of each provider found in a reply.
type replyClues struct {
	clue   [len(shapes)]string // the first strong (else weak) sign of each provider, or ""
	strong [len(shapes)]bool   // whether clue[p] is strong
}

// add records a sign of p.
func (c *replyClues) add(p replyShape, clue string, strong bool) {
	if c.clue[p] == "" || strong && !c.strong[p] {
		c.clue[p], c.strong[p] = clue, strong
	}
}

// clues looks for the signs of shapeInfo at the top level of raw, in the
// elements of a bare array and in the blocks of a top-level "content"
// array; it stops at a sign of own. raw is valid JSON. Found a sign of
// own, it returns no signs at all.
func clues(raw []byte, own replyShape) (c replyClues) {
	w := walker{d: raw}
	switch w.peek() {
	case '{':
		w.members(func(key []byte) bool {
			switch k := string(key); k {
			case "object", "type":
				v := string(w.strValue())
				for p, s := range shapes {
					if k == "object" && slices.Contains(s.objects, v) || k == "type" && slices.Contains(s.types, v) {
						c.add(replyShape(p), `"`+k+`":"`+v+`"`, true)
					}
				}
				return !c.found(own)
			case "content":
				if w.peek() == '[' {
					w.elements(func() bool { c.item(&w, `a "tool_use" content block`); return !c.found(own) })
					return !c.found(own)
				}
			default:
				for p, s := range shapes {
					if strong, ok := s.keys[k]; ok {
						c.add(replyShape(p), `"`+k+`"`, strong)
					}
				}
			}
			return !c.found(own) && w.skipAny()
		})
	case '[':
		w.elements(func() bool { c.item(&w, `a "tool_use" item`); return !c.found(own) })
	}
	if c.found(own) {
		return replyClues{}
	}
	return c
}

// found reports whether a sign of p was found.
func (c *replyClues) found(p replyShape) bool { return c.clue[p] != "" }

// item looks for the item signs of shapeInfo in one element of an array
// (consumed); word is the clue of an item type whose clue is "".
func (c *replyClues) item(w *walker, word string) {
	if w.peek() != '{' {
		w.skipAny()
		return
	}
	w.members(func(key []byte) bool {
		k := string(key)
		if k == "type" {
			v := string(w.strValue())
			for p, s := range shapes {
				if clue, ok := s.itemTypes[v]; ok {
					c.add(replyShape(p), cmp.Or(clue, word), true)
				}
			}
			return true
		}
		for p, s := range shapes {
			if clue, ok := s.itemKeys[k]; ok {
				c.add(replyShape(p), clue, true)
			}
		}
		return w.skipAny()
	})
}

// walker reads valid JSON in d from offset i, token by token, standing
// on package jsonlex.
type walker struct {
	d []byte
	i int
}

// peek returns the next non-space byte, or 0 at the end.
func (w *walker) peek() byte {
	w.i = jsonlex.WS(w.d, w.i)
	if w.i >= len(w.d) {
		return 0
	}
	return w.d[w.i]
}

// quoted consumes the string that comes next and returns its content
// (escapes left as they are); false when no well-formed string comes.
func (w *walker) quoted() ([]byte, bool) {
	if w.peek() != '"' {
		return nil, false
	}
	end, _, err := jsonlex.Str(w.d, w.i)
	if err != jsonlex.None {
		return nil, false
	}
	b := w.d[w.i+1 : end-1]
	w.i = end
	return b, true
}

// strValue consumes a value and returns its content if it is a string
// (escapes left as they are), else nil.
func (w *walker) strValue() []byte {
	if b, ok := w.quoted(); ok {
		return b
	}
	w.skipAny()
	return nil
}

// members walks the object that comes next, with any keys; fn gets each
// key (escapes left as they are) and must consume its value. It stops
// when fn returns false or consumes nothing.
func (w *walker) members(fn func(key []byte) bool) {
	w.i++ // '{'
	for w.peek() != '}' {
		k, ok := w.quoted()
		if !ok || w.peek() != ':' {
			return
		}
		w.i++
		if at := w.i; !fn(k) || w.i == at {
			return
		}
		if w.peek() == ',' {
			w.i++
		}
	}
	w.i++
}

// elements walks the array that comes next; fn must consume each element.
// It stops when fn returns false or consumes nothing.
func (w *walker) elements(fn func() bool) {
	w.i++ // '['
	for w.peek() != ']' && w.i < len(w.d) {
		if at := w.i; !fn() || w.i == at {
			return
		}
		if w.peek() == ',' {
			w.i++
		}
	}
	w.i++
}

// skipAny skips one value without recursion. It returns false at the
// end of the input or at a token that is not JSON.
func (w *walker) skipAny() bool {
	depth := 0
	for {
		switch c := w.peek(); {
		case c == '"':
			if _, ok := w.quoted(); !ok {
				return false
			}
		case c == '{' || c == '[':
			depth++
			w.i++
			continue
		case c == '}' || c == ']':
			depth--
			w.i++
		case c == ',' || c == ':':
			w.i++
			continue
		case c == '-' || c >= '0' && c <= '9':
			end, _, err := jsonlex.Num(w.d, w.i)
			if err != jsonlex.None {
				return false
			}
			w.i = end
		case c == 't' || c == 'f' || c == 'n':
			end, err := jsonlex.Lit(w.d, w.i)
			if err != jsonlex.None {
				return false
			}
			w.i = end
		default:
			return false
		}
		if depth <= 0 {
			return true
		}
	}
}
