// Calls the `bash` tool of a toolnexus MCP server (serve --tasks) as a task
// with the TypeScript SDK's experimental tasks API: callToolStream creates
// the task, polls it and fetches its result; then a second task is
// cancelled with cancelTask while it runs.
// Usage: node tssdk_tasks.cjs SDK_PREFIX SERVER_URL
// Prints one JSON line: {"execution", "messages": [message types], "result",
// "cancelled": <tasks/cancel answer>, "afterCancel": <tasks/get answer>}.
const path = require("node:path");
const { createRequire } = require("node:module");
const [prefix, url] = process.argv.slice(2);
const sdk = createRequire(path.join(path.resolve(prefix), "package.json"));
const { Client } = sdk("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = sdk("@modelcontextprotocol/sdk/client/streamableHttp.js");

(async () => {
  const client = new Client({ name: "tssdk-tasks", version: "1.0.0" }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const tools = await client.listTools();
  const execution = tools.tools.find((t) => t.name === "bash").execution;
  const messages = [];
  let result = null;
  let taskId = null;
  for await (const m of client.experimental.tasks.callToolStream(
    { name: "bash", arguments: { command: "sleep 0.3; echo tasked" } }, undefined, { task: { ttl: 60000 } })) {
    messages.push(m.type);
    if (m.type === "taskCreated") taskId = m.task.taskId;
    if (m.type === "result") result = m.result;
    if (m.type === "error") throw m.error;
  }
  const long = await client.request(
    { method: "tools/call", params: { name: "bash", arguments: { command: "sleep 30" }, task: { ttl: 60000 } } },
    sdk("@modelcontextprotocol/sdk/types.js").CreateTaskResultSchema);
  const cancelled = await client.experimental.tasks.cancelTask(long.task.taskId);
  const afterCancel = await client.experimental.tasks.getTask(long.task.taskId);
  const listed = await client.experimental.tasks.listTasks();
  console.log(JSON.stringify({ execution, messages, taskId, result, cancelled: cancelled.status, afterCancel: afterCancel.status,
    listed: listed.tasks.length }));
  await client.close();
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
