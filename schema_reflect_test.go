package toolnexus

import (
	"context"
	"encoding/json"
	"math/big"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every Go type tells the truth (issue 10 point 4): a type that decodes
// from JSON its own way is advertised as the JSON it accepts.

type stdArgs struct {
	T  time.Time       `json:"t"`
	N  json.Number     `json:"n"`
	R  json.RawMessage `json:"r"`
	IP netip.Addr      `json:"ip"`
	P  netip.Prefix    `json:"p"`
	NI net.IP          `json:"ni"`
	BI *big.Int        `json:"bi"`
	BF *big.Float      `json:"bf"`
	BR *big.Rat        `json:"br"`
	B  []byte          `json:"b"`
}

func TestStandardTypesSchema(t *testing.T) {
	s, err := SchemaFor[stdArgs]()
	require.NoError(t, err)
	props := map[string]json.RawMessage{}
	var root struct {
		Properties json.RawMessage `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(s, &root))
	require.NoError(t, json.Unmarshal(root.Properties, &props))
	want := map[string]string{
		"t":  `{"type":"string","format":"date-time"}`,
		"n":  `{"type":"number"}`,
		"r":  `{}`,
		"ip": `{"type":"string","anyOf":[{"format":"ipv4"},{"format":"ipv6"}]}`,
		"p":  `{"type":"string","pattern":"^[0-9A-Fa-f.:]+/[0-9]{1,3}$"}`,
		"ni": `{"type":"string","anyOf":[{"format":"ipv4"},{"format":"ipv6"}]}`,
		"bi": `{"type":"integer"}`,
		"bf": `{"type":"string","pattern":"^[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?$"}`,
		"br": `{"type":"string","pattern":"^[-+]?[0-9]+(/[0-9]+|\\.[0-9]+)?$"}`,
		"b":  `{"type":"string","contentEncoding":"base64"}`,
	}
	for k, w := range want {
		assert.Equal(t, w, string(props[k]), "property %q", k)
	}
}

func TestStandardTypesDecode(t *testing.T) {
	r := NewRegistry()
	var got stdArgs
	require.NoError(t, Register(r, "std", "", func(_ context.Context, a stdArgs) (string, error) { got = a; return "ok", nil }))
	ctx := context.Background()
	good := `{"t":"2026-01-02T15:04:05Z","n":12.5,"r":[1,{"a":null}],"ip":"10.0.0.1","p":"10.0.0.0/8","ni":"::1","bi":123456789012345678901234567890,"bf":"3.25","br":"1/3","b":"aGk="}`
	res := r.Execute(ctx, "std", json.RawMessage(good))
	require.Equal(t, "ok", res.Output)
	assert.Equal(t, "12.5", got.N.String())
	assert.Equal(t, `[1,{"a":null}]`, string(got.R))
	assert.Equal(t, "10.0.0.1", got.IP.String())
	assert.Equal(t, "10.0.0.0/8", got.P.String())
	assert.Equal(t, "123456789012345678901234567890", got.BI.String())
	assert.Equal(t, "1/3", got.BR.String())
	assert.Equal(t, "hi", string(got.B))

	for _, c := range []struct{ args, want string }{
		{`{"n":"12"}`, `"n" must be a number, got a string`},
		{`{"ip":"10.0.0.300"}`, `"ip" must be an IPv4 or IPv6 address, got "10.0.0.300"`},
		{`{"ni":"nope"}`, `"ni" must be an IPv4 or IPv6 address, got "nope"`},
		{`{"p":"10.0.0.0/99"}`, `"p" must be an IP network prefix in CIDR notation, e.g. 10.0.0.0/8 or 2001:db8::/32, got "10.0.0.0/99"`},
		{`{"bi":"12"}`, `"bi" must be an integer, got a string`},
		{`{"bi":1.5}`, `"bi" must be an integer, got 1.5`},
		{`{"br":"1/0"}`, `"br" must be a rational number written as a string: a fraction such as "1/3" or a decimal such as "0.25", got "1/0"`},
	} {
		// the good arguments with one value replaced
		obj := map[string]json.RawMessage{}
		require.NoError(t, json.Unmarshal([]byte(good), &obj))
		bad := map[string]json.RawMessage{}
		require.NoError(t, json.Unmarshal([]byte(c.args), &bad))
		for k, v := range bad {
			obj[k] = v
		}
		b, _ := json.Marshal(obj)
		res := r.Execute(ctx, "std", b)
		assert.Equal(t, `invalid arguments for "std": `+c.want, res.Output, c.args)
		for _, leak := range []string{"Unmarshal", "Parse", "netip", "big.", "Go "} {
			assert.NotContains(t, res.Output, leak, c.args)
		}
	}
}

type withDuration struct {
	Wait time.Duration `json:"wait"`
}

type withURL struct {
	Site url.URL `json:"site"`
}

// celsius decodes itself and has no schema of its own.
type celsius float64

func (c *celsius) UnmarshalText(b []byte) error { return nil }

type withCelsius struct {
	Temp celsius `json:"temp"`
}

type embedsTime struct {
	time.Time
}

type withEmbedsTime struct {
	When embedsTime `json:"when"`
}

func TestTypesThatCannotTellTheTruthAreRefused(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{Register(NewRegistry(), "t", "", noop[withDuration]), `field withDuration.Wait (time.Duration): a JSON number would arrive as nanoseconds; declare it as a string holding a Go duration ("90s", "1h30m") and parse it with time.ParseDuration, or as an integer number of seconds`},
		{Register(NewRegistry(), "t", "", noop[withURL]), `field withURL.Site (url.URL): encoding/json decodes url.URL from an object of its Go fields, not from a URL string; declare it as a string with jsonschema:"format=uri" (or validate:"url") and parse it with url.Parse`},
		{Register(NewRegistry(), "t", "", noop[withCelsius]), `field withCelsius.Temp (toolnexus.celsius): the type decodes JSON itself (UnmarshalText), so its fields do not describe its JSON form; give it a method JSONSchema() *jsonschema.Schema that describes the JSON it accepts, or use a plain type`},
		{Register(NewRegistry(), "t", "", noop[withEmbedsTime]), `field withEmbedsTime.When (toolnexus.embedsTime): the type decodes JSON itself (UnmarshalJSON, promoted from an embedded field), so its fields do not describe its JSON form; give it a method JSONSchema() *jsonschema.Schema that describes the JSON it accepts, or use a plain type`},
	} {
		require.Error(t, c.err, c.want)
		assert.ErrorIs(t, c.err, ErrInvalidSchema)
		assert.Contains(t, c.err.Error(), c.want)
	}
}

// priority is the usual Go enum type: its schema comes from a method.
type priority string

func (priority) JSONSchema() *jsonschema.Schema {
	max := uint64(6)
	return &jsonschema.Schema{Type: "string", Enum: []any{"low", "high"}, MaxLength: &max}
}

type level int

func (level) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: "1", Maximum: "5"}
}

func TestJSONSchemaMethodIsEnforced(t *testing.T) {
	type args struct {
		P priority `json:"p"`
		L level    `json:"l,omitempty"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "m", "", func(_ context.Context, a args) (string, error) { return string(a.P), nil }))
	tool, _ := r.Get("m")
	assert.Equal(t, `{"type":"object","properties":{"p":{"type":"string","enum":["low","high"],"maxLength":6},"l":{"type":"integer","maximum":5,"minimum":1}},"required":["p"],"additionalProperties":false}`, string(tool.InputSchema))
	ctx := context.Background()
	assert.Equal(t, "high", r.Execute(ctx, "m", json.RawMessage(`{"p":"high","l":5}`)).Output)
	assert.Equal(t, `invalid arguments for "m": "p" must be one of [low high]; "l" must be at most 5`,
		r.Execute(ctx, "m", json.RawMessage(`{"p":"medium","l":99}`)).Output)
}

func TestRequiredOnBoolOrNumberIsRefused(t *testing.T) {
	type b struct {
		On bool `json:"on" validate:"required"`
	}
	type n struct {
		Count int `json:"count" validate:"required"`
	}
	err := Register(NewRegistry(), "t", "", noop[b])
	require.ErrorIs(t, err, ErrInvalidSchema)
	assert.Contains(t, err.Error(), `field b.On: validate "required" on a bool refuses false, which the schema allows; the property is already required (its json tag has no omitempty): drop the rule, or use *bool to require the key while allowing false`)
	err = Register(NewRegistry(), "t", "", noop[n])
	require.ErrorIs(t, err, ErrInvalidSchema)
	assert.Contains(t, err.Error(), `field n.Count: validate "required" on a number refuses 0, which the schema allows; the property is already required (its json tag has no omitempty): drop the rule, use *int to require the key while allowing 0, or state the bound (min=1, gt=0, ne=0)`)
}

// validate:"required" on a string means not empty: shown as minLength 1. On
// a slice (validator: not nil) it means present and not null, which the
// schema already says.
func TestRequiredOnStringAndSliceIsShown(t *testing.T) {
	type a struct {
		S string   `json:"s" validate:"required"`
		L []string `json:"l" validate:"required"`
	}
	s, err := SchemaFor[a]()
	require.NoError(t, err)
	assert.Equal(t, `{"type":"object","properties":{"s":{"type":"string","minLength":1},"l":{"type":"array","items":{"type":"string"}}},"required":["s","l"],"additionalProperties":false}`, string(s))
}

func TestSchemaTagSpaceAfterComma(t *testing.T) {
	type a struct {
		S string `json:"s" jsonschema:"minLength=2, maxLength=5"`
	}
	err := Register(NewRegistry(), "sp", "", noop[a])
	require.ErrorIs(t, err, ErrInvalidSchema)
	assert.Contains(t, err.Error(), `field a.S: jsonschema tag entry " maxLength=5" starts with a space, which invopop/jsonschema reads as an unknown key and drops; remove the space after the comma`)
}

type pair[K comparable, V any] struct {
	Key  K              `json:"key"`
	Val  V              `json:"val"`
	Next *pair[K, V]    `json:"next,omitempty"`
	Meta map[string]int `json:"meta,omitempty"`
}

type genericHolder struct {
	P pair[string, *url.Userinfo] `json:"-"`
	Q pair[string, int]           `json:"q"`
}

func TestGenericDefsNamesResolve(t *testing.T) {
	s, err := SchemaFor[pair[string, netip.Addr]]()
	require.NoError(t, err)
	var doc struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(s, &doc))
	require.NotEmpty(t, doc.Defs)
	for name := range doc.Defs {
		for _, c := range name {
			ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
			assert.True(t, ok, "$defs name %q has %q", name, c)
		}
	}
	for _, ref := range refsIn(string(s)) {
		name := strings.TrimPrefix(ref, "#/$defs/")
		_, ok := doc.Defs[name]
		assert.True(t, ok, "$ref %q does not resolve", ref)
	}
	_, err = SchemaFor[genericHolder]()
	require.NoError(t, err)
}

func refsIn(s string) []string {
	var out []string
	for {
		i := strings.Index(s, `"$ref":"`)
		if i < 0 {
			return out
		}
		s = s[i+8:]
		j := strings.IndexByte(s, '"')
		out = append(out, s[:j])
		s = s[j:]
	}
}
