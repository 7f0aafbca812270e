// tools/list and tools/call on the low-level Server. The tool list is static:
// its JSON Schemas (an input and an output schema per tool) are computed once per
// process and shared by every server (/mcp builds one per request).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ListToolsResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolApi } from './api.ts';
import { callTool } from './call-tool.ts';
import type { ToolDef } from './define.ts';
import { inputSchema } from './lenient.ts';
import { omitNotApplied } from './not-applied.ts';
import { publishedInput, publishedOutput } from './publish.ts';

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

const byNames = new WeakMap<readonly ToolDef[], Map<string, ToolDef>>();

/** A registry's tools by name (computed once per registry). */
export function toolsByName(tools: readonly ToolDef[]): Map<string, ToolDef> {
  let byName = byNames.get(tools);
  if (!byName) byNames.set(tools, (byName = new Map(tools.map((def) => [def.name, def]))));
  return byName;
}

/** tools/call: the one place a call's name and arguments become a tool's run (the SDK's handler and the HTTP fast path, transports/http.ts). */
export async function runToolCall(
  tools: readonly ToolDef[],
  api: ToolApi,
  params: { name: string; arguments?: Record<string, unknown> },
): Promise<CallToolResult> {
  const def = toolsByName(tools).get(params.name);
  if (!def) throw new McpError(ErrorCode.InvalidParams, `Tool ${params.name} not found`);
  const parsed = inputSchema(def).safeParse(params.arguments ?? {});
  // Every field is lenient, so only a non-object `arguments` fails here.
  // Arguments the tool does not take are dropped by the parse: say so rather than ignore them silently.
  const given = params.arguments && typeof params.arguments === 'object' ? Object.keys(params.arguments) : [];
  const unknown = given.filter((field) => !(field in def.input));
  return await callTool(def, api, parsed.success ? parsed.data : {}, unknown);
}

/** Register tools/list and tools/call for `tools` on a server; the tools call `api`. */
export function serveTools(server: Server, tools: readonly ToolDef[], api: ToolApi): void {
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler(ListToolsRequestSchema, () => listTools(tools));
  server.setRequestHandler(CallToolRequestSchema, async (request) => await runToolCall(tools, api, request.params));
}
