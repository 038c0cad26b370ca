package argtype

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// opStop and opArgs cover what the one-pass plan follows itself (strings
// with lengths and enums, sized integers, floats with bounds, bools,
// pointers, slices of structs, nested structs, defaults) and what it hands
// to the schema engine per value (pattern, format, const, uniqueItems,
// maps, time.Time, json.RawMessage, any).
type opStop struct {
	City   string  `json:"city" validate:"required"`
	Lat    float64 `json:"lat" validate:"gte=-90,lte=90"`
	Lon    float32 `json:"lon" validate:"gt=-180,lt=180"`
	Nights int     `json:"nights,omitempty" validate:"omitempty,min=1,max=30"`
	Note   string  `json:"note,omitempty" validate:"omitempty,max=12"`
}

type opInner struct {
	Code  uint16 `json:"code" validate:"oneof=1 7 300"`
	Level int8   `json:"level,omitempty" validate:"omitempty,gte=-3,lt=10"`
	On    bool   `json:"on,omitempty"`
}

type opArgs struct {
	Name   string            `json:"name" validate:"required,min=2,max=8"`
	Kind   string            `json:"kind,omitempty" validate:"omitempty,oneof=a bb 'c d' é"`
	Unit   string            `json:"unit,omitempty" jsonschema:"default=celsius,enum=celsius,enum=fahrenheit"`
	Days   int               `json:"days,omitempty" jsonschema:"default=3" validate:"omitempty,min=1,max=14"`
	Ratio  *float64          `json:"ratio,omitempty" validate:"omitempty,gt=0,lte=1.5"`
	Count  uint              `json:"count,omitempty"`
	Stops  []opStop          `json:"stops,omitempty" validate:"omitempty,max=4"`
	Tags   []string          `json:"tags,omitempty" validate:"omitempty,max=3,dive,min=1"`
	Inner  *opInner          `json:"inner,omitempty"`
	Zip    string            `json:"zip,omitempty" jsonschema:"pattern=^[0-9]{5}$"`
	Email  string            `json:"email,omitempty" validate:"omitempty,email"`
	Uniq   []int             `json:"uniq,omitempty" validate:"omitempty,unique"`
	Attrs  map[string]int    `json:"attrs,omitempty"`
	When   time.Time         `json:"when,omitzero"`
	Raw    json.RawMessage   `json:"raw,omitempty"`
	Any    any               `json:"any,omitempty"`
	Nested map[string][]bool `json:"nested,omitempty"`
}

var opSeeds = []string{
	`{"name":"ab"}`,
	`{"name":"abcdefgh","kind":"c d","unit":"fahrenheit","days":14,"ratio":1.25,"count":7}`,
	`{"name":"Zoë","kind":"é","stops":[{"city":"Paris","lat":48.85,"lon":2.35,"nights":3,"note":"eiffel"},{"city":"Nice","lat":-90,"lon":-179.5}]}`,
	`{"name":"ab","tags":["x","yz"],"inner":{"code":300,"level":-3,"on":true},"zip":"75001","email":"a@b.co"}`,
	`{"name":"ab","uniq":[1,2,3],"attrs":{"a":1,"b":-2},"when":"2026-01-02T15:04:05Z","raw":{"k":[1,"x",null]},"any":[1.5,{"z":false}],"nested":{"q":[true,false]}}`,
	` { "name" : "ab" , "stops" : [ ] , "tags" : [ ] } `,
	`{"name":"ab","days":30}`,
	`{"name":"ab","days":3.0}`,
	`{"name":"ab","days":null}`,
	`{"name":"ab","na\u006de":"cd"}`,
	`{"name":"a\nb"}`,
	`{"name":"ab","note":"x"}`,
	`{"name":"ab","ratio":0}`,
	`{"name":"ab","ratio":1e-400}`,
	`{"name":"ab","stops":[{"city":"P","lat":90.0000000000000000001,"lon":0}]}`,
	`{"name":"ab","count":-0}`,
	`{"name":"ab","inner":{"code":7,"level":10}}`,
	`{"name":"ab","uniq":[1,1]}`,
	`{"name":"ab","name":"cd"}`,
	`{"name":"ab"}x`,
	`{"name":"ab","when":"yesterday"}`,
	`{"name":"ab","zip":"7500"}`,
	`{"name":"ab","ratio":1.5}`,
	`{"name":"ab","stops":[{"city":"P","lat":0,"lon":180}]}`,
	`{"name":"ab","stops":[{"city":"P","lat":90.0,"lon":0}]}`,
}

// reference is the full path's verdict and value: defaults applied, the
// compiled schema's check, then encoding/json.
func reference(info *Info, args []byte) (*opArgs, bool) {
	if out, changed, err := info.Check.ApplyDefaults(args); err == nil && changed {
		args = out
	}
	if info.Check.Validate(args) != nil {
		return nil, false
	}
	var a opArgs
	if json.Unmarshal(args, &a) != nil {
		return nil, false
	}
	return &a, true
}

func opInfo(t testing.TB) *Info {
	info, err := For(reflect.TypeFor[opArgs]())
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// FuzzOnePass is the differential test of the one-pass path: whenever it
// accepts, the schema engine (after ApplyDefaults) and encoding/json accept
// too, and the decoded values are reflect.DeepEqual. Where it declines, the
// full path runs (the reference itself), so the verdict of a call is the
// reference's in every case.
func FuzzOnePass(f *testing.F) {
	for _, s := range opSeeds {
		f.Add([]byte(s))
	}
	info := opInfo(f)
	f.Fuzz(func(t *testing.T, args []byte) {
		var got opArgs
		ok, defaulted := info.CheckDecode(args, &got)
		if !ok {
			return
		}
		want, refOK := reference(info, args)
		if !refOK {
			t.Fatalf("one pass accepts %s, the engine or encoding/json refuses it", args)
		}
		if !reflect.DeepEqual(&got, want) {
			t.Fatalf("one pass decodes %s as\n%+v\nencoding/json as\n%+v", args, got, *want)
		}
		if _, changed, _ := info.Check.ApplyDefaults(args); changed != defaulted {
			t.Fatalf("%s: defaulted %v, ApplyDefaults changed %v", args, defaulted, changed)
		}
	})
}

// TestOnePassTaken pins which seeds the one-pass path takes: it must take
// ordinary valid arguments (else the fast path is dead code) and decline
// everything invalid or outside what it follows.
func TestOnePassTaken(t *testing.T) {
	info := opInfo(t)
	for i, s := range opSeeds {
		var got opArgs
		ok, _ := info.CheckDecode([]byte(s), &got)
		if want := i <= 5; ok != want { // the first six are valid and ordinary
			t.Errorf("CheckDecode(%s) = %v, want %v", s, ok, want)
		}
		_, refOK := reference(info, []byte(s))
		if ok && !refOK {
			t.Errorf("CheckDecode(%s) accepts what the reference refuses", s)
		}
	}
}

// TestOnePassDefaults: absent properties get the schema's defaults in the
// same pass, and defaulted says so.
func TestOnePassDefaults(t *testing.T) {
	info := opInfo(t)
	var got opArgs
	ok, defaulted := info.CheckDecode([]byte(`{"name":"ab","days":5}`), &got)
	if !ok || !defaulted || got.Unit != "celsius" || got.Days != 5 || got.Name != "ab" {
		t.Fatalf("got ok=%v defaulted=%v %+v", ok, defaulted, got)
	}
	got = opArgs{}
	ok, defaulted = info.CheckDecode([]byte(`{"name":"ab","days":5,"unit":"fahrenheit"}`), &got)
	if !ok || defaulted || got.Unit != "fahrenheit" {
		t.Fatalf("got ok=%v defaulted=%v %+v", ok, defaulted, got)
	}
}

// TestOnePassNoPlan: a schema the plan cannot follow ($ref for a recursive
// type) leaves every call to the full path.
func TestOnePassNoPlan(t *testing.T) {
	type node struct {
		Name string  `json:"name"`
		Kids []*node `json:"kids,omitempty"`
	}
	info, err := For(reflect.TypeFor[node]())
	if err != nil {
		t.Fatal(err)
	}
	var n node
	if ok, _ := info.CheckDecode([]byte(`{"name":"a"}`), &n); ok {
		t.Fatal("a recursive type took the one-pass path")
	}
}

type tripStop struct {
	City   string  `json:"city" validate:"required"`
	Lat    float64 `json:"lat" validate:"gte=-90,lte=90"`
	Lon    float64 `json:"lon" validate:"gte=-180,lte=180"`
	Nights int     `json:"nights,omitempty" validate:"omitempty,min=1,max=30"`
	Note   string  `json:"note,omitempty"`
}

type tripArgs struct {
	Name  string     `json:"name" validate:"required"`
	Stops []tripStop `json:"stops" validate:"required,max=100,dive"`
}

func tripArgsJSON() []byte {
	var b []byte
	b = append(b, `{"name":"grand tour","stops":[`...)
	for i := 0; i < 50; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `{"city":"City %d","lat":%d.25,"lon":%d.5,"nights":%d,"note":"stop number %d"}`, i, i%90, i%180, i%30+1, i)
	}
	return append(b, `]}`...)
}

// BenchmarkCheckDecodeTrip50 is the one-pass path alone on the root
// package's trip50 arguments, with json.Unmarshal and json.Valid of the
// same bytes in the same run.
func BenchmarkCheckDecodeTrip50(b *testing.B) {
	in := tripArgsJSON()
	info, err := For(reflect.TypeFor[tripArgs]())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("CheckDecode", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			var a tripArgs
			if ok, _ := info.CheckDecode(in, &a); !ok {
				b.Fatal("declined")
			}
		}
	})
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			var a tripArgs
			if err := json.Unmarshal(in, &a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			if !json.Valid(in) {
				b.Fatal("invalid")
			}
		}
	})
}

// TestOnePassConcurrent decodes from many goroutines at once (the plan is
// compiled once, the slices' scratch is pooled): each gets its own value,
// equal to encoding/json's. Run with -race.
func TestOnePassConcurrent(t *testing.T) {
	in := tripArgsJSON()
	info, err := For(reflect.TypeFor[tripArgs]())
	if err != nil {
		t.Fatal(err)
	}
	var want tripArgs
	if err := json.Unmarshal(in, &want); err != nil {
		t.Fatal(err)
	}
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for k := 0; k < 50; k++ {
				var got tripArgs
				if ok, _ := info.CheckDecode(in, &got); !ok || !reflect.DeepEqual(got, want) {
					errs <- fmt.Sprintf("ok=%v, got %+v", ok, got)
					return
				}
			}
			errs <- ""
		}()
	}
	for g := 0; g < 8; g++ {
		if e := <-errs; e != "" {
			t.Fatal(e)
		}
	}
}
