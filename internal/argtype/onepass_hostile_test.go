package argtype

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// hostileItem and hostileArgs are the Go range edges, float32 rounding,
// nested pointers, slices of pointers, pointer defaults and unconstrained
// strings (escapes, surrogates, invalid UTF-8) the one-pass plan follows.
type hostileItem struct {
	N int8    `json:"n"`
	S *string `json:"s,omitempty"`
}

type hostileArgs struct {
	I8   int8           `json:"i8,omitempty"`
	U64  uint64         `json:"u64,omitempty"`
	U8   uint8          `json:"u8,omitempty" validate:"omitempty,min=1"`
	I64  int64          `json:"i64,omitempty" jsonschema:"minimum=-9223372036854775807"`
	F32  float32        `json:"f32,omitempty" jsonschema:"exclusiveMaximum=1"`
	F32b float32        `json:"f32b,omitempty"`
	F64  float64        `json:"f64,omitempty" jsonschema:"minimum=0"`
	PP   **string       `json:"pp,omitempty"`
	PS   []*hostileItem `json:"ps,omitempty"`
	DefP *int           `json:"defp,omitempty" jsonschema:"default=5"`
	DefS *string        `json:"defs,omitempty" jsonschema:"default=x"`
	S    string         `json:"s,omitempty"`
	Deep [][]int16      `json:"deep,omitempty"`
}

var hostileSeeds = []string{
	`{"i8":127,"u64":18446744073709551615,"u8":255,"i64":-9223372036854775807}`,
	`{"i8":-128,"u64":9999999999999999999,"u8":1}`,
	`{"i8":128}`, `{"u8":256}`, `{"u8":0}`,
	`{"f32":0.99999999999,"f32b":3.4028235e38,"f64":-0}`,
	`{"f32b":3.5e38}`, `{"f32b":1e-46}`, `{"f64":1e400}`, `{"f64":-0.0}`,
	`{"pp":"x","ps":[{"n":1,"s":"a"},{"n":-2}],"defs":"y"}`,
	`{"s":"\ud800"}`, "{\"s\":\"a\\n\xff\"}", "{\"s\":\"\xff\"}", `{"s":"\ud83d\ude00\u0000"}`,
	`{"deep":[[1,2],[],[32767,-32768]]}`,
	`{"defp":7}`,
}

func hostileReference(info *Info, args []byte) (*hostileArgs, bool) {
	if out, changed, err := info.Check.ApplyDefaults(args); err == nil && changed {
		args = out
	}
	if info.Check.Validate(args) != nil {
		return nil, false
	}
	var a hostileArgs
	if json.Unmarshal(args, &a) != nil {
		return nil, false
	}
	return &a, true
}

// FuzzOnePassHostile is FuzzOnePass over hostileArgs.
func FuzzOnePassHostile(f *testing.F) {
	for _, s := range hostileSeeds {
		f.Add([]byte(s))
	}
	info, err := For(reflect.TypeFor[hostileArgs]())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		var got hostileArgs
		ok, _ := info.CheckDecode(args, &got)
		if !ok {
			return
		}
		want, refOK := hostileReference(info, args)
		if !refOK {
			t.Fatalf("one pass accepts %q, the engine or encoding/json refuses it", args)
		}
		if g, w := mustJSON(t, &got), mustJSON(t, want); g != w {
			t.Fatalf("one pass decodes %q as\n%s\nencoding/json as\n%s", args, g, w)
		}
	})
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOnePassKeptAcrossCalls: values decoded by the one-pass path stay
// what they were after later calls reuse the pooled scratch and after the
// caller overwrites its argument bytes; goroutines decode different
// arguments at once and keep every value. Run with -race.
func TestOnePassKeptAcrossCalls(t *testing.T) {
	info, err := For(reflect.TypeFor[hostileArgs]())
	if err != nil {
		t.Fatal(err)
	}
	args := func(g, k int) []byte {
		return []byte(fmt.Sprintf(`{"s":"g%dk%d","pp":"p%d","ps":[{"n":%d,"s":"a%d"},{"n":%d}],"deep":[[%d,%d],[],[%d]],"defs":"d%d"}`,
			g, k, k, g, k, -g, g, k, g+k, g))
	}
	type kept struct {
		in  []byte
		got *hostileArgs
	}
	res := make(chan []kept, 4)
	for g := 0; g < 4; g++ {
		go func() {
			var all []kept
			for k := 0; k < 100; k++ {
				in := args(g, k)
				var got hostileArgs
				if ok, _ := info.CheckDecode(in, &got); !ok {
					t.Errorf("declined %s", in)
				}
				all = append(all, kept{append([]byte(nil), in...), &got})
				for i := range in {
					in[i] = 'x' // the caller reuses its buffer
				}
			}
			res <- all
		}()
	}
	for g := 0; g < 4; g++ {
		for _, k := range <-res {
			want, ok := hostileReference(info, k.in)
			if !ok {
				t.Fatalf("%s refused", k.in)
			}
			if g, w := mustJSON(t, k.got), mustJSON(t, want); g != w {
				t.Fatalf("%s: kept value became\n%s\nwant\n%s", k.in, g, w)
			}
		}
	}
}
