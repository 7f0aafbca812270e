// tools/list and tools/call on the low-level Server. The tool list is static:
// its JSON Schemas (an input and an output schema per tool) are computed once per
// process and shared by every server (/mcp builds one per request).
import { zodToJsonSchema } from 'zod-to-json-schema';
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
import { outputSchema } from './envelope.ts';
import { inputSchema } from './lenient.ts';
import { markNotApplied, publishedDescription } from './not-applied.ts';

const JSON_SCHEMA_OPTIONS = { strictUnions: true } as const;

function describeTool(def: ToolDef): Tool {
  const input = zodToJsonSchema(inputSchema(def), { ...JSON_SCHEMA_OPTIONS, pipeStrategy: 'input' }) as Record<string, unknown>;
  const output = zodToJsonSchema(outputSchema(def), { ...JSON_SCHEMA_OPTIONS, pipeStrategy: 'output' }) as Record<string, unknown>;
  return {
    name: def.name,
    title: def.title,
    description: publishedDescription(def),
    inputSchema: markNotApplied(def, input) as Tool['inputSchema'],
    outputSchema: output as Tool['outputSchema'],
    annotations: { title: def.title, ...def.annotations },
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
  return await callTool(def, api, parsed.success ? parsed.data : {});
}

/** Register tools/list and tools/call for `tools` on a server; the tools call `api`. */
export function serveTools(server: Server, tools: readonly ToolDef[], api: ToolApi): void {
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler(ListToolsRequestSchema, () => listTools(tools));
  server.setRequestHandler(CallToolRequestSchema, async (request) => await runToolCall(tools, api, request.params));
}
