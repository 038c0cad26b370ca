package toolnexus

import (
	"context"
	"encoding/json"
	"testing"
)

// mirroredArgs uses only rules the checker mirrors, so Execute skips the
// validator for it. FuzzMirroredNeverLooser holds the checker to never
// accept what go-playground/validator would refuse.
type mirroredArgs struct {
	Name  string    `json:"name" validate:"required,min=2,max=8"`
	Kind  string    `json:"kind,omitempty" validate:"omitempty,oneof=a bb 'c d'"`
	Level int       `json:"level" validate:"gte=-3,lt=10"`
	Ratio float64   `json:"ratio,omitempty" validate:"omitempty,gt=0,lte=1"`
	On    *bool     `json:"on" validate:"required"`
	Tags  []string  `json:"tags,omitempty" validate:"omitempty,max=3,dive,required,len=2"`
	Nums  []int8    `json:"nums" validate:"required,min=1,dive,min=1,max=9"`
	Sub   mirrorSub `json:"sub"`
}

type mirrorSub struct {
	Code uint16 `json:"code" validate:"oneof=1 7 300"`
}

func FuzzMirroredNeverLooser(f *testing.F) {
	for _, seed := range []string{
		`{"name":"ab","level":0,"on":true,"nums":[1],"sub":{"code":7}}`,
		`{"name":"abcdefgh","kind":"c d","level":-3,"ratio":1,"on":true,"tags":["ab","cd"],"nums":[9,1],"sub":{"code":300}}`,
		`{"name":"a","level":10,"on":false,"nums":[],"sub":{"code":0}}`,
		`{"name":"ab","kind":"","level":0,"ratio":0,"on":true,"tags":[],"nums":[1],"sub":{"code":1}}`,
		`{"name":"äö","level":9,"on":true,"nums":[1],"sub":{"code":1},"ratio":1e-300}`,
	} {
		f.Add([]byte(seed))
	}
	r := NewRegistry()
	MustRegister(r, "m", "", func(context.Context, mirroredArgs) (string, error) { return "ok", nil })
	info, err := typeInfoFor(reflectTypeFor[mirroredArgs]())
	if err != nil {
		f.Fatal(err)
	}
	if info.NeedValidator {
		f.Fatal("mirroredArgs must not need the validator")
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		res := r.Execute(context.Background(), "m", json.RawMessage(args))
		if res.IsError {
			return
		}
		var a mirroredArgs
		if err := json.Unmarshal(args, &a); err != nil {
			t.Fatalf("Execute accepted %s but encoding/json refuses it: %v", args, err)
		}
		if err := validate().Struct(&a); err != nil {
			t.Fatalf("Execute accepted %s but the validator refuses it: %v", args, err)
		}
	})
}
