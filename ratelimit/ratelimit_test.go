package ratelimit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/ratelimit"
)

type lookupArgs struct {
	ID int `json:"id" validate:"min=1"`
}

type userKey struct{}

func lookup(t *testing.T, ran *int) toolnexus.Tool {
	tool, err := toolnexus.NewTool("lookup", "find an order", func(ctx context.Context, a lookupArgs) (string, error) {
		*ran++
		return "found", nil
	})
	require.NoError(t, err)
	return tool
}

// TestRateLimitPerTool: calls past the burst are error results saying the
// limit and when to try again; their handlers do not run, nor are their
// arguments checked first.
func TestRateLimitPerTool(t *testing.T) {
	var ran int
	tool, err := ratelimit.Tool(lookup(t, &ran), ratelimit.Options{Rate: rate.Every(time.Hour), Burst: 2})
	require.NoError(t, err)
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(tool))
	for range 2 {
		assert.Equal(t, "found", reg.Execute(t.Context(), "lookup", []byte(`{"id":1}`)).Output)
	}
	r := reg.Execute(t.Context(), "lookup", []byte(`{"id":0}`))
	assert.True(t, r.IsError)
	assert.Regexp(t, `^tool "lookup" is rate limited: at most 1 call every 1h0m0s \(bursts of 2\); try again in (59m59\.9\d\ds|1h0m0s)$`, r.Output)
	assert.Equal(t, 2, ran)
}

// TestRateLimitPerKey: each caller key has its own bucket.
func TestRateLimitPerKey(t *testing.T) {
	var ran int
	tool, err := ratelimit.Tool(lookup(t, &ran), ratelimit.Options{Rate: rate.Every(time.Hour), Burst: 1,
		Key: func(ctx context.Context) string { s, _ := ctx.Value(userKey{}).(string); return s }})
	require.NoError(t, err)
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(tool))
	ann := context.WithValue(t.Context(), userKey{}, "ann")
	bob := context.WithValue(t.Context(), userKey{}, "bob")
	assert.False(t, reg.Execute(ann, "lookup", []byte(`{"id":1}`)).IsError)
	assert.False(t, reg.Execute(bob, "lookup", []byte(`{"id":1}`)).IsError)
	r := reg.Execute(ann, "lookup", []byte(`{"id":1}`))
	assert.Contains(t, r.Output, `tool "lookup" is rate limited for this caller: at most 1 call every 1h0m0s (bursts of 1)`)
	assert.Equal(t, 2, ran)
}

func TestRateLimitOptionsRefused(t *testing.T) {
	var ran int
	_, err := ratelimit.Tool(lookup(t, &ran), ratelimit.Options{})
	require.EqualError(t, err, `ratelimit: tool "lookup": Rate is 0; give a positive number of calls per second`)
	_, err = ratelimit.Tool(lookup(t, &ran), ratelimit.Options{Rate: 1, Burst: -1})
	require.Error(t, err)
	// An Admit the tool has already is asked first.
	tool := lookup(t, &ran)
	tool.Admit = func(context.Context) error { return errors.New("closed for maintenance") }
	tool, err = ratelimit.Tool(tool, ratelimit.Options{Rate: 1})
	require.NoError(t, err)
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(tool))
	assert.Equal(t, "closed for maintenance", reg.Execute(t.Context(), "lookup", []byte(`{"id":1}`)).Output)
}
