package mcp

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// mcptestBin is the path of the mcptest helper program, built once by
// TestMain (see internal/testserver/mcptest).
var mcptestBin string

func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.fuzzworker"); f != nil && f.Value.String() == "true" {
		// A fuzzing worker runs only fuzz targets, none of which uses
		// mcptest; workers are restarted often, so skip the build.
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "toolnexus-mcp-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mcptestBin = filepath.Join(dir, "mcptest")
	build := exec.Command("go", "build", "-o", mcptestBin, "github.com/toolnexus/toolnexus/mcp/internal/testserver/mcptest")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building mcptest:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
