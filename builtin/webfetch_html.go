package builtin

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/toolnexus/toolnexus/internal/textcap"
)

// maxConvertBytes is how much HTML webfetch converts to Markdown or text,
// in bytes, after slimHTML has dropped what the conversion would discard.
// The converters build a tree of the whole page, about 73 (Markdown) or 32
// (text) times its size: this bound keeps that near 19 MiB whatever
// MaxFetchBytes is, while 256 KiB of slimmed HTML still gives more text
// than the output cap (32 KiB by default) shows.
const maxConvertBytes = 256 << 10

// convertHTML converts an HTML page to Markdown or (format "text") to its
// plain text. base is the page's URL, for relative links. Only the first
// maxConvertBytes of the slimmed page are converted; the output then ends
// with a note that says so.
func convertHTML(ctx context.Context, page []byte, format, base string) (string, error) {
	slim, cut, err := slimHTML(ctx, page, maxConvertBytes)
	if err != nil {
		return "", err
	}
	var out string
	if format == "text" {
		out, err = htmlText(slim)
		if err != nil {
			return "", fmt.Errorf("could not extract the text of the page: %v; try format markdown or html", err)
		}
	} else {
		out, err = htmltomarkdown.ConvertString(slim, converter.WithDomain(base), converter.WithContext(ctx))
		if err != nil {
			return "", fmt.Errorf("could not convert the page to Markdown: %v", err)
		}
	}
	if cut {
		out += fmt.Sprintf("\n\n[page cut: only its first %d KiB of HTML (without scripts, styles, SVG and comments) were converted; use format html for the raw page]", maxConvertBytes>>10)
	}
	return out, nil
}

// dropped are the elements slimHTML removes with their content: the
// converters do not show them. script, style, noscript and iframe are raw
// text to the tokenizer, so they end at their end tag; svg and math are
// counted.
var dropped = map[atom.Atom]bool{atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Iframe: true,
	atom.Svg: true, atom.Math: true}

// keptAttrs are the attributes slimHTML keeps: those the converters read
// (links, images, list starts, table spans, a code block's language,
// checkboxes).
var keptAttrs = map[string]bool{"href": true, "src": true, "alt": true, "title": true, "start": true,
	"colspan": true, "rowspan": true, "class": true, "type": true, "checked": true}

// slimHTML streams page through the HTML tokenizer and writes it back
// without comments, doctypes, dropped elements and attributes the
// converters do not read, text escaped anew, stopping once limit bytes are written (cut is
// then true). Its memory is the output plus the longest token. The context
// is checked every few thousand tokens.
func slimHTML(ctx context.Context, page []byte, limit int) (slim string, cut bool, err error) {
	z := html.NewTokenizer(bytes.NewReader(page))
	var b strings.Builder
	var tok []byte // the token being written
	skip := 0      // depth inside a dropped element
	for n := 0; ; n++ {
		if n%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return "", false, fmt.Errorf("webfetch stopped: %v", err)
			}
		}
		tok = tok[:0]
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				return b.String(), false, nil
			}
			return "", false, fmt.Errorf("could not read the page: %v", z.Err())
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			if a := atom.Lookup(name); dropped[a] {
				// <script/> and the like still start raw text that runs
				// to the end tag; <svg/> is empty.
				if tt == html.StartTagToken || (a != atom.Svg && a != atom.Math) {
					skip++
				}
				continue
			}
			if skip > 0 {
				continue
			}
			tok = append(append(tok, '<'), name...)
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				if keptAttrs[string(k)] {
					tok = fmt.Appendf(tok, ` %s="%s"`, k, html.EscapeString(string(v)))
				}
			}
			if tt == html.SelfClosingTagToken {
				tok = append(tok, '/')
			}
			tok = append(tok, '>')
		case html.EndTagToken:
			name, _ := z.TagName()
			if dropped[atom.Lookup(name)] {
				skip = max(skip-1, 0)
				continue
			}
			if skip == 0 {
				tok = append(append(append(tok, "</"...), name...), '>')
			}
		case html.TextToken:
			if skip > 0 {
				continue
			}
			// Escaped again, so text can never join a following token
			// into markup once a comment between them is gone.
			raw := []byte(html.EscapeString(string(z.Text())))
			if room := limit - b.Len(); len(raw) > room {
				// A text is cut at a rune; a tag is never cut.
				b.Write(raw[:textcap.RuneStart(string(raw[:room+1]), room)])
				return b.String(), true, nil
			}
			b.Write(raw)
			continue
		}
		if b.Len()+len(tok) > limit {
			return b.String(), true, nil
		}
		b.Write(tok)
	}
}
