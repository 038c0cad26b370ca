// An MCP server over stdio, written with the TypeScript SDK, whose one
// tool, slow_sum, must be called as a task (execution.taskSupport
// "required"): the task ends 100 ms after it was created with the sum.
// Usage: node tssdk_task_server.cjs SDK_PREFIX
const path = require("node:path");
const { createRequire } = require("node:module");
const [prefix] = process.argv.slice(2);
const sdk = createRequire(path.join(path.resolve(prefix), "package.json"));
const { McpServer } = sdk("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = sdk("@modelcontextprotocol/sdk/server/stdio.js");
const { InMemoryTaskStore } = sdk("@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js");
const { z } = sdk("zod");

const server = new McpServer({ name: "ts-task-server", version: "1.0.0" }, {
  capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
  taskStore: new InMemoryTaskStore(),
});
server.experimental.tasks.registerToolTask("slow_sum", {
  description: "Adds two numbers, slowly, as a task.",
  inputSchema: { a: z.number(), b: z.number() },
  execution: { taskSupport: "required" },
}, {
  createTask: async ({ a, b }, extra) => {
    const task = await extra.taskStore.createTask({ ttl: 60000, pollInterval: 50 });
    setTimeout(() => {
      extra.taskStore.storeTaskResult(task.taskId, "completed", { content: [{ type: "text", text: `sum ${a + b}` }] });
    }, 100);
    return { task };
  },
  getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
  getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
});
server.connect(new StdioServerTransport()).catch((err) => {
  console.error(err);
  process.exit(1);
});
