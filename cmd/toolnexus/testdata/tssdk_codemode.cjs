// Lists the tools of `toolnexus serve --code-mode` with the TypeScript
// SDK's Client and calls run_code with the program in argv[4].
// Usage: node tssdk_codemode.cjs SDK_PREFIX SERVER_URL PROGRAM
// Prints one JSON line: {"tools": [names], "codeDeclares": bool, "result": <tool result>}.
const path = require("node:path");
const { createRequire } = require("node:module");
const [prefix, url, program] = process.argv.slice(2);
const sdk = createRequire(path.join(path.resolve(prefix), "package.json"));
const { Client } = sdk("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = sdk("@modelcontextprotocol/sdk/client/streamableHttp.js");

(async () => {
  const client = new Client({ name: "tssdk-codemode", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const { tools } = await client.listTools();
  const api = tools[0].description + (tools[0].inputSchema.properties.code.description || "");
  const result = await client.callTool({ name: "run_code", arguments: { code: program } });
  console.log(JSON.stringify({ tools: tools.map((t) => t.name), codeDeclares: api.includes("read(args: {"), result }));
  await client.close();
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
