package httptool

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The style examples of the OpenAPI specification (Parameter Object, "Style
// Examples"), with its sample values: a string "blue", an array
// ["blue","black","brown"] and an object {"R":100,"G":200,"B":150}. Label
// without explode joins with commas, as RFC 6570's {.list} does (OpenAPI
// 3.0.3's table wrote dots there; 3.0.4 and 3.1.1 correct it).
const (
	blue   = `"blue"`
	colors = `["blue","black","brown"]`
	rgb    = `{"R":100,"G":200,"B":150}`
)

func TestStyleExamplesPath(t *testing.T) {
	f, tr := false, true
	for _, c := range []struct {
		style   string
		explode *bool
		value   string
		want    string
	}{
		{"", nil, blue, "blue"},
		{"simple", &f, colors, "blue,black,brown"},
		{"simple", &f, rgb, "R,100,G,200,B,150"},
		{"simple", &tr, colors, "blue,black,brown"},
		{"simple", &tr, rgb, "R=100,G=200,B=150"},
		{"label", &f, blue, ".blue"},
		{"label", &f, colors, ".blue,black,brown"},
		{"label", &f, rgb, ".R,100,G,200,B,150"},
		{"label", &tr, colors, ".blue.black.brown"},
		{"label", &tr, rgb, ".R=100.G=200.B=150"},
		{"matrix", &f, blue, ";color=blue"},
		{"matrix", &f, colors, ";color=blue,black,brown"},
		{"matrix", &f, rgb, ";color=R,100,G,200,B,150"},
		{"matrix", &tr, colors, ";color=blue;color=black;color=brown"},
		{"matrix", &tr, rgb, ";R=100;G=200;B=150"},
	} {
		p := Param{Arg: "color", In: "path", Style: c.style, Explode: c.explode}
		require.NoError(t, p.checkStyle())
		assert.Equal(t, c.want, p.pathValue("color", []byte(c.value)), "%s explode=%v %s", c.style, c.explode, c.value)
	}
	// Values are escaped as path parts; the delimiters are not.
	assert.Equal(t, "a%2Fb,c%3Bd", Param{In: "path"}.pathValue("x", []byte(`["a/b","c;d"]`)))
}

func TestStyleExamplesQuery(t *testing.T) {
	f, tr := false, true
	for _, c := range []struct {
		style   string
		explode *bool
		value   string
		want    string // decoded, keys sorted as url.Values encodes them
	}{
		{"", nil, blue, "color=blue"},
		{"form", &f, colors, "color=blue,black,brown"},
		{"form", &f, rgb, "color=R,100,G,200,B,150"},
		{"form", &tr, colors, "color=blue&color=black&color=brown"},
		{"", nil, rgb, "B=150&G=200&R=100"},
		{"spaceDelimited", &f, colors, "color=blue black brown"},
		{"spaceDelimited", &f, rgb, "color=R 100 G 200 B 150"},
		{"pipeDelimited", &f, colors, "color=blue|black|brown"},
		{"pipeDelimited", &f, rgb, "color=R|100|G|200|B|150"},
		{"deepObject", &tr, rgb, "color[B]=150&color[G]=200&color[R]=100"},
	} {
		p := Param{Arg: "color", In: "query", Style: c.style, Explode: c.explode}
		require.NoError(t, p.checkStyle())
		q := url.Values{}
		p.addQuery(q, "color", []byte(c.value))
		got, err := url.QueryUnescape(q.Encode())
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "%s explode=%v %s", c.style, c.explode, c.value)
	}
}

func TestStyleHeaderAndRefused(t *testing.T) {
	tr := true
	assert.Equal(t, "blue,black,brown", Param{In: "header"}.headerValue([]byte(colors)))
	assert.Equal(t, "R=100,G=200,B=150", Param{In: "header", Explode: &tr}.headerValue([]byte(rgb)))
	require.EqualError(t, Param{Arg: "x", In: "header", Style: "form"}.checkStyle(),
		`Params: "x": style "form" does not apply to a header parameter (want one of simple)`)
	require.EqualError(t, Param{Arg: "x", In: "path", Style: "deepObject"}.checkStyle(),
		`Params: "x": style "deepObject" does not apply to a path parameter (want one of simple, label, matrix)`)
}
