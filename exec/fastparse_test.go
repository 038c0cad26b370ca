package exec

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
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
	`{"output":[{"type":"custom_tool_call","call_id":"c","namespace":"n","name":"x","input":"a\nb"},{"input":5,"namespace":null}]}`,
	`[{"id":"c","type":"custom","custom":{"name":"x","input":"t"}},{"type":"custom","custom":null},{"custom":{"input":1}}]`,
	`{"output":[{"type":"tool_search_call","call_id":"c","execution":"client","arguments":{"query":"a"}},{"type":"tool_search_call","execution":5,"arguments":"{}"}]}`,
	`{"content":[{"type":"tool_use","id":"t","input":{"a":[1,{"b":null}]}},{"type":"tool_use","input":null}]}`,
	`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"n","args":{}},"thought":true,"thoughtSignature":"YQ=="}]}}]}`,
	`[{"functionCall":null},{"functionResponse":null},{"functionResponse":{"name":"x","response":{}}}]`,
	`{"role":"assistant","content":[{"type":"text","text":"hi"}],"tool_calls":[{"id":"c","function":{"name":"n","arguments":""}}]}`,
	"[{\"id\":\"\xff\"}]", `[{"id":"a"}] x`, `[{"id":1}]`, `[01]`, `[1.]`, `[{"a":"\u00"}]`, `{"a":-}`,
	// Wrongly typed fields: one call's problem (see lenient.go), never the
	// whole reply's; object arguments are taken by the fast path too.
	`[{"id":"c","function":{"name":"n","arguments":{"a":[1,{"b":null}]}}}]`, `[{"id":"c","function":{"arguments": {} }}]`,
	`[{"function":{"arguments":5}}]`, `[{"function":"x"}]`, `[5,null,"x",[]]`, `[{"id":{"a":1},"type":true}]`,
	`[{"function":{"name":1,"arguments":{"a":1}}}]`, `[{"function":{"arguments":{"a":1},"arguments":"{}"}}]`,
	`[{"type":"function_call","call_id":"c","arguments":{"x":"y"}}]`, `[{"type":"function_call","call_id":4,"arguments":[1]}]`,
	`[{"type":7},"function_call",null]`, `[{"type":"tool_use","id":5,"name":{"n":1}},{"type":"text","text":1},[1]]`,
	`[{"functionCall":{"id":5,"name":[1]}},{"functionCall":"x"},{"functionCall":{"name":"n"},"thought":"yes"},7]`,
	`[{"text":1,"functionResponse":5,"thoughtSignature":false}]`, `[{"functionCall":{"name":"n"},"functionResponse":{"name":1}}]`,
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
// (so the benchmark measures it), except slow_* ones (wrongly typed
// fields, which encoding/json and the UnmarshalJSON methods decide), and
// the inputs it must refuse are refused.
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
		if slow := strings.HasPrefix(filepath.Base(file), "slow_"); ok == slow {
			t.Errorf("%s: fast path taken: %v", file, ok)
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
