package render

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// This file is the one table of what each provider API accepts beyond
// JSON Schema. Every renderer, the key renaming and package exec read
// their provider's rules from here; adding a provider or changing a limit
// is an edit of this table.

// Profile is what one provider API accepts in the tools of one request,
// beyond JSON Schema itself. Each rule carries its source: the provider's
// documentation, its official SDK, or the text of an API error quoted in
// a public report. The profiles are listed by [Profiles]; renderers and
// package exec consult them, and [Check] checks a tool against them at
// registration.
type Profile struct {
	// Name is the profile's name: the provider name of the toolnexus
	// command's --format ("openai-chat", "anthropic", …), with "-strict"
	// for a strict mode and "-json-schema" for Gemini's
	// parametersJsonSchema.
	Name string
	// API names the provider API and the render function of the profile.
	API string
	// ToolName is the rule for tool names.
	ToolName Pattern
	// PropertyKey is the rule for property keys at any level of an input
	// schema; an empty Pattern means none is documented. A key outside it
	// is refused, or renamed with the RenameKeys option of the renderer
	// (see [RestoreKeys]).
	PropertyKey Pattern
	// MaxTools is the most tools one request may hold (0: none
	// documented). Over it, rendering is an error wrapping
	// [ErrTooManyTools].
	MaxTools Limit
	// MaxDescription is the longest tool description, in characters
	// (runes) (0: none documented).
	MaxDescription Limit
	// Root is the rule on the root of an input schema.
	Root RootRule
	// Strict is the schema subset of the strict mode, nil outside one.
	Strict *StrictRules
}

// RootRule is what a provider requires of the root of an input schema,
// beyond being a JSON object; a schema that breaks it is a *SchemaError
// wrapping ErrUnsupportedSchema. The zero RootRule requires nothing.
type RootRule struct {
	Object  bool     // the root must have "type":"object"
	Refused []string // keywords refused at the root (oneOf, anyOf, …)
	Source  string   // where the rule is stated
}

// check returns the *SchemaError (without Renderer and Tool) for a root
// that breaks r, nil when none; provider names the provider in it.
func (r RootRule) check(root *jsonx.Object, provider string) error {
	for _, k := range root.Keys {
		if slices.Contains(r.Refused, k) {
			return &SchemaError{Path: "/" + pointerToken(k), Msg: provider + " refuses " + k + " at the root of the input schema; " +
				"make the root one object schema (for example one optional property per alternative, checked by the handler)",
				Err: ErrUnsupportedSchema}
		}
	}
	if t, _ := root.Get("type"); r.Object && t != "object" {
		return &SchemaError{Path: "/type", Msg: provider + ` requires "type":"object" at the root of the input schema`, Err: ErrUnsupportedSchema}
	}
	return nil
}

// Pattern is a rule that a name must match, with its source: a first
// character from one set, the others from another, a length in a range.
// The zero Pattern means no rule.
type Pattern struct {
	Regexp string // the rule as an RE2 expression matching the whole name, e.g. ^[a-zA-Z0-9_-]{1,64}$; "" is no rule
	Source string // where the rule is stated: a documentation URL, an SDK file, or a quoted API error

	first, rest *[256]bool // the bytes allowed first and after; nil for no rule
	min, max    int        // length in bytes
}

// Match reports whether s follows the rule (always true for the zero
// Pattern).
func (p Pattern) Match(s string) bool {
	if p.first == nil {
		return true
	}
	if len(s) < p.min || len(s) > p.max || !p.first[s[0]] {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !p.rest[s[i]] {
			return false
		}
	}
	return true
}

// charPattern is the Pattern of names of min to max (min ≥ 1) ASCII
// characters from the class rest, the first from the class first ("":
// rest too). A class is written as in a regular expression: ranges a-z
// and single characters, "-" last.
func charPattern(first, rest string, min, max int, source string) Pattern {
	set := func(class string) *[256]bool {
		var b [256]bool
		for i := 0; i < len(class); i++ {
			if i+2 < len(class) && class[i+1] == '-' {
				for c := class[i]; c <= class[i+2]; c++ {
					b[c] = true
				}
				i += 2
				continue
			}
			b[class[i]] = true
		}
		return &b
	}
	p := Pattern{Source: source, rest: set(rest), min: min, max: max}
	if first == "" {
		p.first = p.rest
		p.Regexp = fmt.Sprintf("^[%s]{%d,%d}$", rest, min, max)
	} else {
		p.first = set(first)
		p.Regexp = fmt.Sprintf("^[%s][%s]{%d,%d}$", first, rest, min-1, max-1)
	}
	return p
}

// Limit is a documented most, with its source. Max 0 means none is
// documented.
type Limit struct {
	Max    int    // the most allowed; 0 is no limit
	Source string // where the limit is stated
}

// StrictRules is the JSON Schema subset of a strict mode (OpenAI
// Structured Outputs, Anthropic strict tool use), applied by the strict
// rewrite of [OpenAIStrict] and [AnthropicWith]. A keyword outside
// Keywords that Execute enforces is dropped from the provider's copy and
// stated as a description hint ("Must be at least 1."); a keyword of
// Rejected makes the schema not strictable (ErrNotStrict).
type StrictRules struct {
	Source string // the provider's page on the subset

	// Keywords are the assertion keywords kept in the strict copy as they
	// are, beside the structural ones every strict mode takes (type, enum,
	// const, properties, required, items, anyOf, $ref, $defs,
	// additionalProperties:false, title, description).
	Keywords []string
	// Formats are the string formats kept; others are dropped with a hint.
	Formats []string
	// Rejected are the keywords no rewrite can keep the meaning of.
	Rejected []string
	// MaxMinItems is the largest minItems kept (Anthropic: 1); a larger
	// one is dropped with a hint. -1 means any.
	MaxMinItems int
	// Recursive reports whether a schema may refer to itself.
	Recursive bool
	// Optional reports whether a property may stay optional. When false
	// (OpenAI), every property is required and an optional one becomes
	// nullable.
	Optional bool

	MaxDepth        Limit // object nesting levels, the root object being 1
	MaxProperties   Limit // object properties in one schema, $defs included
	MaxEnumValues   Limit // enum values in one schema
	MaxStringLength Limit // characters of property names, $defs names, enum and const values
	// LargeEnum and LargeEnumLength: a string enum of more than
	// LargeEnum.Max values may total at most LargeEnumLength.Max
	// characters.
	LargeEnum, LargeEnumLength Limit

	// Per request, over every strict tool of the list.
	MaxStrictTools Limit // strict tools
	MaxOptional    Limit // optional properties
	MaxUnions      Limit // union-typed nodes: anyOf, or a type array such as ["string","null"]

	cache    *rewriteCache // the strict rewrite under these rules, by schema bytes
	root     RootRule      // the profile's root rule, checked by the rewrite
	provider string        // the provider's name in the root rule's errors
}

// Sentinel causes of the profile rules, beside those of [SchemaError].
var (
	// ErrTooManyTools reports a tool list longer than the provider's most
	// tools per request (Profile.MaxTools) or strict tools per request.
	ErrTooManyTools = errors.New("too many tools for the provider")

	// ErrPropertyKey reports a property key outside the provider's
	// Profile.PropertyKey rule, rendered without RenameKeys.
	ErrPropertyKey = errors.New("property key not accepted by the provider")
)

const (
	srcOpenAIName      = "openai-go v3.102.0 shared/shared.go FunctionDefinitionParam.Name: \"Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64\"; https://platform.openai.com/docs/api-reference/chat/create"
	srcOpenAITools     = "API error \"Invalid 'tools': array too long. Expected an array with maximum length 128\" (code array_above_max_length), https://github.com/julep-ai/julep/issues/330"
	srcOpenAIDesc      = "API error \"Invalid 'tools[13].function.description': string too long. Expected a string with maximum length 1024\" (code string_above_max_length), https://github.com/getsentry/sentry-mcp/issues/106 (2025-04; https://github.com/run-llama/llama_index/pull/18784 reports it gone in 2025-05; kept, as the registry's own limit is 1024)"
	srcResponses       = "not documented for Responses: the Chat Completions rule is applied (https://platform.openai.com/docs/api-reference/responses/create)"
	srcOpenAIStrict    = "https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas"
	srcAnthropicName   = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools (tools[].name ^[a-zA-Z0-9_-]{1,64}$)"
	srcAnthropicKey    = "API error \"tools.14.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'\", https://github.com/anthropics/claude-code/issues/79418"
	srcAnthropicStrict = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations"
	srcGeminiName      = "genai v1.77.0 types.go FunctionDeclaration.Name (start with a letter or _, then a-z A-Z 0-9 _ . : -); 64, not the comment's 128, from the API error in https://github.com/google-gemini/gemini-cli/issues/2966"
	srcGeminiKey       = "genai v1.77.0 types.go FunctionDeclaration.Parameters: \"Parameter names must start with a letter or an underscore and must only contain chars a-z, A-Z, 0-9, or underscores with a maximum length of 64\""
	srcGeminiTools     = "genai v1.77.0 types.go Tool.FunctionDeclarations: \"Maximum 512 function declarations can be provided\""
	srcOpenAIRoot      = "API error \"Invalid schema for function '…': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not' at the top level\", https://github.com/goruck/home-generative-agent/pull/545 (2026-08; without const in https://github.com/langchain-ai/langchainjs/issues/9804)"
	srcAnthropicRoot   = "API errors \"input_schema does not support oneOf, allOf, or anyOf at the top level\" (https://github.com/software-mansion/argent/issues/773) and \"tools.N.custom.input_schema.type: Field required\"; https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools"
	srcMCPName         = "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names (SHOULD: 1 to 128 characters of A-Z a-z 0-9 _ - .)"
)

// strictRejected are the keywords whose meaning no strict mode can keep.
var strictRejected = []string{
	"allOf", "not", "if", "then", "else",
	"dependentRequired", "dependentSchemas", "dependencies",
	"patternProperties", "propertyNames", "unevaluatedProperties",
	"unevaluatedItems", "contains", "minContains", "maxContains",
	"prefixItems",
}

var openAIStrictRules = &StrictRules{
	Source: srcOpenAIStrict,
	Keywords: []string{"pattern", "minLength", "maxLength", "minimum", "maximum",
		"exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems"},
	Formats:         []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"},
	Rejected:        strictRejected,
	MaxMinItems:     -1,
	Recursive:       true,
	MaxDepth:        Limit{StrictMaxDepth, srcOpenAIStrict},
	MaxProperties:   Limit{StrictMaxProperties, srcOpenAIStrict},
	MaxEnumValues:   Limit{StrictMaxEnumValues, srcOpenAIStrict},
	MaxStringLength: Limit{StrictMaxStringLength, srcOpenAIStrict},
	LargeEnum:       Limit{StrictLargeEnum, srcOpenAIStrict},
	LargeEnumLength: Limit{StrictLargeEnumLength, srcOpenAIStrict},
	cache:           &rewriteCache{},
	root:            openAIRoot,
	provider:        "OpenAI",
}

var anthropicStrictRules = &StrictRules{
	Source:         srcAnthropicStrict,
	Keywords:       []string{"pattern", "minItems"},
	Formats:        []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"},
	Rejected:       strictRejected,
	MaxMinItems:    1,
	Optional:       true,
	MaxStrictTools: Limit{20, srcAnthropicStrict},
	MaxOptional:    Limit{24, srcAnthropicStrict},
	MaxUnions:      Limit{16, srcAnthropicStrict},
	cache:          &rewriteCache{},
	root:           anthropicRoot,
	provider:       "Anthropic",
}

var (
	openAIName     = charPattern("", "a-zA-Z0-9_-", 1, 64, srcOpenAIName)
	anthropicName  = charPattern("", "a-zA-Z0-9_-", 1, 64, srcAnthropicName)
	anthropicKey   = charPattern("", "a-zA-Z0-9_.-", 1, 64, srcAnthropicKey)
	geminiName     = charPattern("A-Za-z_", "A-Za-z0-9_.:-", 1, 64, srcGeminiName)
	geminiParamKey = charPattern("A-Za-z_", "A-Za-z0-9_", 1, 64, srcGeminiKey)
	openAITools    = Limit{128, srcOpenAITools}
	openAIDesc     = Limit{1024, srcOpenAIDesc}
	responsesName  = charPattern("", "a-zA-Z0-9_-", 1, 64, srcResponses)
	responsesTools = Limit{128, srcResponses}
	responsesDesc  = Limit{1024, srcResponses}
	geminiTools    = Limit{512, srcGeminiTools}
	openAIRoot     = RootRule{Object: true, Refused: []string{"oneOf", "anyOf", "allOf", "enum", "const", "not"}, Source: srcOpenAIRoot}
	anthropicRoot  = RootRule{Object: true, Refused: []string{"oneOf", "anyOf", "allOf"}, Source: srcAnthropicRoot}
)

// The profiles, one per provider API and mode.
var (
	profileOpenAIChat = &Profile{Name: "openai-chat", API: "OpenAI Chat Completions (OpenAI, OpenAIWith)",
		ToolName: openAIName, MaxTools: openAITools, MaxDescription: openAIDesc, Root: openAIRoot}
	profileOpenAIChatStrict = &Profile{Name: "openai-chat-strict", API: "OpenAI Chat Completions, strict (OpenAIStrict)",
		ToolName: openAIName, MaxTools: openAITools, MaxDescription: openAIDesc, Root: openAIRoot, Strict: openAIStrictRules}
	profileResponses = &Profile{Name: "openai-responses", API: "OpenAI Responses (OpenAIResponses, OpenAIResponsesWith)",
		ToolName: responsesName, MaxTools: responsesTools, MaxDescription: responsesDesc, Root: openAIRoot}
	profileResponsesStrict = &Profile{Name: "openai-responses-strict", API: "OpenAI Responses, strict (OpenAIResponsesWith)",
		ToolName: responsesName, MaxTools: responsesTools, MaxDescription: responsesDesc, Root: openAIRoot, Strict: openAIStrictRules}
	profileAnthropic = &Profile{Name: "anthropic", API: "Anthropic Messages (Anthropic, AnthropicWith)",
		ToolName: anthropicName, PropertyKey: anthropicKey, Root: anthropicRoot}
	profileAnthropicStrict = &Profile{Name: "anthropic-strict", API: "Anthropic Messages, strict tool use (AnthropicWith)",
		ToolName: anthropicName, PropertyKey: anthropicKey, Root: anthropicRoot, Strict: anthropicStrictRules}
	profileGemini = &Profile{Name: "gemini", API: "Gemini \"parameters\" (Gemini, GeminiWith)",
		ToolName: geminiName, PropertyKey: geminiParamKey, MaxTools: geminiTools}
	profileGeminiJSONSchema = &Profile{Name: "gemini-json-schema", API: "Gemini \"parametersJsonSchema\" (GeminiWith, JSONSchema)",
		ToolName: geminiName, MaxTools: geminiTools}
	profileMCP = &Profile{Name: "mcp", API: "MCP tools/list (MCP)",
		ToolName: charPattern("", "A-Za-z0-9_.-", 1, 128, srcMCPName)}

	profiles = []*Profile{profileOpenAIChat, profileOpenAIChatStrict, profileResponses, profileResponsesStrict,
		profileAnthropic, profileAnthropicStrict, profileGemini, profileGeminiJSONSchema, profileMCP}
)

// Profiles returns the profile table, one entry per provider API and
// mode, in a fixed order. The entries are copies: changing them changes
// nothing the renderers do.
func Profiles() []Profile {
	out := make([]Profile, len(profiles))
	for i, p := range profiles {
		out[i] = *p
		if p.Strict != nil {
			s := *p.Strict
			s.Keywords, s.Formats, s.Rejected = slices.Clone(s.Keywords), slices.Clone(s.Formats), slices.Clone(s.Rejected)
			out[i].Strict = &s
		}
	}
	return out
}

// profileNamed returns the profile called name, nil when none is.
func profileNamed(name string) *Profile {
	for _, p := range profiles {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// checkName returns an error wrapping ErrUnsupportedName unless the tool
// name follows p's ToolName rule.
func (p *Profile) checkName(renderer, name string) error {
	if !p.ToolName.Match(name) {
		return fmt.Errorf("%s: tool %q: %s tool names must match %s: %w", renderer, name, p.Name, p.ToolName.Regexp, ErrUnsupportedName)
	}
	return nil
}

// checkList reports a list longer than p's MaxTools, or a description
// longer than MaxDescription; errors name renderer and, for a
// description, the tool.
func (p *Profile) checkList(renderer string, tools []toolnexus.Tool) error {
	if m := p.MaxTools.Max; m > 0 && len(tools) > m {
		return fmt.Errorf("%s: %d tools, more than the %d a %s request may hold (defer some with tool search, or send fewer): %w",
			renderer, len(tools), m, p.Name, ErrTooManyTools)
	}
	if m := p.MaxDescription.Max; m > 0 {
		for i := range tools {
			if d := tools[i].Description; len(d) <= m {
				continue // never more runes than bytes
			}
			if n := utf8.RuneCountInString(tools[i].Description); n > m {
				return &SchemaError{Renderer: renderer, Tool: tools[i].Name, Path: "",
					Msg: fmt.Sprintf("the description is %d characters, more than the %d of %s", n, m, p.Name), Err: ErrSchemaLimit}
			}
		}
	}
	return nil
}

// Check returns a check of one tool against the named profiles (see
// [Profiles] for the names), for toolnexus.Options.CheckTool: the error
// of rendering the tool alone for each profile with its renderer's
// default options (no RenameKeys, no Fallback), so a tool name, property
// key, strict-mode subset or limit a target provider refuses fails at
// registration instead of at the first request. Limits per request
// (MaxTools, strict tools, optional and union counts over the list) are
// checked when the list is rendered. An unknown profile name makes every
// check fail, naming it and the known ones. It is CheckWith with the zero
// CheckOptions.
//
//	reg := toolnexus.NewRegistryWith(&toolnexus.Options{
//		CheckTool: render.Check("anthropic-strict", "openai-chat"),
//	})
func Check(names ...string) func(toolnexus.Tool) error { return CheckWith(CheckOptions{}, names...) }

// CheckOptions are the rendering options a program uses, for
// [CheckWith]: what the program adapts is not refused at registration.
type CheckOptions struct {
	// RenameKeys: the program renders with RenameKeys (Anthropic, Gemini),
	// so a property key a profile refuses is renamed, not an error.
	RenameKeys bool
	// Fallback: the program renders strict profiles with Fallback, so a
	// tool a strict mode cannot take is sent without strict, not an error.
	Fallback bool
}

// CheckWith is [Check] for a program that renders with opts.
func CheckWith(opts CheckOptions, names ...string) func(toolnexus.Tool) error {
	ps := make([]*Profile, len(names))
	var unknown error
	for i, n := range names {
		if ps[i] = profileNamed(n); ps[i] == nil && unknown == nil {
			known := make([]string, len(profiles))
			for j, p := range profiles {
				known[j] = p.Name
			}
			unknown = fmt.Errorf("render.Check: no profile named %q (the profiles: %s)", n, strings.Join(known, ", "))
		}
	}
	return func(t toolnexus.Tool) error {
		if unknown != nil {
			return unknown
		}
		one := []toolnexus.Tool{t}
		for _, p := range ps {
			if err := renderProfile(p, one, opts); err != nil {
				return err
			}
		}
		return nil
	}
}

// renderProfile renders tools for profile p with opts, for the error
// alone.
func renderProfile(p *Profile, tools []toolnexus.Tool, opts CheckOptions) error {
	var err error
	strict := p.Strict != nil
	switch p {
	case profileOpenAIChat, profileOpenAIChatStrict:
		_, err = OpenAIWith(tools, OpenAIOptions{Strict: strict, Fallback: opts.Fallback})
	case profileResponses, profileResponsesStrict:
		_, err = OpenAIResponsesWith(tools, OpenAIOptions{Strict: strict, Fallback: opts.Fallback})
	case profileAnthropic, profileAnthropicStrict:
		_, err = AnthropicWith(tools, AnthropicOptions{Strict: strict, Fallback: opts.Fallback, RenameKeys: opts.RenameKeys})
	case profileGemini, profileGeminiJSONSchema:
		_, err = GeminiWith(tools, GeminiOptions{JSONSchema: p == profileGeminiJSONSchema, RenameKeys: opts.RenameKeys})
	case profileMCP:
		for i := range tools {
			if err = p.checkName("render.MCP", tools[i].Name); err != nil {
				break
			}
		}
	}
	return err
}

// perRequest reports the strict tool tool, the nth strict one of its
// list, going past a per-request limit: the most strict tools, or the
// optional properties or union-typed schemas of the strict tools before
// it (sum) and its own (n) together. The error wraps ErrTooManyTools for
// the tool count and ErrSchemaLimit for the others.
func (r *StrictRules) perRequest(renderer, tool string, nth int, sum, n strictStats) error {
	switch {
	case over(r.MaxStrictTools, nth):
		return &SchemaError{Renderer: renderer, Tool: tool, Msg: fmt.Sprintf("the %d strict tools of the list are more than the %d strict mode allows per request (set Fallback to send the others without strict)", nth, r.MaxStrictTools.Max), Err: ErrTooManyTools}
	case over(r.MaxOptional, sum.optional+n.optional):
		return &SchemaError{Renderer: renderer, Tool: tool, Msg: fmt.Sprintf("the strict tools up to this one have %d optional properties, more than the %d strict mode allows per request (set Fallback to send the others without strict)", sum.optional+n.optional, r.MaxOptional.Max), Err: ErrSchemaLimit}
	case over(r.MaxUnions, sum.unions+n.unions):
		return &SchemaError{Renderer: renderer, Tool: tool, Msg: fmt.Sprintf("the strict tools up to this one have %d union-typed schemas (anyOf, or a type array), more than the %d strict mode allows per request (set Fallback to send the others without strict)", sum.unions+n.unions, r.MaxUnions.Max), Err: ErrSchemaLimit}
	}
	return nil
}
