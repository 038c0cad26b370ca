// Calls the `question` tool of a toolnexus MCP server with the TypeScript
// SDK's Client, answering the server's elicitation request: the first
// question gets the last option of its enum, the second "it is calm".
// Usage: node tssdk_question.cjs SDK_PREFIX SERVER_URL
// (SDK_PREFIX is where @modelcontextprotocol/sdk was npm-installed.)
// Prints one JSON line: {"elicitation": <request params>, "result": <tool result>}.
const path = require("node:path");
const { createRequire } = require("node:module");
const [prefix, url] = process.argv.slice(2);
const sdk = createRequire(path.join(path.resolve(prefix), "package.json"));
const { Client } = sdk("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = sdk("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { ElicitRequestSchema } = sdk("@modelcontextprotocol/sdk/types.js");

(async () => {
  const client = new Client({ name: "tssdk-question", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  let elicitation = null;
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    elicitation = req.params;
    const props = req.params.requestedSchema.properties;
    return { action: "accept", content: { q1: props.q1.enum[props.q1.enum.length - 1], q2: "it is calm" } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const result = await client.callTool({
    name: "question",
    arguments: { questions: [{ question: "Which color?", options: ["red", "blue"] }, { question: "Why?" }] },
  });
  console.log(JSON.stringify({ elicitation, result }));
  await client.close();
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
