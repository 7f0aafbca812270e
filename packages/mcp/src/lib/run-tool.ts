// tools/call: a call's name and arguments made a tool's run, for the SDK's
// handler (tool-list.ts) and the HTTP fast path (transports/http.ts).
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolApi } from './api.ts';
import { callTool } from './call-tool.ts';
import type { ToolDef } from './define.ts';
import { inputSchema } from './lenient.ts';

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
