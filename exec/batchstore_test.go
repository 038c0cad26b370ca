package exec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolnexus/toolnexus"
	execpkg "github.com/toolnexus/toolnexus/exec"
)

// firstRunEnv makes this test binary do a reply's first run (see
// TestMain): it runs testdata/resume/openai_chat.json with a Batch,
// saves the Batch to a memory store and prints what the store holds, then
// the pending requests, as two JSON lines.
const firstRunEnv = "TOOLNEXUS_TEST_FIRST_RUN"

func TestMain(m *testing.M) {
	if os.Getenv(firstRunEnv) == "1" {
		if err := firstRun(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

func firstRun() error {
	var c, d atomic.Int32
	e := resumeExecutor(&testing.T{}, &c, &d)
	reply, err := os.ReadFile("testdata/resume/openai_chat.json")
	if err != nil {
		return err
	}
	b := execpkg.NewBatch()
	if _, err := e.OpenAIChatJSON(execpkg.WithBatch(context.Background(), b), reply); err != nil {
		return err
	}
	store := toolnexus.NewMemoryStore()
	if err := b.Save(context.Background(), store, "batch", 0); err != nil {
		return err
	}
	saved, _, _ := store.Get(context.Background(), "batch")
	pending, _ := json.Marshal(b.Pending())
	fmt.Printf("%s\n%s\n", saved, pending)
	return nil
}

// A Batch saved by one process and loaded in another (a replica sharing
// the store) resumes the reply: the answers the host gives to the first
// process's pending approvals (their IDs keyed by its secret) approve the
// calls here, no call runs twice, and the messages are those of one run
// with the answers known up front.
func TestBatchResumedInAnotherProcess(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), firstRunEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("first run: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		t.Fatalf("first run printed %q", out)
	}
	saved, pendingJSON := []byte(lines[0]), []byte(lines[1])
	var pending []toolnexus.PendingRequest
	if err := json.Unmarshal(pendingJSON, &pending); err != nil || len(pending) != 2 {
		t.Fatalf("pending = %s, %v", pendingJSON, err)
	}
	if pending[0].ID == toolnexus.ApprovalID("delete", json.RawMessage(`{"path":"a"}`)) {
		t.Fatal("the other process keyed its approvals as this one does: the test shows nothing")
	}
	answers := []toolnexus.Answer{{ID: pending[0].ID, OK: true}, {ID: pending[1].ID, OK: false, Data: json.RawMessage(`"keep b"`)}}

	store := toolnexus.NewMemoryStore()
	ctx := context.Background()
	if err := store.Put(ctx, "batch", saved, 0); err != nil {
		t.Fatal(err)
	}
	b, ok, err := execpkg.LoadBatch(ctx, store, "batch")
	if err != nil || !ok {
		t.Fatalf("LoadBatch = %v, %v", ok, err)
	}
	if got := b.Pending(); len(got) != 2 || got[0].ID != pending[0].ID {
		t.Fatalf("loaded pending = %+v", got)
	}
	reply, err := os.ReadFile("testdata/resume/openai_chat.json")
	if err != nil {
		t.Fatal(err)
	}
	var c, d atomic.Int32
	e := resumeExecutor(t, &c, &d)
	got, err := execpkg.Resume(ctx, b, answers, func(ctx context.Context) ([]execpkg.OpenAIToolMessage, error) {
		return e.OpenAIChatJSON(ctx, reply)
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.Load() != 0 || d.Load() != 1 || len(b.Pending()) != 0 {
		t.Errorf("resumed here: count ran %d (want 0: it ran in the first process), delete ran %d (want 1), pending %v", c.Load(), d.Load(), b.Pending())
	}
	// Up front, in this process: count runs for the first time here, so
	// its output is "run 1", as it was in the first process.
	var c0, d0 atomic.Int32
	upFront := context.Background()
	upFront = toolnexus.WithAnswer(upFront, toolnexus.Answer{ID: toolnexus.ApprovalID("delete", json.RawMessage(`{"path":"a"}`)), OK: true})
	upFront = toolnexus.WithAnswer(upFront, toolnexus.Answer{ID: toolnexus.ApprovalID("delete", json.RawMessage(`{"path":"b"}`)), Data: json.RawMessage(`"keep b"`)})
	want, err := resumeExecutor(t, &c0, &d0).OpenAIChatJSON(upFront, reply)
	if err != nil {
		t.Fatal(err)
	}
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("resumed in another process:\n%s\nup front:\n%s", gotJSON, wantJSON)
	}
	if _, ok, _ := execpkg.LoadBatch(ctx, store, "none"); ok {
		t.Error("LoadBatch of a missing key found one")
	}
}
