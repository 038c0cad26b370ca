package toolnexus

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolnexus/toolnexus/internal/textcap"
)

// Capped returns r with the text it shows a model cut to limit bytes; a
// negative limit means no cap. It is the one output cap: the registry
// applies it to every call ([Options.MaxOutputBytes], 32 KiB by default,
// the default of the built-in and MCP-loaded tools' own budgets too).
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
//   - Content shares one budget of limit bytes, measured as
//     [ContentText] shows it (a "\n" between two parts counts). Binary
//     parts (images, audio, files, links) go first, each costing its
//     stand-in ([Part.Summary]) plus its name: in order, a part that fits
//     in what is left is kept as it is, Data included (Data is not
//     counted), and one that does not is dropped; when any is dropped, a
//     last text part "[N content parts dropped: over the output cap of M
//     bytes]" says how many, and room for it is kept. Text parts and text
//     resources share what is left, in order: parts are kept whole while
//     they fit; the text parts from the first that does not fit on are
//     joined with "\n" into that part, which keeps its head and tail as
//     Output does. So ContentText of the capped Content is at most limit
//     bytes, notes included.
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
		r.Content = capParts(r.Content, limit, limit)
		return r
	}
	note := fmt.Sprintf("[structured result of %d bytes dropped: over the output cap of %d bytes]", len(r.Structured), limit)
	note = note[:textcap.RuneStart(note, limit)]
	if len(r.Content) == 0 {
		r.Output = r.Text()
	}
	r.Structured = nil
	room := limit - len(note) - 1 // may be -1: nothing but the note
	if r.Output != "" {
		r.Output = textcap.HeadTail(r.Output, room) + "\n" + note
		r.Output = r.Output[:textcap.RuneStart(r.Output, limit)]
	}
	if len(r.Content) > 0 {
		r.Content = append(capParts(r.Content, room, limit), TextPart(note))
	}
	return r
}

// mediaCapped returns r with the binary parts of its Content kept, in
// order, while their Data fits in limit bytes (negative: no limit); the
// others are dropped and a last text part says how many.
func (r Result) mediaCapped(limit int) Result {
	if limit < 0 || len(r.Content) == 0 {
		return r
	}
	left, dropped := limit, 0
	var kept []Part
	for _, p := range r.Content {
		if p.IsBinary() {
			if len(p.Data) > left {
				dropped++
				continue
			}
			left -= len(p.Data)
		}
		kept = append(kept, p)
	}
	if dropped > 0 {
		r.Content = append(kept, TextPart(fmt.Sprintf("[%d content parts dropped: over the media cap of %d bytes]", dropped, limit)))
	}
	return r
}

// capParts keeps parts whose text a model may be shown within budget
// bytes, "\n"s between parts included (see [Result.Capped]); limit is the
// cap the note on dropped parts names. parts is not changed.
func capParts(parts []Part, budget, limit int) []Part {
	if len(parts) == 0 {
		return parts
	}
	left := budget + 1              // every part costs its text and a "\n"; the first has none
	cost := make([]int, len(parts)) // of a binary part, and a "\n"; -1 once dropped
	binary, nbinary := 0, 0
	for i, p := range parts {
		if p.IsBinary() {
			cost[i] = shownBytes(p) + 1
			binary += cost[i]
			nbinary++
		}
	}
	if binary > left { // room for the longest note dropped parts can get
		left -= len(dropNote(nbinary, limit)) + 1
	}
	dropped := 0
	for i, p := range parts {
		switch {
		case !p.IsBinary():
		case cost[i] <= left:
			left -= cost[i]
		default:
			cost[i] = -1
			dropped++
		}
	}
	out := make([]Part, 0, len(parts)-dropped+1)
	for i, p := range parts {
		switch {
		case p.IsBinary():
			if cost[i] >= 0 {
				out = append(out, p)
			}
			continue
		case len(p.Text) < left:
			out = append(out, p)
			left -= len(p.Text) + 1
			continue
		}
		var texts []string // this text and the later ones, joined, in what is left
		for _, q := range parts[i:] {
			if !q.IsBinary() {
				texts = append(texts, q.Text)
			}
		}
		if p.Text = textcap.HeadTail(strings.Join(texts, "\n"), left-1); p.Text != "" {
			out = append(out, p) // an empty text resource would read as a link
		}
		for j := i + 1; j < len(parts); j++ {
			if parts[j].IsBinary() && cost[j] >= 0 {
				out = append(out, parts[j])
			}
		}
		break
	}
	if dropped > 0 && budget > 0 {
		note := dropNote(dropped, limit)
		out = append(out, TextPart(note[:textcap.RuneStart(note, budget)]))
	}
	return out
}

// shownBytes is the size of what a model may be shown of binary part p:
// its text stand-in ([Part.Summary]) and its name (a file's stand-in has
// it already).
func shownBytes(p Part) int {
	n := len(p.Summary())
	if p.Kind != PartFile {
		n += len(p.Name)
	}
	return n
}

// dropNote is the note on n binary parts dropped by a cap of limit bytes.
func dropNote(n, limit int) string {
	parts := "parts"
	if n == 1 {
		parts = "part"
	}
	return fmt.Sprintf("[%d content %s dropped: over the output cap of %d bytes]", n, parts, limit)
}
