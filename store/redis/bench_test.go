package redis_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp"
	"github.com/toolnexus/toolnexus/store/redis"
)

// BenchmarkTaskStore is one tool call made as a task and its result
// fetched (tools/call with a task, then tasks/result, over loopback HTTP
// to a stateless server) with the task records in memory and in Redis,
// and, as the floor of what Redis adds, one PING round trip. The
// difference between the two stores, against the PINGs one task costs,
// is the added cost per call.
func BenchmarkTaskStore(b *testing.B) {
	rdb := redisClient(b)
	ctx := context.Background()
	b.Run("redis-ping", func(b *testing.B) {
		for b.Loop() {
			if err := rdb.Ping(ctx).Err(); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, name := range []string{"memory", "redis"} {
		b.Run(name, func(b *testing.B) {
			reg := toolnexus.NewRegistry()
			if err := toolnexus.Register(reg, "work", "Works.", func(context.Context, struct{}) (string, error) { return "done", nil }); err != nil {
				b.Fatal(err)
			}
			var store toolnexus.Store = toolnexus.NewMemoryStore()
			if name == "redis" {
				store = redis.New(rdb, fmt.Sprintf("toolnexus-bench/%d/", b.N))
			}
			srv := mcp.NewServer(reg, &mcp.ServerOptions{Stateless: true, Tasks: &mcp.TaskOptions{MaxTasks: 1 << 30}, Store: store})
			defer srv.Close()
			hs := httptest.NewServer(srv.Handler())
			defer hs.Close()
			for b.Loop() {
				created, err := rpc(ctx, hs.URL, "tools/call", `{"name":"work","arguments":{},"task":{"ttl":60000}}`)
				if err != nil {
					b.Fatal(err)
				}
				id := created["task"].(map[string]any)["taskId"].(string)
				if res, err := rpc(ctx, hs.URL, "tasks/result", fmt.Sprintf(`{"taskId":%q}`, id)); err != nil || text(res) != "done" {
					b.Fatal(res, err)
				}
			}
		})
	}
}
