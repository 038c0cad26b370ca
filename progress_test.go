package toolnexus_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
)

func TestEventsReachReceiver(t *testing.T) {
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "work", "works", func(ctx context.Context, _ struct{}) (string, error) {
		toolnexus.ReportProgress(ctx, 0, 100, "start")
		toolnexus.Log(ctx, slog.LevelInfo, "halfway")
		toolnexus.ReportProgress(ctx, 100, 100, "")
		return "done", nil
	}))
	var mu sync.Mutex
	var got []toolnexus.Event
	ctx := toolnexus.WithEvents(context.Background(), func(e toolnexus.Event) {
		mu.Lock()
		got = append(got, e)
		mu.Unlock()
	})
	res := reg.Execute(ctx, "work", nil)
	require.Equal(t, "done", res.Output)
	require.Equal(t, []toolnexus.Event{
		{Kind: toolnexus.EventProgress, Progress: 0, Total: 100, Message: "start"},
		{Kind: toolnexus.EventLog, Level: slog.LevelInfo, Message: "halfway"},
		{Kind: toolnexus.EventProgress, Progress: 100, Total: 100},
	}, got)

	// Without a receiver the helpers do nothing.
	require.Equal(t, "done", reg.Execute(context.Background(), "work", nil).Output)
	ctx = context.Background()
	require.Equal(t, ctx, toolnexus.WithEvents(ctx, nil))
}
