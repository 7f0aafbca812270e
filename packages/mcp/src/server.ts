// createServer(api) -> {server, cleanup}: one McpServer with the 55 tools and
// the program resource template. Transports (stdio, Streamable HTTP) only
// connect what this returns.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  InitializeRequestSchema, ListToolsRequestSchema, SUPPORTED_PROTOCOL_VERSIONS, type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import { apiErrorInfo, seg, type Api } from './api.ts';
import { PROTOCOL_VERSION, registerTool } from './lib/tool.ts';
import { TOOLS } from './tools/index.ts';
import packageJson from '../package.json' with { type: 'json' };

export const SERVER_NAME = 'jp-support-programs';
/** The tool server's version, from its package.json (the one place it is written). */
export const SERVER_VERSION: string = packageJson.version;

let toolListCache: ListToolsResult | null = null;

export interface CreatedServer {
  server: McpServer;
  cleanup: () => Promise<void>;
}

/** The protocol revision answered at initialize: the client's when it is 2025-06-18 or older and supported, else 2025-06-18. */
export function negotiateProtocol(requested: string): string {
  return requested <= PROTOCOL_VERSION && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : PROTOCOL_VERSION;
}

export function createServer(api: Api): CreatedServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'Japanese public support programs' },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Read-only tools over a catalogue of Japanese public support programs (subsidies, loans, tax measures, certifications), ' +
        'laws, enforcement findings, case studies and bids. Start with search_programs or prescreen_programs; ' +
        'fetch details with get_program; check combinations with check_exclusions. Verify facts on each record\'s source_url.',
    },
  );
  for (const tool of TOOLS) registerTool(server, tool, api);

  server.registerResource(
    'program',
    new ResourceTemplate('program://{unified_id}', { list: undefined }),
    { title: 'Support program', description: 'One program record (full detail) by unified_id', mimeType: 'application/json' },
    async (uri, variables) => {
      const id = String(Array.isArray(variables.unified_id) ? variables.unified_id[0] : variables.unified_id);
      try {
        const program = await api.request('GET', `/v1/programs/${seg(id)}`, { query: { fields: 'full' } });
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(program) }] };
      } catch (err) {
        const info = apiErrorInfo(err);
        throw new Error(info ? `API error ${info.status}: ${info.detail}` : `program ${id} could not be read`);
      }
    },
  );

  // Pin the protocol revision: the SDK would otherwise answer newer clients with its latest revision.
  const base = server.server;

  // The tool list is static, but the SDK converts 55 zod schemas to JSON
  // Schema on every tools/list (~100 ms). Compute it once per process and
  // share it with every server (/mcp builds one per request).
  const sdkList = (base as unknown as { _requestHandlers: Map<string, (r: unknown, e: unknown) => Promise<unknown>> })
    ._requestHandlers.get('tools/list');
  if (sdkList) {
    base.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
      toolListCache ??= (await sdkList(request, extra)) as ListToolsResult;
      return toolListCache;
    });
  }

  base.setRequestHandler(InitializeRequestSchema, async (request) => {
    const result = await (base as unknown as { _oninitialize(r: unknown): Promise<{ protocolVersion: string }> })._oninitialize(request);
    return { ...result, protocolVersion: negotiateProtocol(request.params.protocolVersion) };
  });

  return { server, cleanup: async () => await server.close() };
}
