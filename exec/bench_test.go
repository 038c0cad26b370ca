package exec_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

type benchArgs struct {
	City string `json:"city"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
	Days int    `json:"days,omitempty"`
}

// benchReply is one OpenAI assistant message with 8 tool calls.
var benchReply = func() []byte {
	var calls []exec.OpenAIToolCall
	for i := 0; i < 8; i++ {
		calls = append(calls, exec.OpenAIToolCall{ID: fmt.Sprintf("call_%d", i), Type: "function",
			Function: exec.OpenAIFunctionCall{Name: "work",
				Arguments: fmt.Sprintf(`{"city":"City %d","unit":"celsius","days":%d}`, i, i+1)}})
	}
	b, _ := json.Marshal(exec.OpenAIMessage{Role: "assistant", ToolCalls: calls})
	return b
}()

// BenchmarkDispatch8 dispatches one OpenAI reply holding 8 tool calls,
// with three handlers (trivial; CPU work of ~64 SHA-256 blocks; a 1 ms
// sleep standing in for I/O), through exec at several concurrency limits,
// against the floor: the 8 calls' arguments already extracted and
// reg.Execute called 8 times in a loop.
func BenchmarkDispatch8(b *testing.B) {
	handlers := map[string]func(context.Context, benchArgs) (string, error){
		"trivial": func(ctx context.Context, a benchArgs) (string, error) { return "22C in " + a.City, nil },
		"cpu": func(ctx context.Context, a benchArgs) (string, error) {
			buf := make([]byte, 64*64)
			sum := sha256.Sum256(buf)
			for i := 0; i < 16; i++ {
				copy(buf, sum[:])
				sum = sha256.Sum256(buf)
			}
			return fmt.Sprintf("%x", sum[:4]), nil
		},
		"sleep1ms": func(ctx context.Context, a benchArgs) (string, error) {
			time.Sleep(time.Millisecond)
			return "22C in " + a.City, nil
		},
	}
	for _, hname := range []string{"trivial", "cpu", "sleep1ms"} {
		reg := toolnexus.NewRegistry()
		if err := toolnexus.Register(reg, "work", "", handlers[hname]); err != nil {
			b.Fatal(err)
		}
		calls, err := exec.ParseOpenAIChat(benchReply)
		if err != nil || len(calls) != 8 {
			b.Fatal(err)
		}
		ctx := context.Background()
		b.Run(hname+"/loop_execute", func(b *testing.B) {
			args := make([]json.RawMessage, len(calls))
			for i := range calls {
				args[i] = json.RawMessage(calls[i].Function.Arguments)
			}
			b.ReportAllocs()
			for b.Loop() {
				for i := range args {
					if r := reg.Execute(ctx, "work", args[i]); r.IsError {
						b.Fatal(r.Output)
					}
				}
			}
		})
		for _, conc := range []int{1, 4, 8} {
			e := exec.New(reg, &exec.Options{Concurrency: conc})
			b.Run(fmt.Sprintf("%s/exec_json_conc%d", hname, conc), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					msgs, err := e.OpenAIChatJSON(ctx, benchReply)
					if err != nil || len(msgs) != 8 || msgs[7].Content[:6] == "error:" {
						b.Fatal(err, msgs)
					}
				}
			})
		}
		e := exec.New(reg, &exec.Options{Concurrency: 8})
		b.Run(hname+"/exec_structs_conc8", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if msgs, err := e.OpenAIChat(ctx, calls); err != nil || len(msgs) != 8 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDispatch8Paired times, in every iteration, the reg.Execute loop
// over the 8 calls and then exec.OpenAIChatJSON on the whole reply, and
// reports both and their ratio (exec/loop; below 1 means exec is faster).
// Interleaving the two keeps load changes on a shared machine from
// skewing the ratio.
func BenchmarkDispatch8Paired(b *testing.B) {
	handlers := map[string]func(context.Context, benchArgs) (string, error){
		"trivial": func(ctx context.Context, a benchArgs) (string, error) { return "22C in " + a.City, nil },
		"sleep1ms": func(ctx context.Context, a benchArgs) (string, error) {
			time.Sleep(time.Millisecond)
			return "22C in " + a.City, nil
		},
	}
	for _, hname := range []string{"trivial", "sleep1ms"} {
		reg := toolnexus.NewRegistry()
		if err := toolnexus.Register(reg, "work", "", handlers[hname]); err != nil {
			b.Fatal(err)
		}
		calls, _ := exec.ParseOpenAIChat(benchReply)
		args := make([]json.RawMessage, len(calls))
		for i := range calls {
			args[i] = json.RawMessage(calls[i].Function.Arguments)
		}
		ctx := context.Background()
		for _, conc := range []int{1, 4, 8} {
			e := exec.New(reg, &exec.Options{Concurrency: conc})
			b.Run(fmt.Sprintf("%s/conc%d", hname, conc), func(b *testing.B) {
				var loopD, execD time.Duration
				n := 0
				for b.Loop() {
					t0 := time.Now()
					for i := range args {
						reg.Execute(ctx, "work", args[i])
					}
					t1 := time.Now()
					if _, err := e.OpenAIChatJSON(ctx, benchReply); err != nil {
						b.Fatal(err)
					}
					loopD += t1.Sub(t0)
					execD += time.Since(t1)
					n++
				}
				b.ReportMetric(float64(loopD.Nanoseconds())/float64(n), "loop-ns/op")
				b.ReportMetric(float64(execD.Nanoseconds())/float64(n), "exec-ns/op")
				b.ReportMetric(float64(execD)/float64(loopD), "exec/loop")
			})
		}
	}
}

// BenchmarkParseOpenAIChat measures reading the 8 tool calls out of the
// raw reply (the part of OpenAIChatJSON before any tool runs).
func BenchmarkParseOpenAIChat(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchReply)))
	for b.Loop() {
		calls, err := exec.ParseOpenAIChat(benchReply)
		if err != nil || len(calls) != 8 {
			b.Fatal(err)
		}
	}
}

// BenchmarkDispatch8Breakdown splits the cost of exec on the trivial
// handler, sequentially (Concurrency 1), each step timed in the same
// iteration: the reg.Execute loop (loop-ns), RunAll on ready []Call
// (runall-ns), OpenAIChat on ready []OpenAIToolCall (structs-ns), and
// ParseOpenAIChat on the raw reply (parse-ns).
func BenchmarkDispatch8Breakdown(b *testing.B) {
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "work", "", func(ctx context.Context, a benchArgs) (string, error) {
		return "22C in " + a.City, nil
	}); err != nil {
		b.Fatal(err)
	}
	calls, _ := exec.ParseOpenAIChat(benchReply)
	generic := make([]exec.Call, len(calls))
	args := make([]json.RawMessage, len(calls))
	for i := range calls {
		args[i] = json.RawMessage(calls[i].Function.Arguments)
		generic[i] = exec.Call{ID: calls[i].ID, Name: "work", Arguments: args[i]}
	}
	ctx := context.Background()
	e := exec.New(reg, &exec.Options{Concurrency: 1})
	var d [4]time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		for i := range args {
			reg.Execute(ctx, "work", args[i])
		}
		t1 := time.Now()
		e.RunAll(ctx, generic)
		t2 := time.Now()
		e.OpenAIChat(ctx, calls)
		t3 := time.Now()
		exec.ParseOpenAIChat(benchReply)
		t4 := time.Now()
		d[0] += t1.Sub(t0)
		d[1] += t2.Sub(t1)
		d[2] += t3.Sub(t2)
		d[3] += t4.Sub(t3)
		n++
	}
	for i, unit := range []string{"loop-ns", "runall-ns", "structs-ns", "parse-ns"} {
		b.ReportMetric(float64(d[i])/float64(n), unit)
	}
}

// BenchmarkDispatch1 dispatches an OpenAI reply holding ONE call to a
// trivial typed tool (the common reply shape), with the default
// concurrency (the call runs on a worker goroutine) and with Concurrency 1
// (on the caller's goroutine), next to the bare reg.Execute of the same
// arguments.
func BenchmarkDispatch1(b *testing.B) {
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "work", "", func(ctx context.Context, a benchArgs) (string, error) {
		return "22C in " + a.City, nil
	}); err != nil {
		b.Fatal(err)
	}
	raw := []byte(`[{"id":"call_1","type":"function","function":{"name":"work","arguments":"{\"city\":\"Paris\"}"}}]`)
	ctx := context.Background()
	b.Run("execute", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if r := reg.Execute(ctx, "work", json.RawMessage(`{"city":"Paris"}`)); r.IsError {
				b.Fatal(r.Output)
			}
		}
	})
	for _, conc := range []int{0, 1} {
		e := exec.New(reg, &exec.Options{Concurrency: conc})
		b.Run(fmt.Sprintf("conc%d", conc), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if msgs, err := e.OpenAIChatJSON(ctx, raw); err != nil || msgs[0].Content != "22C in Paris" {
					b.Fatal(err, msgs)
				}
			}
		})
	}
}
