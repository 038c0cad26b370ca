package redis_test

import (
	"context"
	"os"

	goredis "github.com/redis/go-redis/v9"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp"
	"github.com/toolnexus/toolnexus/store/redis"
)

// A replica of a stateless MCP server whose tasks, claims and
// requestState key live in Redis: run any number of them behind a load
// balancer (docs/replicas.md).
func ExampleNew() {
	ctx := context.Background()
	reg := toolnexus.NewRegistry()
	rdb := goredis.NewClient(&goredis.Options{Addr: "10.0.0.5:6379"})
	srv := mcp.NewServer(reg, &mcp.ServerOptions{
		Stateless:   true,
		Tasks:       &mcp.TaskOptions{},
		Store:       redis.New(rdb, "myapp/"), // the same on every replica
		BearerToken: os.Getenv("MCP_TOKEN"),   // the same on every replica
	})
	_ = srv.ListenAndServe(ctx, ":8080", nil)
}
