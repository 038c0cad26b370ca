// Package ratelimit limits how often a tool may be called, per tool and
// per client key, with golang.org/x/time/rate's token buckets. A call over
// the limit does not wait and does not run: its result is an error the
// model can act on, saying the limit and when to try again.
//
// Use [Tool] on a tool before adding it to a registry (it sets
// toolnexus.Tool.Admit, which the registry asks before it checks a call's
// arguments):
//
//	limited, err := ratelimit.Tool(search, ratelimit.Options{Rate: 2, Burst: 5})
//
// With Options.Key, each key (a user, an API token, an MCP session: what
// the program puts on the call's context) gets its own bucket.
package ratelimit

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/toolnexus/toolnexus"
)

// DefaultMaxKeys is the number of keys whose buckets are kept when
// Options.MaxKeys is zero.
const DefaultMaxKeys = 10_000

// Options configure [Tool].
type Options struct {
	// Rate is the sustained number of calls per second; it must be
	// positive (rate.Every(time.Minute) is one a minute).
	Rate rate.Limit
	// Burst is the number of calls that may run at once above Rate, at
	// least 1; zero means 1.
	Burst int
	// Key, when not nil, names the caller of a call from its context;
	// each key has its own bucket, and "" shares one. nil: one bucket for
	// every caller.
	Key func(ctx context.Context) string
	// MaxKeys bounds the buckets kept for keys; when a new key would pass
	// it, the buckets are all forgotten (each key starts full again). Zero
	// means DefaultMaxKeys.
	MaxKeys int
}

// Tool returns t limited by o: its Tool.Admit (kept, and asked first when
// t has one) refuses a call whose bucket has no token, without waiting,
// with the error `tool "x" is rate limited: at most 2 calls per second
// (bursts of 5); try again in 400ms` (" for this caller" after "limited"
// when Options.Key is set). Errors: a Rate that is not positive, a
// negative Burst or MaxKeys.
func Tool(t toolnexus.Tool, o Options) (toolnexus.Tool, error) {
	if !(o.Rate > 0) {
		return t, fmt.Errorf("ratelimit: tool %q: Rate is %v; give a positive number of calls per second", t.Name, o.Rate)
	}
	if o.Burst < 0 || o.MaxKeys < 0 {
		return t, fmt.Errorf("ratelimit: tool %q: Burst and MaxKeys must not be negative", t.Name)
	}
	if o.Burst == 0 {
		o.Burst = 1
	}
	if o.MaxKeys == 0 {
		o.MaxKeys = DefaultMaxKeys
	}
	l := &limiter{name: t.Name, o: o, buckets: map[string]*rate.Limiter{}}
	if prev := t.Admit; prev != nil {
		t.Admit = func(ctx context.Context) error {
			if err := prev(ctx); err != nil {
				return err
			}
			return l.admit(ctx)
		}
	} else {
		t.Admit = l.admit
	}
	return t, nil
}

type limiter struct {
	name string
	o    Options

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

// admit takes a token from the call's bucket, or says when one is free.
func (l *limiter) admit(ctx context.Context) error {
	key := ""
	if l.o.Key != nil {
		key = l.o.Key(ctx)
	}
	lim := l.bucket(key)
	now := time.Now()
	r := lim.ReserveN(now, 1)
	d := r.DelayFrom(now)
	if d == 0 {
		return nil
	}
	r.CancelAt(now)
	who := ""
	if l.o.Key != nil {
		who = " for this caller"
	}
	return fmt.Errorf("tool %q is rate limited%s: at most %s (bursts of %d); try again in %s",
		l.name, who, perSecond(l.o.Rate), l.o.Burst, d.Round(time.Millisecond))
}

func (l *limiter) bucket(key string) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim := l.buckets[key]
	if lim == nil {
		if len(l.buckets) >= l.o.MaxKeys {
			clear(l.buckets)
		}
		lim = rate.NewLimiter(l.o.Rate, l.o.Burst)
		l.buckets[key] = lim
	}
	return lim
}

// perSecond words a rate: "2 calls per second", "1 call every 1m0s".
func perSecond(r rate.Limit) string {
	if r >= 1 {
		return fmt.Sprintf("%g calls per second", float64(r))
	}
	return fmt.Sprintf("1 call every %s", time.Duration(float64(time.Second)/float64(r)).Round(time.Millisecond))
}
