package exec_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/exec"
)

// replyErrors passes raw to the four *JSON methods and returns their
// errors: Chat, Responses, Anthropic, Gemini.
func replyErrors(e *exec.Executor, raw []byte) [4]error {
	ctx := context.Background()
	_, err1 := e.OpenAIChatJSON(ctx, raw)
	_, err2 := e.ResponsesJSON(ctx, raw)
	_, err3 := e.AnthropicJSON(ctx, raw)
	_, err4 := e.GeminiJSON(ctx, raw)
	return [4]error{err1, err2, err3, err4}
}

// replyPrefixes start the error of each *JSON method, in replyErrors order.
var replyPrefixes = [4]string{"exec: OpenAI reply: ", "exec: Responses reply: ", "exec: Anthropic reply: ", "exec: Gemini reply: "}

// TestMalformedRepliesDescribed: a reply that is not a JSON object or
// array is described truly: a JSON value by its type only when the whole
// reply is that one valid value; anything else as not valid JSON, at the
// offset (0-based, in bytes) of the first byte that cannot be JSON, with
// a quoted head of the reply of at most 40 bytes, cut between characters.
func TestMalformedRepliesDescribed(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	for _, tc := range []struct{ raw, want string }{
		{` `, `want a JSON object or array, got no data`},
		{`true`, `want a JSON object or array, got a boolean`},
		{" null\n", `want a JSON object or array, got null`},
		{`-1.5e3`, `want a JSON object or array, got a number`},
		{`"a \"quoted\" string"`, `want a JSON object or array, got a string`},
		{`not json`, `not valid JSON at offset 1: invalid character 'o' in literal null; the reply is "not json"`},
		{`timeout`, `not valid JSON at offset 1: invalid character 'i' in literal true; the reply is "timeout"`},
		{`fail: 502`, `not valid JSON at offset 2: invalid character 'i' in literal false; the reply is "fail: 502"`},
		{`nul`, `not valid JSON at offset 3: the reply ends inside literal null; the reply is "nul"`},
		{`"unterminated`, `not valid JSON at offset 13: the reply ends inside a string; the reply is "\"unterminated"`},
		{`"tab	in string"`, `not valid JSON at offset 4: invalid character '\t' in a string; the reply is "\"tab\tin string\""`},
		{`"bad \q escape"`, `not valid JSON at offset 6: invalid character 'q' in a string escape; the reply is "\"bad \\q escape\""`},
		{`-`, `not valid JSON at offset 1: the reply ends inside a number; the reply is "-"`},
		{`1.x`, `not valid JSON at offset 2: invalid character 'x' in a number; the reply is "1.x"`},
		{`12a`, `not valid JSON at offset 2: invalid character 'a' after the value; the reply is "12a"`},
		{`"ok" "again"`, `not valid JSON at offset 5: invalid character '"' after the value; the reply is "\"ok\" \"again\""`},
		{`true false`, `not valid JSON at offset 5: invalid character 'f' after the value; the reply is "true false"`},
		{"\n<html><body>502 Bad Gateway</body></html>", `not valid JSON at offset 1: invalid character '<' at the start of a value; the reply begins "\n<html><body>502 Bad Gateway</body></htm"…`},
		{strings.Repeat("é", 30), `not valid JSON at offset 0: invalid character 'é' at the start of a value; the reply begins "` + strings.Repeat("é", 20) + `"…`},
		{"\xff\xfe", `not valid JSON at offset 0: invalid byte 0xff at the start of a value; the reply is "\xff\xfe"`},
		{"\"ok\"\x00", `not valid JSON at offset 4: invalid character '\x00' after the value; the reply is "\"ok\"\x00"`},
	} {
		for i, err := range replyErrors(e, []byte(tc.raw)) {
			want := replyPrefixes[i] + tc.want
			if err == nil || err.Error() != want {
				t.Errorf("%q: err = %v\nwant        %s", tc.raw, err, want)
			} else if !utf8.ValidString(err.Error()) {
				t.Errorf("%q: error is not valid UTF-8: %q", tc.raw, err)
			}
		}
	}
}

// FuzzNotObjectReply: for any reply whose first byte after whitespace is
// not '{' or '[', every Parse function fails, and says "not valid JSON"
// exactly when encoding/json finds the reply invalid, at an offset within
// it; the message is valid UTF-8 and short.
func FuzzNotObjectReply(f *testing.F) {
	for _, s := range []string{``, `not json`, `timeout`, `"x`, `"\u12`, `"\ud800"`, `0`, `01`, `-0.e1`, `1E+`, `tru`, `nulll`, "\"\xff\"", ` "a" `, `"a"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if s := strings.TrimLeft(string(raw), " \t\r\n"); s == "" || s[0] == '{' || s[0] == '[' {
			return
		}
		_, err := exec.ParseOpenAIChat(raw)
		if err == nil {
			t.Fatalf("%q: no error", raw)
		}
		msg := err.Error()
		invalid := strings.HasPrefix(msg, "exec: OpenAI reply: not valid JSON at offset ")
		if invalid == json.Valid(raw) {
			t.Fatalf("%q: json.Valid %v, error %q", raw, json.Valid(raw), msg)
		}
		if !utf8.ValidString(msg) || len(msg) > 300 {
			t.Fatalf("%q: message %q", raw, msg)
		}
	})
}
