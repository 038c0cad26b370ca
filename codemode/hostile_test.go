package codemode_test

// Hostile programs against run_code. TestHostileFinding* were real
// escapes from a promise of the package, found by attacking it, each
// fixed and kept as a regression test; TestHostileDefended* pin attacks
// the sandbox stopped from the start.

import (
	"context"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus/codemode"
)

// sandboxGoroutines counts goroutines running the sandbox's code.
func sandboxGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "toolnexus/codemode.(*") {
			n++
		}
	}
	return n
}

// leftWithin waits up to d for the sandbox's goroutines to fall back to
// before (other tests of the binary may have left some) and returns how
// many more there are.
func leftWithin(before int, d time.Duration) int {
	end := time.Now().Add(d)
	for {
		n := sandboxGoroutines() - before
		if n <= 0 || time.Now().After(end) {
			return max(n, 0)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// peakHeap runs fn and returns how far the Go heap grew above its start.
func peakHeap(fn func()) int64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := int64(sample[0].Value.Uint64())
	var peak atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			if v := int64(s[0].Value.Uint64()) - base; v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	<-done
	return peak.Load()
}

// Finding (high): a toJSON in the arguments calls tools again before the
// outer call is counted, so every pending outer call passes the MaxCalls
// check; with workers already started the extra calls run.
func TestHostileFindingMaxCallsBypassedByReentrantToJSON(t *testing.T) {
	f := newFixture(t)
	res := runCode(t, context.Background(), f.reg, &codemode.Options{MaxCalls: 5, Timeout: 5 * time.Second}, `
await Promise.all([1, 2, 3, 4].map((i) => tools.get_order({ id: "o-" + i })));
function nest(n) { return { toJSON() { if (n > 0) tools.get_order(nest(n - 1)); return { id: "o-" + n }; } }; }
await Promise.allSettled([tools.get_order(nest(4))]);
`)
	t.Log(res.Output)
	assert.LessOrEqual(t, f.count("get_order"), int64(5), "MaxCalls is 5: the handler must not run more often")
}

// Finding (high): the same re-entrant toJSON with no workers yet fills
// the queue (capacity MaxCalls) and blocks the program's goroutine on a
// channel send forever: a run that should end at once times out, and its
// goroutines never end.
func TestHostileFindingReentrantToJSONDeadlocksAndLeaks(t *testing.T) {
	f := newFixture(t)
	before := sandboxGoroutines()
	start := time.Now()
	res := runCode(t, context.Background(), f.reg, &codemode.Options{MaxCalls: 1, Timeout: 500 * time.Millisecond}, `
try { await tools.get_order({ toJSON() { tools.get_order({ id: "o-2" }); return { id: "o-1" }; } }); } catch (e) { console.log(e.message); }
return "done";`)
	t.Log(res.Output, time.Since(start))
	assert.NotContains(t, res.Output, "timed out", "nothing in the program waits: it must not hang")
	assert.Zero(t, leftWithin(before, 2*time.Second), "goroutines of the run are left blocked forever")
}

// Finding (high): BigInt shifts (and **) allocate natively, before the
// memory watcher can interrupt. 1n << 40000000000n grew the heap by
// 4.7 GB under the default 256 MiB limit and the call returned after 31.7 s
// with a 5 s Timeout (under ulimit -v 8 GB it sometimes ends in "fatal
// error: out of memory"). Here a tenth of it with a 32 MiB limit.
func TestHostileFindingBigIntShiftBypassesMaxMemory(t *testing.T) {
	f := newFixture(t)
	var out string
	grew := peakHeap(func() {
		out = runCode(t, context.Background(), f.reg, &codemode.Options{MaxMemory: 32 << 20, Timeout: 5 * time.Second},
			`const b = 1n << 4000000000n; return 1;`).Output
	})
	t.Logf("%s; heap grew %d MiB", out, grew>>20)
	assert.Equal(t, "refused: 1n: BigInt is not available in the sandbox", out)
	assert.Less(t, grew, int64(4*32<<20), "the heap must stay near MaxMemory (32 MiB)")
}

// Finding (medium): Array.prototype.join is guarded on the array's length
// only; 16 elements of a 16 Mi-character string make a 256 Mi-character
// string in one native call (MaxStringLength is 16 Mi), far past
// MaxMemory. With new Array(1 << 20).fill(s).join("") the process runs
// out of memory.
func TestHostileFindingJoinBypassesStringAndMemoryLimits(t *testing.T) {
	f := newFixture(t)
	var out string
	grew := peakHeap(func() {
		out = runCode(t, context.Background(), f.reg, &codemode.Options{MaxMemory: 64 << 20, Timeout: 10 * time.Second},
			`const s = "x".repeat(1 << 23); return new Array(4).fill(s).join("").length;`).Output
	})
	t.Logf("%s; heap grew %d MiB", out, grew>>20)
	assert.Equal(t, "uncaught RangeError: a string of 33554432 characters is over the sandbox's limit of 16777216 (at line 1:64)", out,
		"a string over MaxStringLength must be refused as repeat refuses it")
	assert.Less(t, grew, int64(2*64<<20), "the heap must stay near MaxMemory (64 MiB)")
}

// Finding (medium): String.prototype.split makes arrays far over
// MaxLength (4 Mi elements here; 16 Mi from one guarded repeat used
// 784 MiB of heap under the 256 MiB limit).
func TestHostileFindingSplitBypassesMaxLength(t *testing.T) {
	f := newFixture(t)
	res := runCode(t, context.Background(), f.reg, &codemode.Options{Timeout: 10 * time.Second},
		`return "x".repeat(1 << 22).split("").length;`)
	t.Log(res.Output)
	assert.Contains(t, res.Output, "RangeError", "split into more than MaxLength elements must be refused")
}

// Finding (medium): a backtracking regexp (lookahead: regexp2) runs
// natively and ignores the interrupt; the run answers at Timeout but its
// goroutine keeps a core busy (exponentially long: 'a'.repeat(30) runs
// for hours). Here about 6 s of CPU after a 300 ms Timeout.
func TestHostileFindingRegexpBacktrackingOutlivesTheRun(t *testing.T) {
	f := newFixture(t)
	before := sandboxGoroutines()
	res := runCode(t, context.Background(), f.reg, &codemode.Options{Timeout: 300 * time.Millisecond},
		`/^(a+)+(?=c)/.test("a".repeat(25) + "b");`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Output, "timed out after 300ms")
	assert.Zero(t, leftWithin(before, 3*time.Second), "the run's goroutine still runs the regexp after the run ended")
	leftWithin(before, 15*time.Second) // let it end before other tests
}

// Finding (critical, crashes the process; not run): new Array(x) and
// Array(x) with one argument call x.Export() in the Array proxy, which
// allocates length*16 bytes at once for an array-like:
//
//	const a = []; a.length = 2 ** 32 - 1; new Array(a);
//
// measured: "runtime: out of memory: cannot allocate 68719476736-byte
// block", "fatal error: out of memory", exit 2.
func TestHostileFindingArrayExportOOM(t *testing.T) {
	f := newFixture(t)
	res := runCode(t, context.Background(), f.reg, nil, `const a = []; a.length = 2 ** 32 - 1; return [new Array(a).length, Array(a).length];`)
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, "[1,1]", res.Output, "an array-like argument is the one element")
}

// Finding (critical, crashes the process; not run): goja's parser
// recurses once per nesting level with no bound; a program of 400000 '['
// then 400000 ']' (800 KB, under the 1 MiB argument limit):
//
//	"return " + "[".repeat(400000) + "]".repeat(400000) + ";"
//
// measured: "runtime: goroutine stack exceeds 1000000000-byte limit",
// "fatal error: stack overflow" in parser.parseArrayLiteral, exit 2. At
// 50000 levels compiling outlives Timeout (the deadline starts after
// Compile) and the goroutine keeps running after the run answered.
func TestHostileFindingDeepSourceStackOverflow(t *testing.T) {
	f := newFixture(t)
	for _, code := range []string{
		"return " + strings.Repeat("[", 400000) + strings.Repeat("]", 400000) + ";",
		"return `${" + strings.Repeat("`${", 300) + "1" + strings.Repeat("}`", 300) + "}`;",
		strings.Repeat("{", 5000) + strings.Repeat("}", 5000),
	} {
		res := runCode(t, context.Background(), f.reg, nil, code)
		require.True(t, res.IsError)
		assert.Equal(t, "refused: the program nests brackets more than 200 deep", res.Output)
	}
	// Brackets in strings, comments, templates' text and regexps do not count.
	res := runCode(t, context.Background(), f.reg, nil, "const s = '"+strings.Repeat("[", 300)+"'; // "+strings.Repeat("(", 300)+
		"\nconst r = /["+strings.Repeat("{", 300)+"]/; const t = `"+strings.Repeat("[", 300)+"`; return s.length + t.length + (10 / 2) + (r.test('{') ? 1 : 0);")
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, "606", res.Output)
}

// Defended: goja's interrupt is sticky, so a program cannot swallow the
// timeout inside console.log's JSON fallback and loop on.
func TestHostileDefendedInterruptNotSwallowed(t *testing.T) {
	f := newFixture(t)
	before := sandboxGoroutines()
	start := time.Now()
	res := runCode(t, context.Background(), f.reg, &codemode.Options{Timeout: 300 * time.Millisecond},
		`console.log({ toJSON() { for (;;) {} } }); console.log("escaped"); for (;;) {}`)
	require.True(t, res.IsError)
	assert.NotContains(t, res.Output, "escaped")
	assert.Contains(t, res.Output, "timed out after 300ms")
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Zero(t, leftWithin(before, 2*time.Second))
}

// Defended: the constructor chain reaches only the sandbox's own global.
func TestHostileDefendedNoHostThroughConstructors(t *testing.T) {
	f := newFixture(t)
	res := runCode(t, context.Background(), f.reg, nil, `
const g = tools.get_order.constructor("return this")();
const h = console.log.constructor.constructor("return typeof process + typeof require + typeof globalThis.Java")();
const own = Object.getOwnPropertyNames(tools.get_order).sort();
let proto; try { proto = Object.getPrototypeOf(tools); } catch (e) { proto = e.name; }
return [g === globalThis, h, typeof g.process, own, proto, eval("typeof require")];`)
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, `[true,"undefinedundefinedundefined","undefined",["length","name"],null,"undefined"]`, res.Output)
}

// Defended: polluting Object.prototype or tools does not reach the host,
// and a toJSON cannot smuggle a call to a tool that needs approval past it.
func TestHostileDefendedPollutionAndApproval(t *testing.T) {
	f := newFixture(t)
	res := runCode(t, context.Background(), f.reg, nil, `
Object.prototype.toJSON = function () { return { id: "o-9" }; };
tools.get_order = () => "fake";
console.log = () => {};
let msg;
try { await tools.delete_order({ get id() { return "o-1"; } }); } catch (e) { msg = e.message; }
delete Object.prototype.toJSON;
return msg;`)
	require.False(t, res.IsError, res.Output)
	assert.Contains(t, res.Output, "needs approval")
	assert.EqualValues(t, 0, f.count("delete_order"))
}

// Defended: odd thrown values and odd arguments end the run with a message.
func TestHostileDefendedOddValues(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct{ name, code, want string }{
		{"throw object whose toString throws", `throw { toString() { throw 1; } };`, ""},
		{"throw getter stack", `throw { get stack() { throw new Error("x"); }, toString() { return "odd"; } };`, ""},
		{"symbol args", `await tools.get_order(Symbol("x"));`, "TypeError"},
		{"getter throws in args", `await tools.get_order({ get id() { throw new Error("getter"); } });`, "getter"},
		{"cyclic args", `const a = {}; a.a = a; await tools.get_order(a);`, "uncaught"},
		{"proxy args", `await tools.get_order(new Proxy({}, { ownKeys() { throw new Error("trap"); } }));`, "trap"},
		{"never settles", `await new Promise(() => {});`, "nothing can settle"},
		{"async generator never settles", `async function* g() { await new Promise(() => {}); } await g().next();`, "syntax error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := runCode(t, context.Background(), f.reg, &codemode.Options{Timeout: 2 * time.Second}, c.code)
			require.True(t, res.IsError, res.Output)
			assert.Contains(t, res.Output, c.want)
			assert.NotContains(t, res.Output, "timed out")
		})
	}
}

// Defended: endless recursion through toJSON and a result nested deep
// end the run with a message.
func TestHostileDefendedDeepValues(t *testing.T) {
	f := newFixture(t)
	res := runCode(t, context.Background(), f.reg, &codemode.Options{Timeout: 5 * time.Second},
		`const o = { toJSON() { return JSON.stringify(o); } }; return o;`)
	assert.Contains(t, res.Output, "the call stack is too deep")
	res = runCode(t, context.Background(), f.reg, &codemode.Options{Timeout: 5 * time.Second},
		`let o = 0; for (let i = 0; i < 2000; i++) o = [o]; return JSON.stringify(o).length;`)
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, "4001", res.Output)
}
