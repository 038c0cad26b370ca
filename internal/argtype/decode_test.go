package argtype

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"testing"
	"time"
)

type diffLeaf struct {
	Word  string   `json:"word"`
	Count uint16   `json:"count,omitempty"`
	Tags  []string `json:"tags,omitempty"`
}

type diffLabel string

type diffArgs struct {
	S     string               `json:"s"`
	I8    int8                 `json:"i8,omitempty"`
	I     int                  `json:"i,omitempty"`
	U     uint32               `json:"u,omitempty"`
	F32   float32              `json:"f32,omitempty"`
	F     float64              `json:"f,omitempty"`
	B     bool                 `json:"b,omitempty"`
	P     *int                 `json:"p,omitempty"`
	PS    *diffLeaf            `json:"ps,omitempty"`
	Items []diffLeaf           `json:"items,omitempty"`
	M     map[string]int       `json:"m,omitempty"`
	NM    map[diffLabel]string `json:"nm,omitempty"`
	L     diffLabel            `json:"l,omitempty"`
	T     time.Time            `json:"t,omitzero"`
	PT    *time.Time           `json:"pt,omitempty"`
	Raw   json.RawMessage      `json:"raw,omitempty"`
	Any   any                  `json:"any,omitempty"`
	Bytes []byte               `json:"bytes,omitempty"`
	Nest  [][]float64          `json:"nest,omitempty"`
	Leaf  diffLeaf             `json:"leaf,omitzero"`
}

var diffSeeds = []string{
	`{"s":"x"}`,
	`{"s":"héllo \u00e9 \n\"q\"","i8":-128,"i":9007199254740993,"u":4294967295,"f32":1.5e3,"f":-0.125e-3,"b":true}`,
	`{"s":"","p":7,"ps":{"word":"w","count":3,"tags":["a","b"]},"items":[{"word":"a"},{"word":"b","tags":[]}]}`,
	`{"s":"m","m":{"a":1,"b\u0062":2},"nm":{"k":"v"},"l":"lab","t":"2026-01-02T15:04:05Z","pt":"2026-01-02T15:04:05+02:00"}`,
	`{"s":"r","raw":{"x":[1,2,{"y":null}]},"any":[1,"2",{"3":true}],"bytes":"aGVsbG8=","nest":[[1,2.5],[],[3e2]]}`,
	`{"s":"n","p":null,"ps":null,"items":null,"m":null,"raw":null,"any":null,"pt":null,"leaf":{"word":"z"}}`,
	`{"s":"z","i":30.0,"i8":1e2}`,
	` { "s" : "ws" , "items" : [ { "word" : "a" } ] } `,
	`{"s":"\ud83d\ude00 \ud800","i8":200}`,
	`{"s":"x","u":-1}`,
	`{"s":"x","f32":1e39}`,
	`{"s":"\ud83d\ude00 \ud800 \u0000 tab\t","l":"\/"}`,
}

// FuzzDecodeDifferential: for every input the compiled schema accepts, the
// fast decoder gives the value encoding/json gives (reflect.DeepEqual), or
// declines (false) so that encoding/json decodes it; it never accepts what
// encoding/json refuses. On any input it must not panic.
func FuzzDecodeDifferential(f *testing.F) {
	info, err := For(reflect.TypeFor[diffArgs]())
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range diffSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		var fast diffArgs
		ok := info.Decode(args, &fast) // must not panic, validated or not
		if info.Check.Validate(args) != nil {
			return
		}
		fast = diffArgs{}
		ok = info.Decode(args, &fast)
		var want diffArgs
		jerr := json.Unmarshal(args, &want)
		if ok && jerr != nil {
			t.Fatalf("fast decoder accepted %s; encoding/json: %v", args, jerr)
		}
		if ok && !reflect.DeepEqual(fast, want) {
			t.Fatalf("%s:\nfast %#v\njson %#v", args, fast, want)
		}
	})
}

// TestDecodeSeeds checks the seeds directly: which the fast decoder takes
// and that it agrees with encoding/json on them.
func TestDecodeSeeds(t *testing.T) {
	info, err := For(reflect.TypeFor[diffArgs]())
	if err != nil {
		t.Fatal(err)
	}
	wantFast := []bool{true, true, true, true, true, true, false, true, false, false, false, true}
	for i, s := range diffSeeds {
		var fast, want diffArgs
		ok := info.Decode([]byte(s), &fast)
		if ok != wantFast[i] {
			t.Errorf("seed %d %s: Decode = %v, want %v", i, s, ok, wantFast[i])
		}
		if !ok {
			continue
		}
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		if !reflect.DeepEqual(fast, want) {
			t.Errorf("seed %d %s:\nfast %#v\njson %#v", i, s, fast, want)
		}
	}
}

// TestDecodeSeedsValid: the schema accepts every seed, so the fuzz target
// starts from inputs that reach the comparison.
func TestDecodeSeedsValid(t *testing.T) {
	info, err := For(reflect.TypeFor[diffArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range diffSeeds {
		if err := info.Check.Validate([]byte(s)); err != nil {
			t.Errorf("seed %d refused by the schema: %v", i, err)
		}
	}
}

// FuzzExactFloat: the fast path gives ParseFloat's value bit for bit.
func FuzzExactFloat(f *testing.F) {
	for _, s := range []string{"0.25", "-12.5", "1e22", "123456789012345e-22", "9007199254740993", "3.0e-5", "1E+2", "0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return
		}
		got, ok := exactFloat([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		if ok && (err != nil || math.Float64bits(got) != math.Float64bits(want)) {
			t.Fatalf("exactFloat(%q) = %v, ParseFloat = %v, %v", s, got, want, err)
		}
	})
}
