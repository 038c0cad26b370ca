package exec

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/toolnexus/toolnexus"
)

// Batch remembers the calls of one model reply across answers, so that a
// reply whose calls wait for a person (questions, approvals) can be run
// again once answered without running the other calls twice.
//
// Run the reply with a context from [WithBatch] (any method: RunAll,
// OpenAIChat, Responses, Anthropic, Gemini, their JSON forms), then read
// [Batch.Pending]. When it is not empty, pass the answers to
// [Batch.Answer] and run the same reply again with [Executor.Resume]:
// calls that finished the first time are not run again (their recorded
// results are used as they were), and only the pending calls run, with
// every answer given so far attached (toolnexus.WithAnswer). The messages
// of the last run are the same bytes as those of one run whose answers
// were attached up front.
//
// A call is known by its id, name and arguments (whitespace between JSON
// tokens aside, so a reply run streamed and resumed whole is the same
// reply); two calls of one reply
// alike in all three (possible only without ids) share one result on a
// resume. A Batch is safe for concurrent use.
type Batch struct {
	mu      sync.Mutex
	results map[callKey]Result
	pending map[callKey]toolnexus.PendingRequest
	answers []toolnexus.Answer
}

// NewBatch returns an empty Batch.
func NewBatch() *Batch {
	return &Batch{results: map[callKey]Result{}, pending: map[callKey]toolnexus.PendingRequest{}}
}

type batchKey struct{}

// WithBatch returns a copy of ctx under which the Executor records each
// call's result in b and reuses the results b already holds.
func WithBatch(ctx context.Context, b *Batch) context.Context {
	return context.WithValue(ctx, batchKey{}, b)
}

func batchFrom(ctx context.Context) *Batch {
	b, _ := ctx.Value(batchKey{}).(*Batch)
	return b
}

// Pending returns the pending requests of the calls still waiting, sorted
// by call id (then name and arguments), so the order does not depend on
// which call finished first. Empty when every call finished.
func (b *Batch) Pending() []toolnexus.PendingRequest {
	b.mu.Lock()
	defer b.mu.Unlock()
	keys := make([]callKey, 0, len(b.pending))
	for k := range b.pending {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y callKey) int {
		return cmp.Or(cmp.Compare(x.id, y.id), cmp.Compare(x.name, y.name), cmp.Compare(x.args, y.args))
	})
	out := make([]toolnexus.PendingRequest, 0, len(keys))
	for _, k := range keys {
		if p, ok := b.pending[k]; ok {
			out = append(out, p)
		}
	}
	return out
}

// Answer adds answers for the next run; a later answer with the same ID
// wins.
func (b *Batch) Answer(answers ...toolnexus.Answer) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.answers = append(b.answers, answers...)
}

// Resume is run(WithBatch(ctx, b)) after b.Answer(answers...): run is the
// provider method to repeat, for example
//
//	msgs, err := exec.Resume(ctx, b, answers, func(ctx context.Context) ([]exec.OpenAIToolMessage, error) {
//		return e.OpenAIChatJSON(ctx, reply)
//	})
func Resume[T any](ctx context.Context, b *Batch, answers []toolnexus.Answer, run func(context.Context) (T, error)) (T, error) {
	b.Answer(answers...)
	return run(WithBatch(ctx, b))
}

// callKey identifies a call in a Batch: its id, name and arguments, each
// a field of its own, so that no id or name (a model may put any byte in
// them) can make two calls one.
type callKey struct{ id, name, args string }

// key is c's callKey, its arguments without the whitespace between
// tokens, so that a call streamed first (arguments as the deltas spelled
// them) and resumed whole (compact) is the same call.
func (b *Batch) key(c Call) callKey {
	var args bytes.Buffer
	if json.Compact(&args, c.Arguments) != nil {
		args.Reset()
		args.Write(c.Arguments)
	}
	return callKey{c.ID, c.Name, args.String()}
}

func (b *Batch) done(key callKey) (Result, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r, ok := b.results[key]
	return r, ok
}

// withAnswers attaches the answers given so far. The answer to a pending
// approval is attached under this process's ApprovalID of its call too
// (toolnexus.RekeyApproval): a Batch loaded from a store may hold
// approvals another process asked.
func (b *Batch) withAnswers(ctx context.Context) context.Context {
	b.mu.Lock()
	answers := slices.Clone(b.answers)
	byID := make(map[string]toolnexus.PendingRequest, len(b.pending))
	for _, p := range b.pending {
		byID[p.ID] = p
	}
	b.mu.Unlock()
	for _, a := range answers {
		ctx = toolnexus.WithAnswer(ctx, a)
		if p, ok := byID[a.ID]; ok {
			if local, ok := toolnexus.RekeyApproval(p, a); ok && local.ID != a.ID {
				ctx = toolnexus.WithAnswer(ctx, local)
			}
		}
	}
	return ctx
}

// savedBatch is a Batch as Save writes it (JSON).
type savedBatch struct {
	Results []savedCall        `json:"results,omitempty"`
	Pending []savedCall        `json:"pending,omitempty"`
	Answers []toolnexus.Answer `json:"answers,omitempty"`
}

type savedCall struct {
	ID      string                    `json:"id"`
	Name    string                    `json:"name"`
	Args    string                    `json:"args"`
	Result  *Result                   `json:"result,omitempty"`
	Request *toolnexus.PendingRequest `json:"request,omitempty"`
}

// Save writes b to store under key for ttl (zero: until deleted), so that
// [LoadBatch] in this or another process (a replica sharing the store)
// resumes the reply: the results of the calls that finished, the pending
// requests and the answers given so far, as JSON. What does not survive
// JSON is left out: a result's Go error (Result.Err; its Output and
// IsError, which the messages are made of, are kept), and the results of
// tool searches, which run again on resume.
func (b *Batch) Save(ctx context.Context, store toolnexus.Store, key string, ttl time.Duration) error {
	b.mu.Lock()
	var sb savedBatch
	for k, r := range b.results {
		if r.found != nil || r.searchOut != nil {
			continue
		}
		r := r
		sb.Results = append(sb.Results, savedCall{ID: k.id, Name: k.name, Args: k.args, Result: &r})
	}
	for k, p := range b.pending {
		p := p
		sb.Pending = append(sb.Pending, savedCall{ID: k.id, Name: k.name, Args: k.args, Request: &p})
	}
	sb.Answers = slices.Clone(b.answers)
	b.mu.Unlock()
	data, err := json.Marshal(sb)
	if err != nil {
		return fmt.Errorf("exec: saving the batch: %w", err)
	}
	return store.Put(ctx, key, data, ttl)
}

// LoadBatch reads the Batch that [Batch.Save] wrote under key; ok is false
// when the store holds none (or it expired).
func LoadBatch(ctx context.Context, store toolnexus.Store, key string) (b *Batch, ok bool, err error) {
	data, ok, err := store.Get(ctx, key)
	if err != nil || !ok {
		return nil, false, err
	}
	var sb savedBatch
	if err := json.Unmarshal(data, &sb); err != nil {
		return nil, false, fmt.Errorf("exec: the batch under %q is not one Save wrote: %w", key, err)
	}
	b = NewBatch()
	for _, c := range sb.Results {
		if c.Result != nil {
			b.results[callKey{c.ID, c.Name, c.Args}] = *c.Result
		}
	}
	for _, c := range sb.Pending {
		if c.Request != nil {
			b.pending[callKey{c.ID, c.Name, c.Args}] = *c.Request
		}
	}
	b.answers = sb.Answers
	return b, true, nil
}

func (b *Batch) record(key callKey, r Result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p, ok := toolnexus.PendingFrom(r.Result); ok {
		b.pending[key] = *p
		return
	}
	delete(b.pending, key)
	b.results[key] = r
}
