package exec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

// This file recognises a reply meant for another provider's method (an
// Anthropic message passed to OpenAIChatJSON, ...), which would otherwise
// parse as a reply with no tool calls and give an empty answer. It runs
// only when a Parse function found no call to run, or failed on valid
// JSON, so it costs the replies with calls nothing.

// replyShape is one of the four providers' reply shapes, as an index.
type replyShape int

const (
	chatShape replyShape = iota
	responsesShape
	anthropicShape
	geminiShape
)

// shapeNames are each provider's reply name and the methods that read it.
var shapeNames = [...]struct{ reply, methods string }{
	chatShape:      {"an OpenAI Chat Completions reply", "OpenAIChatJSON or ParseOpenAIChat"},
	responsesShape: {"an OpenAI Responses reply", "ResponsesJSON or ParseResponses"},
	anthropicShape: {"an Anthropic Messages reply", "AnthropicJSON or ParseAnthropic"},
	geminiShape:    {"a Gemini generateContent reply", "GeminiJSON or ParseGemini"},
}

// otherProvider returns, when raw is recognisably another provider's
// reply than own's, an error saying which and naming the method to use;
// otherwise err. The message names own as streamNames does. A reply
// that failed to parse (err not nil) is looked at only if it is valid
// JSON: a syntax error is the better message.
func otherProvider(raw []byte, own replyShape, err error) error {
	if err != nil && !json.Valid(raw) {
		return err
	}
	c := clues(raw, own)
	for _, strong := range [...]bool{true, false} {
		for p, clue := range c.clue {
			if clue != "" && c.strong[p] == strong {
				n := shapeNames[p]
				return fmt.Errorf("exec: %s reply: it looks like %s (it has %s); read it with %s", streamNames[own].what, n.reply, clue, n.methods)
			}
		}
	}
	return err
}

// streamNames are each provider's stream name, the name its streaming
// methods use in errors, and the methods that read it.
var streamNames = [...]struct{ what, stream, methods string }{
	chatShape:      {"OpenAI", "an OpenAI Chat Completions stream", "OpenAIChatStream or NewOpenAIChatFeed"},
	responsesShape: {"Responses", "an OpenAI Responses stream", "ResponsesStream or NewResponsesFeed"},
	anthropicShape: {"Anthropic", "an Anthropic Messages stream", "AnthropicStream or NewAnthropicFeed"},
	geminiShape:    {"Gemini", "a Gemini streamGenerateContent stream", "GeminiStream or NewGeminiFeed"},
}

// streamClue returns the provider whose stream the event data is
// recognisably from, and the sign: [DONE], "object":"chat.completion.chunk"
// or "choices" (Chat), a "type" starting with "response." (Responses), a
// "type" that is a Messages stream event (Anthropic), "candidates"
// (Gemini). Events that any provider may send (an error, a ping) and data
// that is not a JSON object give ok false.
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
		switch string(key) {
		case "choices":
			p, clue, ok = chatShape, `"choices"`, true
		case "candidates":
			p, clue, ok = geminiShape, `"candidates"`, true
		case "object":
			if v := w.strValue(); string(v) == "chat.completion.chunk" {
				p, clue, ok = chatShape, `"object":"chat.completion.chunk"`, true
			}
			return !ok
		case "type":
			v := w.strValue()
			switch t := string(v); {
			case strings.HasPrefix(t, "response."):
				p, clue, ok = responsesShape, `"type":"`+t+`"`, true
			case t == "message_start", t == "message_delta", t == "message_stop",
				t == "content_block_start", t == "content_block_delta", t == "content_block_stop":
				p, clue, ok = anthropicShape, `"type":"`+t+`"`, true
			}
			return !ok
		}
		return !ok && w.skipAny()
	})
	return p, clue, ok
}

// replyClues are the signs of each provider found in a reply.
type replyClues struct {
	clue   [4]string // the first strong (else weak) sign of each provider, or ""
	strong [4]bool   // whether clue[p] is strong
}

// add records a sign of p.
func (c *replyClues) add(p replyShape, clue string, strong bool) {
	if c.clue[p] == "" || strong && !c.strong[p] {
		c.clue[p], c.strong[p] = clue, strong
	}
}

// clues looks for the keys and values that only one provider's replies
// have, at the top level of raw, in the elements of a bare array and in
// the blocks of a top-level "content" array; it stops at a sign of own.
// raw is valid JSON. Found a sign of own, it returns no signs at all.
func clues(raw []byte, own replyShape) (c replyClues) {
	w := walker{d: raw}
	switch w.peek() {
	case '{':
		w.members(func(key []byte) bool {
			switch string(key) {
			case "choices":
				c.add(chatShape, `"choices"`, true)
			case "tool_calls":
				c.add(chatShape, `"tool_calls"`, true)
			case "refusal":
				c.add(chatShape, `"refusal"`, false)
			case "output":
				c.add(responsesShape, `"output"`, true)
			case "candidates":
				c.add(geminiShape, `"candidates"`, true)
			case "parts":
				c.add(geminiShape, `"parts"`, true)
			case "object":
				switch string(w.strValue()) {
				case "chat.completion":
					c.add(chatShape, `"object":"chat.completion"`, true)
				case "response":
					c.add(responsesShape, `"object":"response"`, true)
				}
				return !c.found(own)
			case "type":
				if string(w.strValue()) == "message" {
					c.add(anthropicShape, `"type":"message"`, true)
				}
				return !c.found(own)
			case "content":
				if w.peek() == '[' {
					w.elements(func() bool { c.item(&w, `a "tool_use" content block`); return !c.found(own) })
					return !c.found(own)
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

// item looks for signs in one element of an array (consumed): a Chat
// tool call ("function"), a Gemini part ("functionCall"), or the "type" of
// an Anthropic block or Responses item; toolUse is the clue for a
// "tool_use" type there.
func (c *replyClues) item(w *walker, toolUse string) {
	if w.peek() != '{' {
		w.skipAny()
		return
	}
	w.members(func(key []byte) bool {
		switch string(key) {
		case "function":
			c.add(chatShape, `a tool call with "function"`, true)
		case "functionCall":
			c.add(geminiShape, `a "functionCall" part`, true)
		case "type":
			switch string(w.strValue()) {
			case "tool_use":
				c.add(anthropicShape, toolUse, true)
			case "function_call":
				c.add(responsesShape, `a "function_call" item`, true)
			case "custom_tool_call":
				c.add(responsesShape, `a "custom_tool_call" item`, true)
			case "reasoning":
				c.add(responsesShape, `a "reasoning" item`, true)
			case "message":
				c.add(responsesShape, `a "message" item`, true)
			case "function":
				c.add(chatShape, `a tool call of type "function"`, true)
			}
			return true
		}
		return w.skipAny()
	})
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
