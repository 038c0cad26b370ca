package toolnexus

import (
	"encoding/json"
	"reflect"

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
	info, err := argtype.For(reflect.TypeFor[A]())
	if err != nil {
		return nil, err
	}
	return info.Schema, nil
}
