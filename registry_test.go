package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type weatherArgs struct {
	City string `json:"city" jsonschema:"description=City name" validate:"required"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
	Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=14"`
}

func weatherRegistry(t testing.TB) *Registry {
	t.Helper()
	r := NewRegistry()
	require.NoError(t, Register(r, "get_weather", "Current weather for a city.",
		func(_ context.Context, a weatherArgs) (string, error) {
			return fmt.Sprintf("%s|%s|%d", a.City, a.Unit, a.Days), nil
		}))
	return r
}

func TestExecuteWeather(t *testing.T) {
	r := weatherRegistry(t)
	ctx := context.Background()
	cases := []struct {
		args string
		want string
		err  bool
	}{
		{`{"city":"Paris"}`, "Paris||0", false},
		{`{"city":"Paris","unit":"celsius","days":3}`, "Paris|celsius|3", false},
		{` {"days":14, "city":"Oslo"} `, "Oslo||14", false},
		{`{"city":"Paris","unit":null,"days":null}`, "Paris||0", false}, // null = absent for optional properties
		{``, `invalid arguments for "get_weather": "city" is required`, true},
		{`  `, `invalid arguments for "get_weather": "city" is required`, true},
		{`null`, `invalid arguments for "get_weather": "city" is required`, true},
		{`{}`, `invalid arguments for "get_weather": "city" is required`, true},
		{`{"city":null}`, `invalid arguments for "get_weather": "city" must be a string, got null`, true},
		{`[1]`, `invalid arguments for "get_weather": arguments must be a JSON object, got an array`, true},
		{`"x"`, `invalid arguments for "get_weather": arguments must be a JSON object, got a string`, true},
		{`42`, `invalid arguments for "get_weather": arguments must be a JSON object, got a number`, true},
		{`{"city":"a"}{"city":"b"}`, `invalid arguments for "get_weather": arguments have data after the JSON object at byte 12 (send exactly one JSON object)`, true},
		{`{"city":"a"} x`, `invalid arguments for "get_weather": arguments have data after the JSON object at byte 13 (send exactly one JSON object)`, true},
		{`{"city":"Par`, `invalid arguments for "get_weather": arguments are not valid JSON: unexpected end of input (truncated?)`, true},
		{`{"city":"Paris",}`, `invalid arguments for "get_weather": arguments are not valid JSON: expected a property name at byte 16`, true},
		{`{"City":"Paris"}`, `invalid arguments for "get_weather": unknown property "City"; property names are case-sensitive: did you mean "city"?; "city" is required`, true},
		{`{"city":"Paris","country":"FR"}`, `invalid arguments for "get_weather": unknown property "country"; allowed: city, unit, days`, true},
		{`{"city":"Paris","city":"Oslo"}`, `invalid arguments for "get_weather": "city" is given more than once`, true},
		{`{"city":"Paris","days":"3"}`, `invalid arguments for "get_weather": "days" must be an integer, got a string`, true},
		{`{"city":"Paris","days":2.5}`, `invalid arguments for "get_weather": "days" must be an integer, got 2.5`, true},
		{`{"city":7}`, `invalid arguments for "get_weather": "city" must be a string, got a number`, true},
		{`{"city":"Paris","unit":"kelvin","days":20}`, `invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]; "days" must be at most 14`, true},
		{`{"city":"","days":0}`, `invalid arguments for "get_weather": "city" must have at least 1 character; "days" must be at least 1`, true}, // the schema says minLength 1, minimum 1
		{`{"city":"Paris","days":0.5e1}`, "Paris||5", false},                                                                                    // JSON Schema: an integer
		{`{"city":"Paris","days":0.55e1}`, `invalid arguments for "get_weather": "days" must be an integer, got 0.55e1`, true},
		{`{"city":"Paris","unit":"null"}`, `invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]`, true},
		{`{"city":"Paris","days":99999999999999999999}`, `invalid arguments for "get_weather": "days" must be at most 14`, true},
	}
	for _, c := range cases {
		res := r.Execute(ctx, "get_weather", json.RawMessage(c.args))
		assert.Equal(t, c.err, res.IsError, "args %s", c.args)
		assert.Equal(t, c.want, res.Output, "args %s", c.args)
		if c.err {
			assert.ErrorIs(t, res.Err, ErrInvalidArguments, "args %s", c.args)
		} else {
			assert.NoError(t, res.Err)
		}
	}
}

func TestArgumentErrorFields(t *testing.T) {
	r := weatherRegistry(t)
	res := r.Execute(context.Background(), "get_weather", json.RawMessage(`{"city":"x","unit":"kelvin","days":20}`))
	require.True(t, res.IsError)
	var errs []*ArgumentError
	for _, e := range res.Err.(interface{ Unwrap() []error }).Unwrap() {
		var ae *ArgumentError
		require.ErrorAs(t, e, &ae)
		errs = append(errs, ae)
	}
	require.Len(t, errs, 2)
	assert.Equal(t, ArgumentError{Tool: "get_weather", Path: "unit", Rule: "oneof", Param: "celsius fahrenheit",
		Msg: `"unit" must be one of [celsius fahrenheit]`}, *errs[0])
	assert.Equal(t, ArgumentError{Tool: "get_weather", Path: "days", Rule: "max", Param: "14",
		Msg: `"days" must be at most 14`}, *errs[1])
}

func TestUnknownTool(t *testing.T) {
	r := weatherRegistry(t)
	require.NoError(t, r.Add(Tool{Name: "echo", Handler: HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil })}))
	res := r.Execute(context.Background(), "get_wether", nil)
	assert.True(t, res.IsError)
	assert.Equal(t, `unknown tool "get_wether"; available tools: echo, get_weather`, res.Output)
	assert.ErrorIs(t, res.Err, ErrUnknownTool)
	empty := NewRegistry().Execute(context.Background(), "x", nil)
	assert.Equal(t, `unknown tool "x"; available tools: none`, empty.Output)
	var zero Registry // the zero value works
	assert.Equal(t, `unknown tool "x"; available tools: none`, zero.Execute(context.Background(), "x", nil).Output)
}

func TestLargeIntegersReachHandlerExactly(t *testing.T) {
	type args struct {
		ID  int64  `json:"id"`
		UID uint64 `json:"uid"`
	}
	r := NewRegistry()
	var got args
	require.NoError(t, Register(r, "ids", "", func(_ context.Context, a args) (string, error) { got = a; return "", nil }))
	res := r.Execute(context.Background(), "ids", json.RawMessage(`{"id":9007199254740993,"uid":18446744073709551615}`))
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, int64(9007199254740993), got.ID)
	assert.Equal(t, uint64(math.MaxUint64), got.UID)
	res = r.Execute(context.Background(), "ids", json.RawMessage(`{"id":1,"uid":-1}`))
	assert.Equal(t, `invalid arguments for "ids": "uid" must be an integer between 0 and 18446744073709551615, got -1`, res.Output)
}

func TestHandlerErrorPanicTimeoutCancel(t *testing.T) {
	type none struct{}
	boom := errors.New("disk full")
	r := NewRegistryWith(&Options{Timeout: time.Minute})
	require.NoError(t, Register(r, "fails", "", func(context.Context, none) (string, error) { return "", boom }))
	require.NoError(t, Register(r, "panics", "", func(context.Context, none) (string, error) { panic("nil map") }))
	slow, err := NewTool("slow", "", func(ctx context.Context, _ none) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	require.NoError(t, err)
	slow.Timeout = 30 * time.Millisecond
	release := make(chan struct{})
	defer close(release)
	stubborn, err := NewTool("stubborn", "", func(context.Context, none) (string, error) {
		<-release // ignores ctx: returns only when the test ends
		return "late", nil
	})
	require.NoError(t, err)
	stubborn.Timeout = 20 * time.Millisecond
	require.NoError(t, r.Add(slow, stubborn))
	ctx := context.Background()

	res := r.Execute(ctx, "fails", nil)
	assert.Equal(t, Result{Output: "disk full", IsError: true, Err: boom}, res)

	res = r.Execute(ctx, "panics", nil)
	assert.True(t, res.IsError)
	assert.Equal(t, `tool "panics" failed: internal error`, res.Output)
	var pe *PanicError
	require.ErrorAs(t, res.Err, &pe)
	assert.Equal(t, "nil map", pe.Value)
	assert.Contains(t, string(pe.Stack), "registry_test.go")
	assert.NotContains(t, res.Output, "goroutine")

	res = r.Execute(ctx, "slow", nil)
	assert.Equal(t, `tool "slow" timed out after 30ms`, res.Output)
	assert.ErrorIs(t, res.Err, context.DeadlineExceeded)

	// Execute must return when the timeout fires, not when the handler
	// does (it never does before the test ends); the minute only catches
	// a hang.
	done := make(chan Result, 1)
	go func() { done <- r.Execute(ctx, "stubborn", nil) }()
	select {
	case res = <-done:
	case <-time.After(time.Minute):
		t.Fatal("Execute did not return when the handler's timeout fired")
	}
	assert.Equal(t, `tool "stubborn" timed out after 20ms`, res.Output)

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	res = r.Execute(cctx, "fails", nil)
	assert.Equal(t, `tool "fails" was cancelled before it started`, res.Output)
	assert.ErrorIs(t, res.Err, context.Canceled)

	// Cancelled once the handler runs (not after a sleep: on a loaded
	// machine the sleep could outlast slow's 30 ms timeout).
	started := make(chan struct{})
	require.NoError(t, Register(r, "waits", "", func(ctx context.Context, _ none) (string, error) {
		close(started)
		<-ctx.Done()
		return "", ctx.Err()
	}))
	cctx, cancel = context.WithCancel(ctx)
	go func() { <-started; cancel() }()
	res = r.Execute(cctx, "waits", nil)
	assert.Equal(t, `tool "waits" was cancelled before it finished`, res.Output)

	// The caller's deadline passing first is not the tool timing out.
	patient := slow
	patient.Name, patient.Timeout = "patient", time.Hour
	require.NoError(t, r.Add(patient))
	dctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	res = r.Execute(dctx, "patient", nil)
	assert.Equal(t, `tool "patient" did not finish before the deadline`, res.Output)
	assert.ErrorIs(t, res.Err, context.DeadlineExceeded)
}

func TestSizeLimit(t *testing.T) {
	r := NewRegistryWith(&Options{MaxArgumentBytes: 32})
	require.NoError(t, Register(r, "get_weather", "", func(_ context.Context, a weatherArgs) (string, error) { return a.City, nil }))
	res := r.Execute(context.Background(), "get_weather", json.RawMessage(`{"city":"`+strings.Repeat("a", 40)+`"}`))
	assert.Equal(t, `invalid arguments for "get_weather": arguments are 51 bytes, more than the limit of 32 bytes`, res.Output)
	res = r.Execute(context.Background(), "get_weather", json.RawMessage(`{"city":"Rome"}`))
	assert.Equal(t, "Rome", res.Output)
}

func TestNames(t *testing.T) {
	fn := func(context.Context, weatherArgs) (string, error) { return "", nil }
	ok64 := strings.Repeat("a", 64)
	for _, name := range []string{"a", "get_weather", "A-b_9", ok64} {
		assert.NoError(t, Register(NewRegistry(), name, "", fn), name)
	}
	for _, name := range []string{"", ok64 + "a", "get weather", "get.weather", "wetter☀", "a/b", "x\n"} {
		err := Register(NewRegistry(), name, "", fn)
		assert.ErrorIs(t, err, ErrInvalidName, "%q", name)
	}
	err := Register(NewRegistry(), "get.weather", "", fn)
	assert.EqualError(t, err, `toolnexus: invalid tool name "get.weather": character '.' at byte 3 is not one of [a-zA-Z0-9_-]`)
}

func TestDuplicateAndDescription(t *testing.T) {
	r := weatherRegistry(t)
	err := Register(r, "get_weather", "again", func(context.Context, weatherArgs) (string, error) { return "", nil })
	require.ErrorIs(t, err, ErrDuplicateTool)
	assert.Regexp(t, `^toolnexus: duplicate tool: "get_weather" is already registered \(first at \S*registry_test.go:\d+, again at \S*registry_test.go:\d+\)$`, err.Error())
	assert.Equal(t, 1, r.Len())

	fn := func(context.Context, weatherArgs) (string, error) { return "", nil }
	assert.NoError(t, Register(NewRegistry(), "ok", strings.Repeat("é", 1024), fn))
	err = Register(NewRegistry(), "long", strings.Repeat("d", 1025), fn)
	assert.EqualError(t, err, `toolnexus: tool "long": description is 1025 characters, more than the limit of 1024`)

	// Add is all or nothing.
	h := HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil })
	err = r.Add(Tool{Name: "one", Handler: h}, Tool{Name: "get_weather", Handler: h})
	require.ErrorIs(t, err, ErrDuplicateTool)
	_, found := r.Get("one")
	assert.False(t, found)
	err = r.Add(Tool{Name: "two", Handler: h}, Tool{Name: "two", Handler: h})
	require.ErrorIs(t, err, ErrDuplicateTool)
}

func TestRawTools(t *testing.T) {
	r := NewRegistry()
	var got string
	h := HandlerFunc(func(_ context.Context, args json.RawMessage) (string, error) { got = string(args); return "ok", nil })
	require.NoError(t, r.Add(Tool{Name: "raw", Description: "d", Handler: h}))
	require.NoError(t, r.Add(Tool{Name: "schema", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`), Handler: h}))
	deep := `{"type":"object","default":` + strings.Repeat("[", MaxSchemaDepth+1) + strings.Repeat("]", MaxSchemaDepth+1) + `}`
	for bad, msg := range map[string]string{
		`{"type":"array"}`:                  `schema root must have "type":"object", got "array"`,
		`{"properties":{}}`:                 `schema root must have "type":"object", got null`,
		`[]`:                                `the schema must be a JSON object, got an array`,
		`{"type":"object"`:                  `the schema is not valid JSON: unexpected end of input (truncated?)`,
		`{"type":"object"} {}`:              `the schema has data after the JSON object at byte 18`,
		`"object"`:                          `the schema must be a JSON object, got a string`,
		`{"type":"string","type":"object"}`: `schema has the key "type" twice at the root`,
		"{\"type\":\"object\",\"a\xff\":1}": `schema is not valid UTF-8`,
		deep:                                `the schema is nested more than 512 levels deep`,
	} {
		err := r.Add(Tool{Name: "bad", InputSchema: json.RawMessage(bad), Handler: h})
		require.ErrorIs(t, err, ErrInvalidSchema, bad)
		assert.Contains(t, err.Error(), msg, bad)
	}
	assert.EqualError(t, r.Add(Tool{Name: "nohandler"}), `toolnexus: tool "nohandler": Handler is nil`)

	res := r.Execute(context.Background(), "raw", nil)
	assert.Equal(t, "ok", res.Output)
	assert.Equal(t, "{}", got, "nil arguments reach a raw handler as {}")
	res = r.Execute(context.Background(), "raw", json.RawMessage(`{"anything":[1,2]}`))
	assert.Equal(t, "ok", res.Output)
	assert.Equal(t, `{"anything":[1,2]}`, got)
	res = r.Execute(context.Background(), "raw", json.RawMessage(`[1,2]`))
	assert.Equal(t, `invalid arguments for "raw": arguments must be a JSON object, got an array`, res.Output)
	tool, ok := r.Get("raw")
	require.True(t, ok)
	assert.Equal(t, "native", tool.Source)
	assert.Nil(t, tool.InputSchema)
}

func TestToolsSortedCopyRemoveOnChange(t *testing.T) {
	r := NewRegistry()
	h := HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil })
	changes := 0
	cancel := r.OnChange(func() { changes++ })
	require.NoError(t, r.Add(Tool{Name: "zeta", Handler: h}, Tool{Name: "alpha", Handler: h}))
	require.NoError(t, r.Add(Tool{Name: "mid", Handler: h}))
	assert.Equal(t, []string{"alpha", "mid", "zeta"}, r.Names())
	tools := r.Tools()
	tools[0].Name = "changed"
	assert.Equal(t, "alpha", r.Tools()[0].Name, "Tools returns a copy")
	assert.Equal(t, 1, r.Remove("mid", "missing"))
	assert.Equal(t, 0, r.Remove("missing"))
	assert.Equal(t, []string{"alpha", "zeta"}, r.Names())
	assert.Equal(t, 3, changes)
	cancel()
	require.NoError(t, r.Add(Tool{Name: "more", Handler: h}))
	assert.Equal(t, 3, changes)
}

func TestReplace(t *testing.T) {
	r := NewRegistry()
	answer := func(out string) Handler {
		return HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return out, nil })
	}
	require.NoError(t, r.Add(Tool{Name: "a", Handler: answer("a1")}, Tool{Name: "b", Handler: answer("b")}, Tool{Name: "z", Handler: answer("z")}))
	changes := 0
	r.OnChange(func() { changes++ })

	require.NoError(t, r.Replace([]string{"a", "b", "missing"}, Tool{Name: "c", Handler: answer("c")}, Tool{Name: "a", Handler: answer("a2")}))
	assert.Equal(t, []string{"a", "c", "z"}, r.Names())
	assert.Equal(t, "a2", r.Execute(context.Background(), "a", nil).Output)
	assert.Equal(t, 1, changes, "one OnChange call per Replace")

	// A name still taken after the removals: nothing changes.
	err := r.Replace([]string{"a"}, Tool{Name: "a", Handler: answer("a3")}, Tool{Name: "z", Handler: answer("z2")})
	require.ErrorIs(t, err, ErrDuplicateTool)
	assert.Contains(t, err.Error(), `"z" is already registered`)
	err = r.Replace([]string{"c"}, Tool{Name: "x", Handler: answer("x")}, Tool{Name: "x", Handler: answer("x")})
	require.ErrorIs(t, err, ErrDuplicateTool)
	assert.Contains(t, err.Error(), `"x" given twice in one Replace`)
	require.ErrorIs(t, r.Replace([]string{"c"}, Tool{Name: "bad name", Handler: answer("")}), ErrInvalidName)
	assert.Equal(t, []string{"a", "c", "z"}, r.Names())
	assert.Equal(t, "a2", r.Execute(context.Background(), "a", nil).Output)
	assert.Equal(t, 1, changes)

	require.NoError(t, r.Replace(nil))
	assert.Equal(t, 1, changes, "a Replace that changes nothing calls no OnChange")
	require.NoError(t, r.Replace([]string{"c"}))
	assert.Equal(t, []string{"a", "z"}, r.Names())
	assert.Equal(t, 2, changes)
}

// A tool Replace swaps for a new version is never missing for a reader.
func TestReplaceIsAtomicForReaders(t *testing.T) {
	r := NewRegistry()
	v := func(out string) Tool {
		return Tool{Name: "t", Description: out, Handler: HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return out, nil })}
	}
	require.NoError(t, r.Add(v("0")))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var misses, reads int
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, ok := r.Get("t"); !ok {
				misses++
			}
			if res := r.Execute(context.Background(), "t", nil); errors.Is(res.Err, ErrUnknownTool) {
				misses++
			}
			reads++
		}
	})
	for i := 0; i < 5000; i++ {
		require.NoError(t, r.Replace([]string{"t"}, v(fmt.Sprint(i))))
	}
	close(stop)
	wg.Wait()
	assert.Zero(t, misses, "reads that found no tool %q among %d", "t", reads)
}

func TestConcurrentRegisterAndExecute(t *testing.T) {
	r := weatherRegistry(t)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				name := fmt.Sprintf("t%d_%d", g, i)
				assert.NoError(t, Register(r, name, "", func(_ context.Context, a weatherArgs) (string, error) { return name + a.City, nil }))
				res := r.Execute(context.Background(), name, json.RawMessage(`{"city":"x"}`))
				assert.Equal(t, name+"x", res.Output)
			}
		}()
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				res := r.Execute(context.Background(), "get_weather", json.RawMessage(`{"city":"Paris","days":2}`))
				assert.Equal(t, "Paris||2", res.Output)
				_ = r.Tools()
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 401, r.Len())
}

func TestPointerArgsAndResultTool(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, Register(r, "ptr", "", func(_ context.Context, a *weatherArgs) (string, error) { return a.City, nil }))
	assert.Equal(t, "Oslo", r.Execute(context.Background(), "ptr", json.RawMessage(`{"city":"Oslo"}`)).Output)
	require.NoError(t, RegisterResult(r, "meta", "", func(_ context.Context, a weatherArgs) Result {
		return Result{Output: a.City, Metadata: map[string]any{"k": 1}}
	}))
	res := r.Execute(context.Background(), "meta", json.RawMessage(`{"city":"Rome"}`))
	assert.Equal(t, Result{Output: "Rome", Metadata: map[string]any{"k": 1}}, res)
	assert.Panics(t, func() {
		MustRegister(r, "ptr", "", func(context.Context, weatherArgs) (string, error) { return "", nil })
	})
}

func TestSnapshotStaysSorted(t *testing.T) {
	r := NewRegistry()
	h := HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil })
	want := map[string]bool{}
	rnd := uint32(7)
	next := func() uint32 { rnd = rnd*1664525 + 1013904223; return rnd >> 8 }
	for i := 0; i < 500; i++ {
		name := fmt.Sprintf("t%03d", next()%200)
		if next()%3 == 0 {
			r.Remove(name)
			delete(want, name)
			continue
		}
		batch := []Tool{{Name: name, Handler: h}}
		if extra := fmt.Sprintf("t%03d", next()%200); extra != name {
			batch = append(batch, Tool{Name: extra, Handler: h})
		}
		if err := r.Add(batch...); err == nil {
			for _, b := range batch {
				want[b.Name] = true
			}
		} else {
			require.ErrorIs(t, err, ErrDuplicateTool)
		}
	}
	var names []string
	for n := range want {
		names = append(names, n)
	}
	slices.Sort(names)
	assert.Equal(t, names, r.Names())
	assert.Equal(t, len(names), r.Len())
}

func TestGoexitAndInvalidUTF8(t *testing.T) {
	type none struct{}
	r := NewRegistry()
	require.NoError(t, Register(r, "goexit", "", func(context.Context, none) (string, error) {
		runtime.Goexit()
		return "", nil
	}))
	require.NoError(t, Register(r, "badutf8", "", func(context.Context, none) (string, error) {
		return "", errors.New("\xffbad")
	}))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res := r.Execute(ctx, "goexit", nil)
	assert.Equal(t, `tool "goexit" failed: internal error`, res.Output)
	assert.EqualError(t, res.Err, `tool "goexit": the handler called runtime.Goexit`)
	res = r.Execute(context.Background(), "badutf8", nil)
	assert.Equal(t, "\uFFFDbad", res.Output)
}

// NewRegistryWith(nil) is NewRegistry(); the Registry keeps a copy of opts.
func TestNewRegistryWithNil(t *testing.T) {
	if r := NewRegistryWith(nil); r.opts.MaxArgumentBytes != 0 || r.opts.Timeout != 0 || r.opts.Approver != nil {
		t.Errorf("NewRegistryWith(nil).opts = %+v", r.opts)
	}
	opts := &Options{MaxArgumentBytes: 10}
	r := NewRegistryWith(opts)
	opts.MaxArgumentBytes = 20
	if r.opts.MaxArgumentBytes != 10 {
		t.Errorf("opts changed after NewRegistryWith reached the Registry: %d", r.opts.MaxArgumentBytes)
	}
}
