package ratelimit_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/ratelimit"
)

// Two calls a second with bursts of one: the second call at once is
// refused with a message the model can act on, and its handler does not
// run.
func ExampleTool() {
	search, _ := toolnexus.NewTool("search", "search the catalogue", func(ctx context.Context, a struct {
		Query string `json:"query"`
	}) (string, error) {
		return "3 results for " + a.Query, nil
	})
	limited, err := ratelimit.Tool(search, ratelimit.Options{Rate: 2})
	if err != nil {
		panic(err)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(limited); err != nil {
		panic(err)
	}
	fmt.Println(reg.Execute(context.Background(), "search", []byte(`{"query":"lamps"}`)).Output)
	r := reg.Execute(context.Background(), "search", []byte(`{"query":"desks"}`))
	fmt.Println(r.IsError, strings.SplitAfter(r.Output, ";")[0])
	// Output:
	// 3 results for lamps
	// true tool "search" is rate limited: at most 2 calls per second (bursts of 1);
}
