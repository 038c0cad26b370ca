package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out))
	got := out.String()
	assert.Contains(t, got, `"name": "get_weather"`)
	assert.Contains(t, got, `"name": "local_time"`)
	_, msgs, ok := strings.Cut(got, "# Tool messages for the recorded assistant reply\n")
	require.True(t, ok)
	assert.Equal(t, `{"role":"tool","tool_call_id":"call_paris","content":"Paris: 18° celsius, light rain, forecast for 3 day(s)"}
{"role":"tool","tool_call_id":"call_mars","content":"error: invalid arguments for \"get_weather\": \"unit\" must be one of [celsius fahrenheit]; \"days\" must be at most 14"}
{"role":"tool","tool_call_id":"call_time","content":"2026-11-30T16:04:05+01:00"}
`, msgs)
}
