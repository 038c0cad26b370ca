// Command mcpconformance serves, over MCP streamable HTTP, the tools the
// official MCP conformance suite's server scenarios call
// (@modelcontextprotocol/conformance): test_simple_text,
// test_image_content, test_audio_content, test_embedded_resource,
// test_multiple_content_types, test_tool_with_logging,
// test_tool_with_progress, test_error_handling, and the elicitation tools
// test_elicitation, test_elicitation_sep1034_defaults and
// test_elicitation_sep1330_enums (pending requests of kind form, which
// package mcp turns into elicitation). It registers them
// through toolnexus's public API only, so the suite checks what any
// toolnexus tool gets from the mcp package.
//
//	go run ./examples/mcpconformance -addr 127.0.0.1:0
//
// The first line of output is the endpoint URL, http://HOST:PORT/mcp; the
// server runs until it is interrupted. .ci/conformance.sh runs the suite
// against it.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address HOST:PORT (port 0 picks a free port)")
	stateless := flag.Bool("stateless", false, "serve each request on its own, without sessions (the 2026-07-28 revision)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *addr, *stateless, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mcpconformance:", err)
		os.Exit(1)
	}
}

// run serves until ctx is done, writing the endpoint URL as the first
// line of w once the listener is open.
func run(ctx context.Context, addr string, stateless bool, w io.Writer) error {
	reg, err := newRegistry()
	if err != nil {
		return err
	}
	srv := mcp.NewServer(reg, &mcp.ServerOptions{Name: "toolnexus-conformance", Stateless: stateless, SDK: sdkOptions()})
	defer srv.Close()
	addFeatures(srv.SDKServer(), redPixelPNG())
	out := bufio.NewWriter(w)
	return srv.ListenAndServe(ctx, addr, func(a net.Addr) {
		fmt.Fprintf(out, "http://%s/mcp\n", a)
		out.Flush()
	})
}

// step is the pause between the log lines and progress reports of the
// logging and progress tools (the scenarios ask for about 50 ms).
const step = 50 * time.Millisecond

// newRegistry registers the conformance tools.
func newRegistry() (*toolnexus.Registry, error) {
	reg := toolnexus.NewRegistry()
	type none struct{}
	text := func(s string) func(context.Context, none) (string, error) {
		return func(context.Context, none) (string, error) { return s, nil }
	}
	parts := func(p ...toolnexus.Part) func(context.Context, none) toolnexus.Result {
		return func(context.Context, none) toolnexus.Result { return toolnexus.ContentResult(p...) }
	}
	pngData, wavData := redPixelPNG(), silentWAV()
	errs := []error{
		toolnexus.Register(reg, "test_simple_text", "Returns simple text content.",
			text("This is a simple text response for testing.")),
		toolnexus.RegisterResult(reg, "test_image_content", "Returns an image (a 1x1 red PNG).",
			parts(toolnexus.ImagePart("image/png", pngData))),
		toolnexus.RegisterResult(reg, "test_audio_content", "Returns audio (a short silent WAV).",
			parts(toolnexus.AudioPart("audio/wav", wavData))),
		toolnexus.RegisterResult(reg, "test_embedded_resource", "Returns an embedded text resource.",
			parts(toolnexus.ResourcePart("test://embedded-resource", "text/plain", "This is an embedded resource content."))),
		toolnexus.RegisterResult(reg, "test_multiple_content_types", "Returns text, an image and a resource.",
			parts(toolnexus.TextPart("Multiple content types test:"),
				toolnexus.ImagePart("image/png", pngData),
				toolnexus.ResourcePart("test://mixed-content-resource", "application/json", `{"test":"data","value":123}`))),
		toolnexus.Register(reg, "test_tool_with_logging", "Sends three log messages while it runs.",
			func(ctx context.Context, _ none) (string, error) {
				for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
					if i > 0 && !sleep(ctx, step) {
						return "", ctx.Err()
					}
					toolnexus.Log(ctx, slog.LevelInfo, msg)
				}
				return "Tool with logging executed successfully", nil
			}),
		toolnexus.Register(reg, "test_tool_with_progress", "Reports progress 0, 50 and 100 of 100.",
			func(ctx context.Context, _ none) (string, error) {
				for i, p := range []float64{0, 50, 100} {
					if i > 0 && !sleep(ctx, step) {
						return "", ctx.Err()
					}
					toolnexus.ReportProgress(ctx, p, 100, "")
				}
				return "Tool with progress executed successfully", nil
			}),
		toolnexus.RegisterResult(reg, "test_elicitation", "Asks the user for a username and an email address.",
			func(ctx context.Context, a struct {
				Message string `json:"message" validate:"required"`
			}) toolnexus.Result {
				return form(ctx, "test_elicitation", a.Message, elicitationSchema, "User response: action=accept, content=")
			}),
		toolnexus.RegisterResult(reg, "test_elicitation_sep1034_defaults", "Asks for a form whose fields have defaults (SEP-1034).",
			func(ctx context.Context, _ none) toolnexus.Result {
				return form(ctx, "sep1034", "Please review the defaults.", sep1034Schema, "Elicitation completed: action=accept, content=")
			}),
		toolnexus.RegisterResult(reg, "test_elicitation_sep1330_enums", "Asks for a form with the five enum kinds (SEP-1330).",
			func(ctx context.Context, _ none) toolnexus.Result {
				return form(ctx, "sep1330", "Please choose.", sep1330Schema, "Elicitation completed: action=accept, content=")
			}),
		toolnexus.Register(reg, "test_error_handling", "Always fails.",
			func(context.Context, none) (string, error) {
				return "", errors.New("This tool intentionally returns an error for testing")
			}),
		inputTools(reg),
	}
	return reg, errors.Join(errs...)
}

// form asks the person to fill in schema (a pending request of kind
// form); once answered it returns prefix and the filled-in JSON.
func form(ctx context.Context, id, message, schema, prefix string) toolnexus.Result {
	sum := sha256.Sum256([]byte(message))
	id = "form_" + id + "_" + hex.EncodeToString(sum[:8])
	if a, ok := toolnexus.AnswerFor(ctx, id); ok {
		if !a.OK {
			return toolnexus.AnswerOutput(a)
		}
		return toolnexus.Result{Output: prefix + string(a.Data)}
	}
	return toolnexus.PendingResult("waiting for the user", toolnexus.PendingRequest{
		ID: id, Kind: toolnexus.PendingKindForm, Prompt: message, Data: json.RawMessage(`{"schema":` + schema + `}`)})
}

// The conformance suite's requested schemas.
const (
	elicitationSchema = `{"type":"object","properties":{` +
		`"username":{"type":"string","description":"User's response"},` +
		`"email":{"type":"string","description":"User's email address"}},"required":["username","email"]}`
	sep1034Schema = `{"type":"object","properties":{` +
		`"name":{"type":"string","default":"John Doe"},` +
		`"age":{"type":"integer","default":30},` +
		`"score":{"type":"number","default":95.5},` +
		`"status":{"type":"string","enum":["active","inactive","pending"],"default":"active"},` +
		`"verified":{"type":"boolean","default":true}}}`
	sep1330Schema = `{"type":"object","properties":{` +
		`"untitledSingle":{"type":"string","enum":["option1","option2","option3"]},` +
		`"titledSingle":{"type":"string","oneOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},` +
		`"legacyEnum":{"type":"string","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},` +
		`"untitledMulti":{"type":"array","items":{"type":"string","enum":["option1","option2","option3"]}},` +
		`"titledMulti":{"type":"array","items":{"anyOf":[{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},{"const":"value3","title":"Third Choice"}]}}}}`
)

// sleep waits d or until ctx is done; it reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// redPixelPNG encodes a 1x1 red image.
func redPixelPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img) // cannot fail on a bytes.Buffer
	return b.Bytes()
}

// silentWAV is 0.01 s of 8 kHz 8-bit mono silence in a RIFF/WAVE file.
func silentWAV() []byte {
	const rate, samples = 8000, 80
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + samples))
	b.WriteString("WAVEfmt ")
	le(uint32(16))   // fmt chunk size
	le(uint16(1))    // PCM
	le(uint16(1))    // channels
	le(uint32(rate)) // sample rate
	le(uint32(rate)) // byte rate
	le(uint16(1))    // block align
	le(uint16(8))    // bits per sample
	b.WriteString("data")
	le(uint32(samples))
	b.Write(bytes.Repeat([]byte{0x80}, samples))
	return b.Bytes()
}
