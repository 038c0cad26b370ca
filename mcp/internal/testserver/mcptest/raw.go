package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// rawTools is the tools/list result of "mcptest raw". The SDK client drops
// "badheader" (an x-mcp-header value with a space) while listing.
const rawTools = `{"tools":[
{"name":"good","inputSchema":{"type":"object"}},
{"name":"badheader","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X A"}}}},
{"name":"badresult","inputSchema":{"type":"object"}},
{"name":"exit","inputSchema":{"type":"object"}}]}`

// badTools is the tools/list result of "mcptest badtool": "dupkey" has a
// schema with the key "a" twice, which the registry refuses; "long" has a
// description of 1100 characters, over the limit of 1024.
var badTools = `{"tools":[
{"name":"good","inputSchema":{"type":"object"}},
{"name":"long","description":"` + strings.Repeat("d", 1100) + `","inputSchema":{"type":"object"}},
{"name":"dupkey","inputSchema":{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer"}}}}]}`

// raw serves newline-delimited JSON-RPC on stdin/stdout by hand, to
// misbehave in ways an SDK server cannot:
//
//   - tools/list offers rawTools;
//   - tools/call "good" answers "ok";
//   - tools/call "badresult" answers with "isError":"yes" (not a boolean);
//   - tools/call "exit" writes "mcptest: crashing on purpose" to stderr
//     and exits with status 4 without answering.
func raw(tools string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	reply := func(id json.RawMessage, result string) {
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", id, result)
		out.Flush()
	}
	for in.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Name            string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil || len(msg.ID) == 0 {
			continue // notifications and responses
		}
		switch msg.Method {
		case "initialize":
			v, _ := json.Marshal(msg.Params.ProtocolVersion)
			reply(msg.ID, `{"protocolVersion":`+string(v)+`,"capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"0"}}`)
		case "tools/list":
			reply(msg.ID, tools)
		case "tools/call":
			switch msg.Params.Name {
			case "good":
				reply(msg.ID, `{"content":[{"type":"text","text":"ok"}]}`)
			case "badresult":
				reply(msg.ID, `{"content":[{"type":"text","text":"x"}],"isError":"yes"}`)
			case "exit":
				fmt.Fprintln(os.Stderr, "mcptest: crashing on purpose")
				os.Exit(4)
			default:
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"unknown tool"}}`+"\n", msg.ID)
				out.Flush()
			}
		default:
			reply(msg.ID, `{}`)
		}
	}
}
