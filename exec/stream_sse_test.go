package exec

import (
	"bytes"
	"context"
	"errors"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// refEvents is a plain reading of the event stream format, for
// FuzzSSEReader: split into lines, "data" fields joined with "\n", a
// blank line ends an event, an unended last event is dropped.
var lineEnd = regexp.MustCompile("\r\n|\r|\n")

func refEvents(body []byte) []string {
	lines := lineEnd.Split(string(body), -1)
	lines = lines[:len(lines)-1] // the last piece has no line ending
	var out []string
	var data []string
	for _, l := range lines {
		if l == "" {
			if data != nil {
				out = append(out, strings.Join(data, "\n"))
			}
			data = nil
			continue
		}
		field, value, _ := strings.Cut(l, ":")
		value = strings.TrimPrefix(value, " ")
		if field == "data" {
			data = append(data, value)
		}
	}
	return out
}

func readEvents(body []byte, max int) ([]string, error) {
	s := newSSEReader(context.Background(), bytes.NewReader(body), max)
	var out []string
	for {
		data, err := s.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, string(data))
	}
}

func TestSSEReader(t *testing.T) {
	body := ": comment\r\nevent: x\r\ndata: a\r\ndata:b\r\n\r\ndata\rdata:  c\r\r\nid: 1\n\ndata: cut"
	got, err := readEvents([]byte(body), 100)
	if want := []string{"a\nb", "\n c"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("events %q, %v; want %q", got, err, want)
	}
	if _, err := readEvents([]byte("data: "+strings.Repeat("x", 101)+"\n\n"), 100); !errors.Is(err, ErrStreamIncomplete) {
		t.Errorf("an event over the limit: %v", err)
	}
	if _, err := readEvents([]byte(strings.Repeat("data: 1234\n", 30)+"\n"), 100); !errors.Is(err, ErrStreamIncomplete) {
		t.Errorf("many data lines over the limit: %v", err)
	}
}

// FuzzSSEReader holds the event reader to refEvents, with a limit small
// enough to be reached.
func FuzzSSEReader(f *testing.F) {
	for _, s := range []string{"data: a\n\n", "data: a\r\n\r\ndata: b\rdata\r\r", ": x\nevent: y\ndata:z\n\n", "data: a", "\r\n\n\r", "data: " + strings.Repeat("y", 70) + "\n\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		const max = 64
		got, err := readEvents(body, max)
		want := refEvents(body)
		if err != nil {
			if !errors.Is(err, ErrStreamIncomplete) || !strings.Contains(err.Error(), "larger than the limit") {
				t.Fatalf("%q: unexpected error %v", body, err)
			}
			if len(got) > len(want) || !slices.Equal(got, want[:len(got)]) {
				t.Fatalf("%q: events before the error %q, want a prefix of %q", body, got, want)
			}
			return
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: events %q, want %q", body, got, want)
		}
		for _, ev := range got {
			if len(ev) > max {
				t.Fatalf("%q: event of %d bytes over the limit", body, len(ev))
			}
		}
	})
}
