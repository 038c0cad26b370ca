package argtype

import (
	"reflect"
	"strings"
	"testing"
)

// readTagsCases are tags whose reading is easy to get wrong: repeated
// keys, escapes, malformed entries and the scan stopping at them.
var readTagsCases = []string{
	``, `json:"a"`, `json:"a,omitempty" jsonschema:"description=x,minimum=1" validate:"required"`,
	`json:"a" json:"b"`, `json:"a\"b" validate:"x"`, `json:"\u00e9" jsonschema:"title=\t"`,
	`validate:"x" json`, `json: "a" validate:"x"`, `  json:"a"   jsonschema:"b"`, `json:"a`, `json:"bad\q" validate:"v" json:"c"`,
	`jsonschema_description:"d" jsonschema_extras:"minimum=3" jsonschema:"x"`, `x:"1" json:"a" y:"2"`,
	"json:\"a\nb\" validate:\"v\"", "json:\"\xff\" validate:\"v\"", `json:"" validate:""`, `a b json:"x"`,
}

func checkReadTags(t *testing.T, tag string) {
	st := reflect.StructTag(tag)
	got := readTags(st)
	j, hasJ := st.Lookup("json")
	want := structTags{json: j, hasJSON: hasJ, jsonschema: st.Get("jsonschema"), validate: st.Get("validate"),
		description: st.Get("jsonschema_description"), extras: st.Get("jsonschema_extras")}
	if got != want {
		t.Fatalf("readTags(%q) = %+v, Lookup gives %+v", tag, got, want)
	}
}

// TestReadTags: one scan of a tag reads each key as reflect.StructTag.Lookup does.
func TestReadTags(t *testing.T) {
	for _, tag := range readTagsCases {
		checkReadTags(t, tag)
	}
}

func FuzzReadTags(f *testing.F) {
	for _, tag := range readTagsCases {
		f.Add(tag)
	}
	f.Fuzz(checkReadTags)
}

// TestCutDive: cutDive cuts a validate tag at its first "dive" rule as
// splitting on commas and joining the parts before and after it would.
func TestCutDive(t *testing.T) {
	for _, tag := range []string{"", "dive", "dive,min=1", "max=3,dive", "max=3,dive,min=1", "max=3, dive ,min=1,dive,max=2",
		"diver", "x,divex,dive", ",dive,", "omitempty,max=10,dive,keys,min=1,endkeys,max=3", "a,,dive", "dive,"} {
		wantPre, wantPost, wantFound := tag, "", false
		rules := strings.Split(tag, ",")
		for i, r := range rules {
			if strings.TrimSpace(r) == "dive" {
				wantPre, wantPost, wantFound = strings.Join(rules[:i], ","), strings.Join(rules[i+1:], ","), true
				break
			}
		}
		pre, post, found := cutDive(tag)
		if pre != wantPre || post != wantPost || found != wantFound || hasDive(tag) != wantFound {
			t.Errorf("cutDive(%q) = %q, %q, %v; want %q, %q, %v", tag, pre, post, found, wantPre, wantPost, wantFound)
		}
	}
}
