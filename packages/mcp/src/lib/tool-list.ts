// tools/list and tools/call on the low-level Server. The tool list is static:
// its JSON Schemas (an input and an output schema per tool) are computed once per
// process and shared by every server (/mcp builds one per request). A call is
// run by run-tool.ts, which the HTTP fast path imports without this module
// (nor the JSON Schema conversion of publish.ts: zod-to-json-schema and zod 3,
// needed by tools/list only; decision 0431).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type ListToolsResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolApi } from './api.ts';
import type { ToolDef } from './define.ts';
import { omitNotApplied } from './not-applied.ts';
import { publishedInput, publishedOutput } from './publish.ts';
import { runToolCall } from './run-tool.ts';

/** A tool as tools/list publishes it (lib/publish.ts says what is left out and why). */
function describeTool(def: ToolDef): Tool {
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: omitNotApplied(def, publishedInput(def)) as Tool['inputSchema'],
    outputSchema: publishedOutput(def) as Tool['outputSchema'],
    annotations: def.annotations,
  };
}

const lists = new WeakMap<readonly ToolDef[], ListToolsResult>();

/** The tools/list answer for a registry, computed on first use and then reused. */
export function listTools(tools: readonly ToolDef[]): ListToolsResult {
  let list = lists.get(tools);
  if (!list) lists.set(tools, (list = { tools: tools.map(describeTool) }));
  return list;
}

/** Register tools/list and tools/call for `tools` on a server; the tools call `api`. */
export function serveTools(server: Server, tools: readonly ToolDef[], api: ToolApi): void {
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler(ListToolsRequestSchema, () => listTools(tools));
  server.setRequestHandler(CallToolRequestSchema, async (request) => await runToolCall(tools, api, request.params));
}
