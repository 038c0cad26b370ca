package toolnexus

import (
	"context"
	"log/slog"
)

// EventKind says what an [Event] reports.
type EventKind string

const (
	// EventProgress reports how far a running tool call is (MCP
	// notifications/progress).
	EventProgress EventKind = "progress"
	// EventLog is a log line of a running tool call (MCP
	// notifications/message).
	EventLog EventKind = "log"
)

// Event is a progress report or a log line sent by a running handler with
// [ReportProgress] or [Log].
type Event struct {
	// Kind is EventProgress or EventLog.
	Kind EventKind `json:"kind"`

	// Progress is the work done so far, and Total the work in all (0 when
	// unknown), in units of the handler's choice (progress events only).
	Progress float64 `json:"progress,omitempty"`
	Total    float64 `json:"total,omitempty"` // see Progress

	// Level is the severity of a log event.
	Level slog.Level `json:"level,omitempty"`

	// Message is the log line, or an optional description of the progress.
	Message string `json:"message,omitempty"`
}

type eventsKey struct{}

// WithEvents returns a context whose tool handlers send their
// [ReportProgress] and [Log] events to fn. The MCP server and
// exec.Options.OnEvent use it; a host that calls [Registry.Execute]
// itself may too. fn may be called from several goroutines at once (a
// handler may report from goroutines of its own) and must not block for
// long: the handler waits for it. A nil fn returns ctx unchanged.
func WithEvents(ctx context.Context, fn func(Event)) context.Context {
	if fn == nil {
		return ctx
	}
	return context.WithValue(ctx, eventsKey{}, fn)
}

// ReportProgress tells whoever runs the tool how far the call is:
// progress of total units done (total 0 when unknown), with an optional
// message. Over MCP it becomes notifications/progress when the client asked
// for progress (sent a progressToken); in exec it reaches
// Options.OnEvent. It does nothing when ctx has no receiver.
func ReportProgress(ctx context.Context, progress, total float64, message string) {
	if fn, ok := ctx.Value(eventsKey{}).(func(Event)); ok {
		fn(Event{Kind: EventProgress, Progress: progress, Total: total, Message: message})
	}
}

// Log sends a log line about the running call to whoever runs the tool.
// Over MCP it becomes notifications/message (slog.LevelDebug → "debug",
// LevelInfo → "info", LevelWarn → "warning", LevelError → "error"; the
// client's logging/setLevel filters them); in exec it reaches
// Options.OnEvent. It does nothing when ctx has no receiver. Log lines
// are not part of the result and are never sent to a model.
func Log(ctx context.Context, level slog.Level, message string) {
	if fn, ok := ctx.Value(eventsKey{}).(func(Event)); ok {
		fn(Event{Kind: EventLog, Level: level, Message: message})
	}
}
