package toolnexus

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolnexus/toolnexus/internal/textcap"
)

// Capped returns r with the text it shows a model cut to limit bytes; a
// negative limit means no cap. It is the one output cap: the registry
// applies it to every call ([Options.MaxOutputBytes], 1 MiB by default),
// and tools with a smaller budget of their own (MCP-loaded tools, 32 KiB
// by default) apply it too.
//
//   - Output, and the text of Content's text parts and text resources,
//     are made valid UTF-8 (invalid bytes become U+FFFD).
//   - A Structured value longer than limit is dropped whole, never cut
//     into invalid JSON. The text then ends with the note "[structured
//     result of N bytes dropped: over the output cap of M bytes]": on its
//     own line at the end of Output (without Content, Output first becomes
//     the structured JSON text, [Result.Text], so the model still reads
//     its head and tail) and as a last text part of Content.
//   - An Output longer than limit keeps its head and its tail, cut at
//     rune boundaries, with "\n\n[... N bytes truncated ...]\n\n" between
//     them; the result, note included, is at most limit bytes (a limit too
//     small for the note keeps the head alone).
//   - Content's text parts and text resources share one budget of limit
//     bytes, in order: parts are kept whole while they fit; the text parts
//     from the first that does not fit on are joined with "\n" into that
//     part, which keeps its head and tail as Output does. Binary parts
//     (images, audio, files, links) are kept as they are and do not count.
//
// Capped never changes the caller's Content slice; r's other fields are
// kept.
func (r Result) Capped(limit int) Result {
	r.Output = validText(r.Output)
	if len(r.Content) > 0 {
		r.Content = slices.Clone(r.Content)
		for i := range r.Content {
			r.Content[i].Text = validText(r.Content[i].Text)
		}
	}
	if limit < 0 {
		return r
	}
	if len(r.Structured) <= limit {
		r.Output = textcap.HeadTail(r.Output, limit)
		r.Content = capParts(r.Content, limit)
		return r
	}
	note := fmt.Sprintf("[structured result of %d bytes dropped: over the output cap of %d bytes]", len(r.Structured), limit)
	note = note[:textcap.RuneStart(note, limit)]
	if len(r.Content) == 0 {
		r.Output = r.Text()
	}
	r.Structured = nil
	room := max(limit-len(note)-1, 0)
	if r.Output != "" {
		r.Output = textcap.HeadTail(r.Output, room) + "\n" + note
		r.Output = r.Output[:textcap.RuneStart(r.Output, limit)]
	}
	if len(r.Content) > 0 {
		r.Content = append(capParts(r.Content, room), TextPart(note))
	}
	return r
}

// capParts applies Capped's budget of limit bytes to the text of parts,
// in place.
func capParts(parts []Part, limit int) []Part {
	for i, p := range parts {
		if p.IsBinary() {
			continue
		}
		if len(p.Text) <= limit {
			limit -= len(p.Text)
			continue
		}
		var texts []string
		kept := parts[:i+1]
		for _, q := range parts[i:] { // kept never grows past q
			if q.IsBinary() {
				kept = append(kept, q)
			} else {
				texts = append(texts, q.Text)
			}
		}
		kept[i].Text = textcap.HeadTail(strings.Join(texts, "\n"), limit)
		return kept
	}
	return parts
}
