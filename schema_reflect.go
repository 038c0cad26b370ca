package toolnexus

import (
	"encoding/json"
	"reflect"
	"sync"

	"github.com/toolnexus/toolnexus/internal/argtype"
)

// SchemaFor returns the input schema reflected from A, the same bytes a
// typed tool with arguments A carries, renderers read and Execute enforces
// (see [NewTool] for the tags and the Go types). The bytes are shared; do
// not modify them. The error is the one NewTool would give for A, without
// the tool name.
//
// Reflection is done once per type and cached; the machinery is in
// internal/argtype.
func SchemaFor[A any]() (json.RawMessage, error) {
	info, err := typeInfo(reflect.TypeFor[A]())
	if err != nil {
		return nil, err
	}
	return info.Schema, nil
}

// typeInfos maps an argument or output type (a struct type, never a
// pointer) to its infoOrErr: a type is reflected, checked and compiled
// once per process. A race between two first registrations of one type
// only costs a second computation; LoadOrStore keeps the first.
var typeInfos sync.Map

type infoOrErr struct {
	info *argtype.Info
	err  error
}

// typeInfo returns the Info of the type t (a struct or a pointer to a
// struct) from typeInfos, computing it with argtype.For on first use. The
// error, cached too, is the first reason t cannot be a tool's arguments.
func typeInfo(t reflect.Type) (*argtype.Info, error) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	v, ok := typeInfos.Load(t)
	if !ok {
		info, err := argtype.For(t)
		v, _ = typeInfos.LoadOrStore(t, infoOrErr{info, err})
	}
	e := v.(infoOrErr)
	return e.info, e.err
}
