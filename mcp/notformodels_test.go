package mcp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// A tool that the server meant for its MCP Apps UI only is not offered to
// a model; ServerStatus.Skipped says why. A tool visible to both, or to the
// model, is loaded, and so is one that must be called as a task.
func TestLoadLeavesOutToolsNotForModels(t *testing.T) {
	srv := &fakeServer{list: func(string) (string, string) {
		return `{"tools":[` +
			`{"name":"plain","inputSchema":{"type":"object"}},` +
			`{"name":"optional_task","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}},` +
			`{"name":"long_job","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}},` +
			`{"name":"both","inputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":"ui://a","visibility":["model","app"]}}},` +
			`{"name":"refresh_view","inputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":"ui://a","visibility":["app"]}}}]}`, ""
	}}
	servers := loadFake(context.Background(), "s", srv, nil)
	defer servers.Close()
	var names []string
	for _, tl := range servers.Tools() {
		names = append(names, tl.Name)
	}
	require.ElementsMatch(t, []string{"s_plain", "s_optional_task", "s_long_job", "s_both"}, names)
	st := servers.Status()[0]
	require.Equal(t, []string{
		`refresh_view: for the MCP Apps UI only (_meta.ui.visibility has no "model")`,
	}, st.Skipped)

	// A host that renders the apps asks for them.
	withApps := loadFake(context.Background(), "s", srv, &LoadOptions{AppOnlyTools: true})
	defer withApps.Close()
	require.Len(t, withApps.Tools(), 5)
	require.Empty(t, withApps.Status()[0].Skipped)
}
