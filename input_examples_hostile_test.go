package toolnexus_test

import (
	"testing"

	"github.com/toolnexus/toolnexus"
)

// exNilElem returns a nil pointer among its examples.
type exNilElem struct {
	Q string `json:"q,omitempty"`
}

func (*exNilElem) InputExamples() []*exNilElem { return []*exNilElem{{Q: "a"}, nil} }

// TestInputExamplesNilElement: a nil pointer example marshals to null,
// which is no example object; it is a registration error naming the
// example, not a null shown to the model (a typed call reads null as {},
// so checking it as a call accepts it).
func TestInputExamplesNilElement(t *testing.T) {
	tool, err := toolnexus.NewTool("n", "", exFn[exNilElem])
	want := `toolnexus: tool "n": input example 1 (null) is not a JSON object`
	if err == nil || err.Error() != want {
		t.Errorf("examples %q, error %v; want error %s", tool.InputExamples, err, want)
	}
}
