package exec

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
)

func TestSearchWords(t *testing.T) {
	for _, c := range []struct {
		in    string
		camel bool
		max   int
		want  []string
	}{
		{"Get the weather for a city", false, 0, []string{"get", "weather", "city"}},
		{"getWeather_now-2", true, 0, []string{"get", "weather", "now", "2"}},
		{"getWeather", false, 0, []string{"getweather"}},
		{"a b c d e c", false, 2, []string{"b", "c"}},
		{"x y x", false, 0, []string{"x", "y", "x"}},
		{"ÉTÉ été, Straße!", false, 0, []string{"été", "été", "straße"}},
		{"ÉTÉ été, Straße!", false, 5, []string{"été", "straße"}},
		{"  ,;  ", false, 0, nil},
	} {
		if got := searchWords(c.in, c.camel, c.max); !slices.Equal(got, c.want) {
			t.Errorf("searchWords(%q, %v, %d) = %q, want %q", c.in, c.camel, c.max, got, c.want)
		}
	}
}

func TestSearchToolsRanking(t *testing.T) {
	tools := []toolnexus.Tool{
		{Name: "send_invoice", Description: "Email an invoice to a customer"},
		{Name: "get_weather", Description: "Current weather for a city"},
		{Name: "weather_alerts", Description: "Severe weather warnings"},
		{Name: "forecast", Description: "Weather forecasts for the next days"},
		{Name: "crm__lookup", Description: "Look up a customer record"},
	}
	names := func(ts []toolnexus.Tool) string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Name)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		query string
		limit int
		want  string
	}{
		// name word 4 + description word 2 for get_weather and
		// weather_alerts (ties by name); forecast has it in the
		// description only (2).
		{"weather", 5, "get_weather weather_alerts forecast"},
		{"weather", 2, "get_weather weather_alerts"},
		// "forecast": name word 4 + description prefix "forecasts" 1.
		{"forecast", 5, "forecast"},
		// "weath" is in two names (2) and starts "weather" in three
		// descriptions (1).
		{"weath", 5, "get_weather weather_alerts forecast"},
		{"customer invoice", 5, "send_invoice crm__lookup"},
		{"LOOKUP a customer", 5, "crm__lookup send_invoice"},
		{"the for a", 5, ""},
		{"nothing matches", 5, ""},
	} {
		if got := names(searchTools(tools, c.query, c.limit)); got != c.want {
			t.Errorf("searchTools(%q, %d) = %q, want %q", c.query, c.limit, got, c.want)
		}
	}
	// The same search twice gives the same answer (no map order).
	for i := 0; i < 20; i++ {
		if got := names(searchTools(tools, "weather customer", 5)); got != "get_weather weather_alerts crm__lookup forecast send_invoice" {
			t.Fatalf("run %d: %q", i, got)
		}
	}
}

func TestToolSearchArguments(t *testing.T) {
	for _, c := range []struct{ args, query, problem string }{
		{`{"query":"weather"}`, "weather", ""},
		{`"{\"query\":\"weather\"}"`, "weather", ""},
		{``, "", `the arguments must be a JSON object with a string "query"`},
		{`[1]`, "", `the arguments must be a JSON object with a string "query"`},
		{`null`, "", `the arguments must be a JSON object with a string "query"`},
		{`{}`, "", `"query" is required`},
		{`{"query":5}`, "", `"query" is a number, want a string`},
		{`{"query":"w","limit":3}`, "", `unknown property "limit"; allowed: query`},
		{`{"query":" the , "}`, "", `"query" holds no word to look for: give words from tool names or descriptions`},
	} {
		q, p := toolSearchProblem([]byte(c.args))
		if q != c.query || p != c.problem {
			t.Errorf("%s: query %q, problem %q; want %q, %q", c.args, q, p, c.query, c.problem)
		}
	}
}

// FuzzSearchTools: any query over any names and descriptions returns at
// most limit tools, each once, best first, and the same answer twice.
func FuzzSearchTools(f *testing.F) {
	f.Add("weather forecast", "get_weather", "Current weather for a city", "forecastDays", "Forecasts ÉTÉ")
	f.Add("", "a", "", "b", "the for")
	f.Add("x\xffy ZZ", "x_y", "\xff", "zz-top", "ZZ")
	f.Fuzz(func(t *testing.T, query, n1, d1, n2, d2 string) {
		tools := []toolnexus.Tool{{Name: n1, Description: d1}, {Name: n2, Description: d2}, {Name: "fixed", Description: query}}
		got := searchTools(tools, query, 2)
		if len(got) > 2 {
			t.Fatalf("%d tools over the limit", len(got))
		}
		again := searchTools(tools, query, 2)
		for i := range got {
			if got[i].Name != again[i].Name || got[i].Description != again[i].Description {
				t.Fatalf("answers differ: %v %v", got, again)
			}
		}
		if len(searchWords(query, false, maxQueryWords)) > 0 && len(got) == 0 {
			t.Fatalf("query %q found nothing, not even the tool whose description it is", query)
		}
	})
}
