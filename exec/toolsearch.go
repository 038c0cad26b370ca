package exec

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/argtype"
	"github.com/toolnexus/toolnexus/render"
)

// DefaultToolSearchLimit is the most tools one tool search returns when
// ToolSearch.Limit is zero.
const DefaultToolSearchLimit = 5

// maxQueryWords is the most words of a query that are searched for; the
// rest are ignored.
const maxQueryWords = 32

// ToolSearch configures the answers to client-executed tool searches
// (Options.ToolSearch):
//
//   - OpenAI Responses: a tool_search_call item with "execution":"client"
//     (the model calls the entry of render.OpenAIToolSearch) is answered
//     with a tool_search_output item whose "tools" are the tools found,
//     rendered as Responses entries with "defer_loading":true (see
//     [ResponsesOutput]).
//   - Anthropic: a tool_use of render.ToolSearchName (the tool of
//     render.AnthropicToolSearch) is answered with a tool_result whose
//     content is one {"type":"tool_reference","tool_name":…} block per
//     tool found, or a text saying that none matched.
//
// Both take the arguments of render.ToolSearchSchema, {"query":"…"}, and
// search the same way: the query is split into words (runs of letters and
// digits, lower-cased; a few words such as "the" and "for" are ignored,
// and words after the 32nd); each tool named in Deferred scores, per word,
// 4 when the word is one of the name's words (split at "_", "-" and
// lower-to-upper case changes), else 2 when the name holds it (words of 3
// letters or more), plus 2 when it is a word of the description, else 1
// when it starts one (3 letters or more). Tools scoring more than zero are
// returned best first, ties by name, at most Limit of them.
//
// Arguments that are not a JSON object with a non-empty string "query"
// (and nothing else) find nothing: on Anthropic the answer is an error
// result naming the problem (`invalid arguments for "tool_search": "query"
// is required`); a tool_search_output has no place for an error, so it
// lists no tools and the Result's Output (logged, never sent) says why.
// Searches run no hook (Before, After) and no registry tool.
type ToolSearch struct {
	// Deferred names the registry tools a search may find: the tools
	// rendered with defer_loading (render.OpenAIResponsesTools.Defer,
	// render.AnthropicOptions.Defer). A name the registry does not hold is
	// never found; with none, every search finds nothing.
	Deferred []string

	// Limit is the most tools one search returns; zero or less means
	// DefaultToolSearchLimit (5).
	Limit int

	// OpenAI are the options the found tools are rendered with in a
	// tool_search_output, as by render.OpenAIResponsesWith; give the
	// options the other tools were rendered with, so that the schema the
	// model is shown is the one that runs. A tool that these options
	// cannot render (render.OpenAIResponsesWith fails on it) is left out,
	// and the Result's Output ("Tools found: a, b") names only the tools
	// returned.
	OpenAI render.OpenAIOptions

	// Namespaces maps a namespace name to its description, as given to
	// render.OpenAIResponsesNamespace. In a tool_search_output, the tools
	// found whose registry name is such a namespace + "__" + a name are
	// returned inside one entry {"type":"namespace","name":…,
	// "description":…,"tools":[…]} rendered by
	// render.OpenAIResponsesNamespace (each inner entry with
	// "defer_loading":true), placed where the best of them ranks; the
	// model then calls them by namespace and name, which runs the same
	// registry tool. Other found tools are top-level entries. Anthropic
	// answers name registry tools and ignore Namespaces.
	Namespaces map[string]string
}

// toolSearchName is the Call.Name of a tool search, in results and logs.
const toolSearchName = render.ToolSearchName

// toolSearchProblem checks the arguments of a tool search and returns the
// query, or "" and the problem.
func toolSearchProblem(args json.RawMessage) (query, problem string) {
	args = unwrapArguments(args)
	var m map[string]json.RawMessage
	if len(args) == 0 || json.Unmarshal(args, &m) != nil || m == nil {
		return "", `the arguments must be a JSON object with a string "query"`
	}
	for k := range m {
		if k != "query" {
			return "", fmt.Sprintf("unknown property %q; allowed: query", argtype.Cut(k))
		}
	}
	raw, ok := m["query"]
	if !ok {
		return "", `"query" is required`
	}
	if json.Unmarshal(raw, &query) != nil || firstByte(raw) != '"' {
		return "", fmt.Sprintf(`"query" is %s, want a string`, jsonKind(raw))
	}
	if len(searchWords(query, false, maxQueryWords)) == 0 {
		return "", `"query" holds no word to look for: give words from tool names or descriptions`
	}
	return query, ""
}

// search runs a tool search call (call.search) and returns its result:
// found holds the tools found, best first.
func (e *Executor) search(ctx context.Context, call Call, start time.Time) Result {
	r := Result{ID: call.ID, Name: call.Name}
	query, problem := toolSearchProblem(call.Arguments)
	switch {
	case problem != "":
		r.Output = validUTF8(fmt.Sprintf("invalid arguments for %q: %s", toolSearchName, problem))
		r.IsError, r.Err = true, fmt.Errorf("%w: tool %q: %s", toolnexus.ErrInvalidArguments, toolSearchName, problem)
	default:
		var ts ToolSearch
		if e.opts.ToolSearch != nil {
			ts = *e.opts.ToolSearch
		}
		candidates := make([]toolnexus.Tool, 0, len(ts.Deferred))
		seen := make(map[string]bool, len(ts.Deferred))
		for _, name := range ts.Deferred {
			if t, ok := e.registry().Get(name); ok && !seen[name] {
				seen[name] = true
				candidates = append(candidates, t)
			}
		}
		limit := ts.Limit
		if limit <= 0 {
			limit = DefaultToolSearchLimit
		}
		r.found = searchTools(candidates, query, limit)
		if call.responses {
			// Name only the tools the tool_search_output returns.
			r.searchOut, r.found = e.searchOutputTools(r.found)
		}
		if len(r.found) == 0 {
			r.Output = validUTF8(fmt.Sprintf("No tool matches %q.", argtype.Cut(query)))
		} else {
			names := make([]string, len(r.found))
			for i := range r.found {
				names[i] = r.found[i].Name
			}
			r.Output = "Tools found: " + strings.Join(names, ", ")
		}
	}
	r.Duration = time.Since(start)
	e.log(ctx, call.Arguments, &r)
	return r
}

// searchTools returns up to limit of tools that match query, best first
// (ties by name); the scoring is documented on [ToolSearch].
func searchTools(tools []toolnexus.Tool, query string, limit int) []toolnexus.Tool {
	words := searchWords(query, false, maxQueryWords)
	type hit struct {
		score int
		tool  *toolnexus.Tool
	}
	var hits []hit
	for i := range tools {
		t := &tools[i]
		name := strings.ToLower(t.Name)
		nameWords := searchWords(t.Name, true, 0)
		descWords := searchWords(t.Description, false, 0)
		score := 0
		for _, w := range words {
			switch {
			case slices.Contains(nameWords, w):
				score += 4
			case len(w) >= 3 && strings.Contains(name, w):
				score += 2
			}
			switch {
			case slices.Contains(descWords, w):
				score += 2
			case len(w) >= 3 && slices.ContainsFunc(descWords, func(d string) bool { return strings.HasPrefix(d, w) }):
				score++
			}
		}
		if score > 0 {
			hits = append(hits, hit{score, t})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.tool.Name, b.tool.Name)
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	var out []toolnexus.Tool
	for _, h := range hits {
		out = append(out, *h.tool)
	}
	return out
}

// stopWords are query words that say nothing about a tool.
var stopWords = map[string]bool{"a": true, "an": true, "and": true, "are": true, "as": true, "at": true,
	"be": true, "by": true, "for": true, "from": true, "in": true, "is": true, "it": true, "of": true,
	"on": true, "or": true, "the": true, "to": true, "with": true}

// searchWords splits s into lower-case words: runs of letters and
// digits, also split at a lower-to-upper case change when camel is set.
// Stop words are dropped. With max > 0 (a query), each word is kept once
// and only the first max are kept.
func searchWords(s string, camel bool, max int) []string {
	var words []string
	add := func(w string) {
		w = strings.ToLower(w)
		if stopWords[w] || max > 0 && (len(words) >= max || slices.Contains(words, w)) {
			return
		}
		words = append(words, w)
	}
	start, prevLower := -1, false
	for i, c := range s {
		alnum := unicode.IsLetter(c) || unicode.IsDigit(c)
		switch {
		case !alnum:
			if start >= 0 {
				add(s[start:i])
				start = -1
			}
		case start < 0:
			start = i
		case camel && prevLower && unicode.IsUpper(c):
			add(s[start:i])
			start = i
		}
		prevLower = alnum && unicode.IsLower(c)
	}
	if start >= 0 {
		add(s[start:])
	}
	return words
}

// searchOutputTools renders the tools of a tool_search_output: each as
// render.OpenAIResponsesWith renders it with ToolSearch.OpenAI, with
// "defer_loading":true, those of a known namespace grouped into one
// namespace entry; a tool (or namespace) the renderer refuses is left
// out. Never nil. kept is found without the tools left out, in its order.
func (e *Executor) searchOutputTools(found []toolnexus.Tool) (out render.OpenAIResponsesTools, kept []toolnexus.Tool) {
	var ts ToolSearch
	if e.opts.ToolSearch != nil {
		ts = *e.opts.ToolSearch
	}
	// slots in rank order: a tool alone, or the tools of one namespace.
	type slot struct {
		ns    string
		tools []toolnexus.Tool
	}
	var slots []slot
	for _, t := range found {
		ns, _, ok := strings.Cut(t.Name, NamespaceSeparator)
		if _, known := ts.Namespaces[ns]; !ok || !known {
			slots = append(slots, slot{tools: []toolnexus.Tool{t}})
			continue
		}
		if i := slices.IndexFunc(slots, func(s slot) bool { return s.ns == ns }); i >= 0 {
			slots[i].tools = append(slots[i].tools, t)
		} else {
			slots = append(slots, slot{ns: ns, tools: []toolnexus.Tool{t}})
		}
	}
	out = render.OpenAIResponsesTools{}
	left := map[string]bool{} // names of the tools left out
	for _, s := range slots {
		if s.ns != "" {
			entry, err := render.OpenAIResponsesNamespace(s.ns, ts.Namespaces[s.ns], s.tools, ts.OpenAI)
			if err != nil {
				for _, t := range s.tools {
					left[t.Name] = true
				}
				continue
			}
			for i := range entry.Tools {
				entry.Tools[i].DeferLoading = true
			}
			out = append(out, entry)
			continue
		}
		r, err := render.OpenAIResponsesWith(s.tools, ts.OpenAI)
		if err != nil {
			left[s.tools[0].Name] = true
			continue
		}
		r[0].DeferLoading = true
		out = append(out, r[0])
	}
	if len(left) == 0 {
		return out, found
	}
	for _, t := range found {
		if !left[t.Name] {
			kept = append(kept, t)
		}
	}
	return out, kept
}
