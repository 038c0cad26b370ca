package render

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// OpenAIResponsesTool is one function tool of the OpenAI Responses API
// "tools" array. It is flat (no "function" wrapper):
//
//	{"type":"function","name":…,"description":…,"parameters":{…},"strict":false}
//
// Source: OpenAI API reference, Responses, "Create a model response",
// request body "tools" (FunctionTool;
// https://platform.openai.com/docs/api-reference/responses/create); Go SDK
// type responses.FunctionToolParam.
type OpenAIResponsesTool struct {
	Type        string          `json:"type"`        // "function"; "custom" (a freeform tool), "namespace" ([OpenAIResponsesNamespace]), "tool_search" ([OpenAIToolSearch])
	Name        string          `json:"name"`        // the tool's (or namespace's) name
	Description string          `json:"description"` // the description; "" is rendered as ""
	Parameters  json.RawMessage `json:"parameters"`  // JSON Schema object
	Strict      bool            `json:"strict"`      // always emitted for "function"

	// DeferLoading renders "defer_loading":true on a "function" or
	// "custom" entry: the model sees it only after a tool search finds it
	// (see [OpenAIResponsesTools.Defer]).
	DeferLoading bool `json:"-"`
	// AllowedCallers renders "allowed_callers" on a "function" entry (see
	// [OpenAIResponsesTools.AllowCallers]).
	AllowedCallers []string `json:"-"`
	// Format is the input format of a "custom" entry.
	Format *toolnexus.Format `json:"-"`
	// Tools are the entries of a "namespace" entry.
	Tools OpenAIResponsesTools `json:"-"`
}

// OpenAIResponsesTools is the Responses API "tools" array of function
// tools. Its json.Marshal output is exactly the array; nil marshals as [].
type OpenAIResponsesTools []OpenAIResponsesTool

// OpenAIResponses renders tools for the OpenAI Responses API, one
// {"type":"function","name","description","parameters","strict":false}
// entry per tool in the order given, with each schema's bytes shared, not
// copied; an object root without "properties" gets "properties":{} as in
// [OpenAI] ({"type":"object","properties":{}} when nil).
//
// "strict" is always explicit because the Responses API, unlike Chat
// Completions, treats an omitted "strict" as "try to make it strict and fall
// back silently" (OpenAI function-calling guide, "Strict mode"). Use
// [OpenAIResponsesWith] with OpenAIOptions{Strict: true} for strict mode.
//
// Like [OpenAI], a schema that is not a valid UTF-8 JSON object is
// replaced by {"type":"object"}, and a root oneOf, anyOf or allOf is sent
// unchanged; [OpenAIResponsesWith] and [CheckSchemas] report both instead.
func OpenAIResponses(tools []toolnexus.Tool) OpenAIResponsesTools {
	out := make(OpenAIResponsesTools, len(tools))
	for i := range tools {
		t := &tools[i]
		p, _ := openAIParams(schemaOf(t))
		out[i] = OpenAIResponsesTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: p}
		if t.Freeform != nil {
			out[i].Type, out[i].Format = "custom", t.Freeform
		}
	}
	return out
}

// OpenAIResponsesWith renders tools for the Responses API with options.
// With Strict each schema is rewritten exactly as [OpenAIStrict] documents
// and "strict" is true (false for a Fallback tool); errors are
// *SchemaError values naming the tool and the JSON path. Either way a name
// outside ^[a-zA-Z0-9_-]{1,64}$ is an error wrapping [ErrUnsupportedName],
// and without Strict a schema that is not a valid UTF-8 JSON object, or
// whose root has oneOf, anyOf or allOf, is a *SchemaError wrapping
// [ErrUnsupportedSchema].
func OpenAIResponsesWith(tools []toolnexus.Tool, opts OpenAIOptions) (OpenAIResponsesTools, error) {
	if !opts.Strict {
		if err := checkOpenAI(profileResponses, tools, "render.OpenAIResponsesWith"); err != nil {
			return nil, err
		}
		return OpenAIResponses(tools), nil
	}
	p := profileResponsesStrict
	if err := p.checkList("render.OpenAIResponsesWith", tools); err != nil {
		return nil, err
	}
	out := make(OpenAIResponsesTools, len(tools))
	for i := range tools {
		t := &tools[i]
		if err := p.checkName("render.OpenAIResponsesWith", t.Name); err != nil {
			return nil, err
		}
		if t.Freeform != nil {
			out[i] = OpenAIResponsesTool{Type: "custom", Name: t.Name, Description: t.Description, Format: t.Freeform}
			continue
		}
		params, _, strict, err := strictParams(t, p.Strict, opts.Fallback, "render.OpenAIResponsesWith")
		if err != nil {
			return nil, err
		}
		if !strict { // fallen back: the parameters OpenAIWith sends
			if params, err = openAIParams(schemaOf(t)); err != nil {
				return nil, withTool(err, "render.OpenAIResponsesWith", t.Name)
			}
		}
		out[i] = OpenAIResponsesTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: params, Strict: strict}
	}
	return out, nil
}

// MarshalJSON implements json.Marshaler. The buffer is sized once from
// the prepared bytes (names, descriptions, schemas).
func (ts OpenAIResponsesTools) MarshalJSON() ([]byte, error) { return marshalList(ts), nil }

// AppendJSON appends the JSON array to dst and returns the extended buffer.
func (ts OpenAIResponsesTools) AppendJSON(dst []byte) []byte {
	return appendList(dst, ts)
}

// MarshalJSON implements json.Marshaler with the same bytes the entry has
// inside [OpenAIResponsesTools], so one entry can be handed to an SDK as raw JSON
// (for openai-go: param.Override[responses.FunctionToolParam](t)).
func (t OpenAIResponsesTool) MarshalJSON() ([]byte, error) { return marshalEntry(t), nil }

// AppendJSON appends the entry's JSON object to dst.
func (t OpenAIResponsesTool) AppendJSON(dst []byte) []byte {
	switch t.Type {
	case "custom", "namespace", "tool_search":
		return t.appendOther(dst)
	}
	typ := t.Type
	if typ == "" {
		typ = "function"
	}
	dst = append(dst, `{"type":`...)
	dst = jsonx.AppendString(dst, typ)
	dst = append(dst, `,"name":`...)
	dst = jsonx.AppendString(dst, t.Name)
	dst = append(dst, `,"description":`...)
	dst = jsonx.AppendString(dst, t.Description)
	dst = append(dst, `,"parameters":`...)
	dst = appendOpenAISchema(dst, t.Parameters)
	if t.DeferLoading {
		dst = append(dst, `,"defer_loading":true`...)
	}
	dst = appendCallers(dst, t.AllowedCallers)
	if t.Strict {
		dst = append(dst, `,"strict":true}`...)
	} else {
		dst = append(dst, `,"strict":false}`...)
	}
	return dst
}

// appendOther appends a Responses entry that is not a function.
func (t OpenAIResponsesTool) appendOther(dst []byte) []byte {
	dst = append(dst, `{"type":`...)
	dst = jsonx.AppendString(dst, t.Type)
	switch t.Type {
	case "tool_search":
		dst = append(dst, `,"execution":"client","description":`...)
		dst = jsonx.AppendString(dst, t.Description)
		dst = append(dst, `,"parameters":`...)
		return append(appendSchema(dst, t.Parameters), '}')
	case "namespace":
		dst = append(dst, `,"name":`...)
		dst = jsonx.AppendString(dst, t.Name)
		dst = append(dst, `,"description":`...)
		dst = jsonx.AppendString(dst, t.Description)
		dst = append(dst, `,"tools":`...)
		return append(t.Tools.AppendJSON(dst), '}')
	}
	dst = append(dst, `,"name":`...)
	dst = jsonx.AppendString(dst, t.Name)
	dst = append(dst, `,"description":`...)
	dst = jsonx.AppendString(dst, t.Description)
	dst = append(dst, `,"format":`...)
	if f := t.Format; f != nil && f.Type == "grammar" {
		dst = append(dst, `{"type":"grammar","syntax":`...)
		dst = jsonx.AppendString(dst, f.Syntax)
		dst = append(dst, `,"definition":`...)
		dst = jsonx.AppendString(dst, f.Definition)
		dst = append(dst, '}')
	} else {
		dst = append(dst, `{"type":"text"}`...)
	}
	if t.DeferLoading {
		dst = append(dst, `,"defer_loading":true`...)
	}
	return append(dst, '}')
}

func (t OpenAIResponsesTool) size() int {
	n := entryOverhead + strSize(t.Name) + strSize(t.Description) + schemaSize(t.Parameters)
	if f := t.Format; f != nil {
		n += strSize(f.Syntax) + strSize(f.Definition)
	}
	for i := range t.Tools {
		n += t.Tools[i].size() + 1
	}
	return n
}

// AllowCallers sets the "allowed_callers" of the function entries named
// (inside namespaces too): "direct" (the model calls the function, the
// default when absent) and "programmatic" (the model's code in OpenAI's
// hosted code execution calls it). Such a call arrives as a function_call
// with "caller":{"type":"program",…}; package exec runs it as any other
// and echoes the caller on its function_call_output. A name that matches
// no function entry, an empty list or another caller is an error naming
// it; nothing is set then. openai-go: responses.FunctionToolParam.
// AllowedCallers ("direct", "programmatic").
func (ts OpenAIResponsesTools) AllowCallers(callers map[string][]string) error {
	found := map[string]bool{}
	var walk func(ts OpenAIResponsesTools, apply bool)
	walk = func(ts OpenAIResponsesTools, apply bool) {
		for i := range ts {
			switch ts[i].Type {
			case "namespace":
				walk(ts[i].Tools, apply)
			case "", "function":
				if c, ok := callers[ts[i].Name]; ok {
					found[ts[i].Name] = true
					if apply {
						ts[i].AllowedCallers = slices.Clone(c)
					}
				}
			}
		}
	}
	walk(ts, false)
	for _, n := range slices.Sorted(maps.Keys(callers)) {
		if !found[n] {
			return fmt.Errorf("render: AllowCallers: no function tool named %q", n)
		}
		if len(callers[n]) == 0 {
			return fmt.Errorf("render: AllowCallers: tool %q: the list is empty (leave the tool out for the default, direct calls only)", n)
		}
		for _, c := range callers[n] {
			if c != "direct" && c != "programmatic" {
				return fmt.Errorf("render: AllowCallers: tool %q: caller %q is neither \"direct\" nor \"programmatic\"", n, c)
			}
		}
	}
	walk(ts, true)
	return nil
}

// Defer marks the function and custom entries named (inside namespaces
// too, by their shown name) with "defer_loading":true: the model sees them
// only once a tool search loads them. The Responses API needs a
// tool_search entry in the same list ([OpenAIToolSearch]). A name that
// matches no entry is an error naming it; nothing is marked then.
func (ts OpenAIResponsesTools) Defer(names ...string) error {
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = false
	}
	var mark func(ts OpenAIResponsesTools, apply bool)
	mark = func(ts OpenAIResponsesTools, apply bool) {
		for i := range ts {
			switch ts[i].Type {
			case "namespace":
				mark(ts[i].Tools, apply)
			case "", "function", "custom":
				if _, ok := want[ts[i].Name]; ok {
					want[ts[i].Name] = true
					if apply {
						ts[i].DeferLoading = true
					}
				}
			}
		}
	}
	mark(ts, false)
	for _, n := range names {
		if !want[n] {
			return fmt.Errorf("render: Defer: no function or custom tool named %q", n)
		}
	}
	mark(ts, true)
	return nil
}

// OpenAIToolSearch returns the Responses entry of a client-executed tool
// search, {"type":"tool_search","execution":"client","description":…,
// "parameters":[ToolSearchSchema]}; "" gives a default description. The
// model then emits tool_search_call items for the host to answer.
// Source: OpenAI tool search guide; openai-go responses.ToolSearchToolParam.
func OpenAIToolSearch(description string) OpenAIResponsesTool {
	if description == "" {
		description = defaultToolSearchDescription
	}
	return OpenAIResponsesTool{Type: "tool_search", Description: description, Parameters: []byte(ToolSearchSchema)}
}

// OpenAIResponsesNamespace renders tools as one Responses namespace entry,
// {"type":"namespace","name":name,"description":…,"tools":[…]}. Each
// tool's registry name must be name + "__" + its name in the namespace
// (exec.NamespaceSeparator): "crm__lookup" is shown inside "crm" as
// "lookup", and the model's {"type":"function_call","namespace":"crm",
// "name":"lookup"} runs "crm__lookup" again in exec. The inner entries
// are rendered by [OpenAIResponsesWith] with opts (freeform tools as
// custom entries). Errors: name outside ^[a-zA-Z0-9_-]{1,64}$ or holding
// "__", an empty description, a tool without the prefix, and
// OpenAIResponsesWith's errors. Source: openai-go
// responses.NamespaceToolParam.
func OpenAIResponsesNamespace(name, description string, tools []toolnexus.Tool, opts OpenAIOptions) (OpenAIResponsesTool, error) {
	const renderer = "render.OpenAIResponsesNamespace"
	if err := profileResponses.checkName(renderer, name); err != nil {
		return OpenAIResponsesTool{}, err
	}
	if strings.Contains(name, "__") {
		return OpenAIResponsesTool{}, fmt.Errorf(`%s: namespace %q: must not contain "__"`, renderer, name)
	}
	if description == "" {
		return OpenAIResponsesTool{}, fmt.Errorf("%s: namespace %q: description must not be empty", renderer, name)
	}
	inner, err := OpenAIResponsesWith(tools, opts)
	if err != nil {
		return OpenAIResponsesTool{}, err
	}
	prefix := name + "__"
	for i := range inner {
		short, ok := strings.CutPrefix(inner[i].Name, prefix)
		if !ok || short == "" {
			return OpenAIResponsesTool{}, fmt.Errorf("%s: tool %q: name must start with %q and go on", renderer, inner[i].Name, prefix)
		}
		inner[i].Name = short
	}
	return OpenAIResponsesTool{Type: "namespace", Name: name, Description: description, Tools: inner}, nil
}

// OpenAIResponsesToolChoice returns the Responses "tool_choice" that
// forces tool t: {"type":"function","name":…}, or {"type":"custom",
// "name":…} for a freeform tool.
func OpenAIResponsesToolChoice(t toolnexus.Tool) []byte {
	typ := `{"type":"function","name":`
	if t.Freeform != nil {
		typ = `{"type":"custom","name":`
	}
	return append(jsonx.AppendString([]byte(typ), t.Name), '}')
}

// OpenAIResponsesAllowedTools is [OpenAIAllowedTools] for the Responses
// API: {"type":"allowed_tools","mode":mode,"tools":[{"type":"function",
// "name":…},…]} (a freeform tool as {"type":"custom","name":…}).
func OpenAIResponsesAllowedTools(mode string, tools []toolnexus.Tool) ([]byte, error) {
	return allowedTools(`{"type":"allowed_tools","mode":`, "]}", mode, tools, OpenAIResponsesToolChoice)
}
