package render

// The MarshalJSON methods write into one buffer sized from the prepared
// bytes (names, descriptions, schemas) instead of growing an empty one:
// json.Marshal of a render then costs about what json.Marshal of the same
// entries already built does (render/bench_test.go measures both). The
// size is an estimate with room for escaping; an entry it underrates only
// makes the buffer grow.

// entryOverhead covers one entry's fixed keys, quotes and punctuation.
const entryOverhead = 112

// strSize is room for s as a JSON string, with some escapes.
func strSize(s string) int { return len(s) + len(s)/16 + 2 }

// schemaSize is room for a schema's bytes, or the empty schema written
// in their place.
func schemaSize(s []byte) int { return max(len(s), len(openAIEmptySchema)) }

// sizedEntry is an entry type whose MarshalJSON sizes its buffer.
type sizedEntry interface {
	AppendJSON([]byte) []byte
	size() int
}

// marshalList is the MarshalJSON of a list: the JSON array of the
// entries, written into one buffer sized for all of them.
func marshalList[T sizedEntry](ts []T) []byte {
	n := 2
	for i := range ts {
		n += ts[i].size() + 1
	}
	return appendList(make([]byte, 0, n), ts)
}

// marshalEntry is the MarshalJSON of one entry.
func marshalEntry[T sizedEntry](t T) []byte { return t.AppendJSON(make([]byte, 0, t.size())) }

func (t OpenAITool) size() int {
	n := entryOverhead + strSize(t.Function.Name) + strSize(t.Function.Description) + schemaSize(t.Function.Parameters)
	if f := t.Format; f != nil {
		n += strSize(f.Syntax) + strSize(f.Definition)
	}
	return n
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

func (t AnthropicTool) size() int {
	n := entryOverhead + strSize(t.Name) + strSize(t.Description) + schemaSize(t.InputSchema)
	for _, e := range t.InputExamples {
		n += len(e) + 1
	}
	return n
}

func (t GeminiTool) size() int {
	n := 32
	for i := range t.FunctionDeclarations {
		n += t.FunctionDeclarations[i].size() + 1
	}
	return n
}

func (d GeminiFunctionDeclaration) size() int {
	return entryOverhead + strSize(d.Name) + strSize(d.Description) + len(d.Parameters) + len(d.ParametersJSONSchema) + len(d.ResponseJSONSchema)
}

func (t MCPTool) size() int {
	n := entryOverhead + strSize(t.Name) + strSize(t.Title) + strSize(t.Description) + schemaSize(t.InputSchema) + len(t.OutputSchema)
	if a := t.Annotations; a != nil {
		n += 96 + strSize(a.Title)
	}
	return n
}
