package exec

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzFastParse checks the fast reply scanner against encoding/json: when
// the fast path accepts an input, encoding/json must accept it too and
// give exactly the same values (nil and empty slices told apart).
func FuzzFastParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "replies", "*", "*.json"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkFast(t, raw)
	})
}

var fastSeeds = []string{
	`[]`, `{}`, `null`, ` [ ] `, `{"tool_calls":null}`, `{"choices":[]}`, `{"choices":null,"tool_calls":[]}`,
	`{"ID":"x"}`, `[{"Id":"x"}]`, `[{"id":"a","id":"b"}]`, `[{"id":"\ud83d\ude00\ud800x\u00e9\/"}]`,
	`[{"function":{"arguments":"{\"a\":[1,2.5e-3,-0,true,false,null,{}]}"}}]`,
	`{"output":[{"type":"function_call","call_id":"c","arguments":"{}"}]}`,
	`{"content":[{"type":"tool_use","id":"t","input":{"a":[1,{"b":null}]}},{"type":"tool_use","input":null}]}`,
	`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"n","args":{}},"thought":true,"thoughtSignature":"YQ=="}]}}]}`,
	`[{"functionCall":null},{"functionResponse":null},{"functionResponse":{"name":"x","response":{}}}]`,
	`{"role":"assistant","content":[{"type":"text","text":"hi"}],"tool_calls":[{"id":"c","function":{"name":"n","arguments":""}}]}`,
	"[{\"id\":\"\xff\"}]", `[{"id":"a"}] x`, `[{"id":1}]`, `[01]`, `[1.]`, `[{"a":"\u00"}]`, `{"a":-}`,
}

func checkFast(t *testing.T, raw []byte) {
	t.Helper()
	if got, ok := fastChat(raw); ok {
		want, err := slowOpenAIChat(raw)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("chat %q:\nfast %#v\njson %#v (err %v)", raw, got, want, err)
		}
	}
	if got, ok := fastResponses(raw); ok {
		want, err := slowResponses(raw)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("responses %q:\nfast %#v\njson %#v (err %v)", raw, got, want, err)
		}
	}
	if got, ok := fastAnthropic(raw); ok {
		want, err := slowAnthropic(raw)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("anthropic %q:\nfast %#v\njson %#v (err %v)", raw, got, want, err)
		}
	}
	if got, ok := fastGemini(raw); ok {
		want, err := slowGemini(raw)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("gemini %q:\nfast %#v\njson %#v (err %v)", raw, got, want, err)
		}
	}
}

// TestFastPathTaken: the recorded replies all go through the fast path
// (so the benchmark measures it), and the inputs it must refuse are
// refused.
func TestFastPathTaken(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "replies", "*", "*.json"))
	for _, file := range files {
		raw, _ := os.ReadFile(file)
		var ok bool
		switch filepath.Base(filepath.Dir(file)) {
		case "openai_chat":
			_, ok = fastChat(raw)
		case "openai_responses":
			_, ok = fastResponses(raw)
		case "anthropic":
			_, ok = fastAnthropic(raw)
		case "gemini":
			_, ok = fastGemini(raw)
		}
		if !ok {
			t.Errorf("%s: fast path gave up", file)
		}
	}
	for _, s := range []string{`[{"ID":"x"}]`, `[{"id":"a","id":"b"}]`, "[{\"id\":\"\xff\"}]", `[{"id":1}]`, `[{"id":"a"}] x`, `[null]`} {
		if _, ok := fastChat([]byte(s)); ok {
			t.Errorf("fast path accepted %q; encoding/json decides that one", s)
		}
	}
	for _, s := range fastSeeds {
		checkFast(t, []byte(s))
	}
}
