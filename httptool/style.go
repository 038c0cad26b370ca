package httptool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// The parameter styles of OpenAPI 3.0 and 3.1 (Parameter Object, "Style
// Values" and "Style Examples":
// https://spec.openapis.org/oas/v3.1.0#style-values).
const (
	StyleSimple         = "simple"         // path and header; the default there
	StyleLabel          = "label"          // path: ".3.4.5"
	StyleMatrix         = "matrix"         // path: ";id=3;id=4;id=5"
	StyleForm           = "form"           // query; the default there
	StyleSpaceDelimited = "spaceDelimited" // query arrays: "3 4 5"
	StylePipeDelimited  = "pipeDelimited"  // query arrays: "3|4|5"
	StyleDeepObject     = "deepObject"     // query objects: "id[role]=admin"
)

// styles says which styles each location takes.
var styles = map[string][]string{
	"path":   {StyleSimple, StyleLabel, StyleMatrix},
	"query":  {StyleForm, StyleSpaceDelimited, StylePipeDelimited, StyleDeepObject},
	"header": {StyleSimple},
}

// style returns p's style and explode, with OpenAPI's defaults filled in:
// simple for path and header, form for query; explode true for form only.
func (p Param) style() (string, bool) {
	style := p.Style
	if style == "" {
		style = StyleSimple
		if p.In == "query" {
			style = StyleForm
		}
	}
	explode := style == StyleForm
	if p.Explode != nil {
		explode = *p.Explode
	}
	return style, explode
}

// checkStyle refuses a style the location does not take.
func (p Param) checkStyle() error {
	style, _ := p.style()
	for _, s := range styles[p.In] {
		if s == style {
			return nil
		}
	}
	return fmt.Errorf("Params: %q: style %q does not apply to a %s parameter (want one of %s)", p.Arg, style, p.In, strings.Join(styles[p.In], ", "))
}

// value is an argument split as the styles see it: a scalar's text, an
// array's items, or an object's keys and values in the order the model
// wrote them. Items and values that are not strings are their JSON text.
type value struct {
	scalar   string
	list     []string // array items, or object keys and values alternating
	isList   bool
	isObject bool
}

func splitValue(v json.RawMessage) value {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || (v[0] != '[' && v[0] != '{') {
		return value{scalar: scalar(v)}
	}
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	if _, err := d.Token(); err != nil {
		return value{scalar: scalar(v)}
	}
	out := value{isList: v[0] == '[', isObject: v[0] == '{'}
	for d.More() {
		if out.isObject {
			k, err := d.Token()
			if err != nil {
				return value{scalar: scalar(v)}
			}
			out.list = append(out.list, fmt.Sprint(k))
		}
		var item json.RawMessage
		if err := d.Decode(&item); err != nil {
			return value{scalar: scalar(v)}
		}
		out.list = append(out.list, scalar(item))
	}
	return out
}

// pairs joins an object's keys and values: "k1<kv>v1<sep>k2<kv>v2", each
// part escaped by esc.
func (v value) pairs(kv, sep string, esc func(string) string) string {
	var b strings.Builder
	for i := 0; i+1 < len(v.list); i += 2 {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(esc(v.list[i]) + kv + esc(v.list[i+1]))
	}
	return b.String()
}

// joined joins an array's items, or an object's keys and values, with sep,
// each escaped by esc.
func (v value) joined(sep string, esc func(string) string) string {
	parts := make([]string, len(v.list))
	for i, s := range v.list {
		parts[i] = esc(s)
	}
	return strings.Join(parts, sep)
}

// pathValue is the text that replaces {name} in the URL for argument v
// under p's style: simple "3,4,5", label ".3.4.5", matrix ";id=3,4,5", ...
// (the spec's Style Examples). Every value is escaped as a path segment
// part; the delimiters are not.
func (p Param) pathValue(name string, v json.RawMessage) string {
	style, explode := p.style()
	sv := splitValue(v)
	esc := escapePlaceholder
	switch style {
	case StyleLabel:
		sep := ","
		if explode {
			sep = "."
		}
		switch {
		case sv.isObject && explode:
			return "." + sv.pairs("=", ".", esc)
		case sv.isList || sv.isObject:
			return "." + sv.joined(sep, esc)
		}
		return "." + esc(sv.scalar)
	case StyleMatrix:
		switch {
		case sv.isObject && explode:
			return ";" + sv.pairs("=", ";", esc)
		case sv.isList && explode:
			var b strings.Builder
			for _, s := range sv.list {
				b.WriteString(";" + esc(name) + "=" + esc(s))
			}
			return b.String()
		case sv.isList || sv.isObject:
			return ";" + esc(name) + "=" + sv.joined(",", esc)
		}
		return ";" + esc(name) + "=" + esc(sv.scalar)
	}
	return sv.simple(explode, esc)
}

// simple is the simple style: "3,4,5"; an object "role,admin,firstName,Alex",
// exploded "role=admin,firstName=Alex".
func (v value) simple(explode bool, esc func(string) string) string {
	switch {
	case v.isObject && explode:
		return v.pairs("=", ",", esc)
	case v.isList || v.isObject:
		return v.joined(",", esc)
	}
	return esc(v.scalar)
}

// headerValue is the header's text for argument v (simple style).
func (p Param) headerValue(v json.RawMessage) string {
	_, explode := p.style()
	return splitValue(v).simple(explode, func(s string) string { return s })
}

// addQuery adds argument v to q under p's style: form exploded
// "id=3&id=4&id=5" (an object: "role=admin&firstName=Alex"), form
// "id=3,4,5", spaceDelimited "id=3 4 5", pipeDelimited "id=3|4|5",
// deepObject "id[role]=admin&id[firstName]=Alex". url.Values escapes
// each key and value.
func (p Param) addQuery(q url.Values, name string, v json.RawMessage) {
	if isNull(v) {
		return
	}
	style, explode := p.style()
	sv := splitValue(v)
	same := func(s string) string { return s }
	switch {
	case !sv.isList && !sv.isObject:
		q.Add(name, sv.scalar)
	case style == StyleDeepObject && sv.isObject:
		for i := 0; i+1 < len(sv.list); i += 2 {
			q.Add(name+"["+sv.list[i]+"]", sv.list[i+1])
		}
	case explode && sv.isObject:
		for i := 0; i+1 < len(sv.list); i += 2 {
			q.Add(sv.list[i], sv.list[i+1])
		}
	case explode:
		for _, s := range sv.list {
			q.Add(name, s)
		}
	case style == StyleSpaceDelimited:
		q.Add(name, sv.joined(" ", same))
	case style == StylePipeDelimited:
		q.Add(name, sv.joined("|", same))
	default:
		q.Add(name, sv.joined(",", same))
	}
}
