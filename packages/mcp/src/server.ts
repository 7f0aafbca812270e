// createServer(api, {toolsets}) -> {server, cleanup}: the registry's tools (plus any
// optional toolset named, tools/index.ts TOOLSETS), the program resource
// template and the pinned protocol revision, over the typed client `api`.
// Only public SDK API: the resource through McpServer.registerResource; the
// tools and `initialize` through setRequestHandler on its low-level Server.
// Transports (stdio, Streamable HTTP) only connect what this returns.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { ToolApi } from './lib/api.ts';
import { answerInitialize } from './lib/protocol.ts';
import { serveTools } from './lib/tool-list.ts';
import { registerProgramResource } from './resources/program.ts';
import { toolsWith } from './tools/index.ts';
import packageJson from '../package.json' with { type: 'json' };

export const SERVER_NAME = 'jp-support-programs';
/** The tool server's version, from its package.json (the one place it is written). */
export const SERVER_VERSION: string = packageJson.version;

const SERVER_INFO = { name: SERVER_NAME, version: SERVER_VERSION, title: 'Japanese public support programs' };
/** What initialize announces: tools and resources, neither of which ever changes while the server runs. */
const CAPABILITIES = { tools: {}, resources: {} };
/**
 * Said once here rather than in each tool (decision 0390): how to
 * start, what every answer carries, what the shared parameters mean.
 */
const INSTRUCTIONS =
  'Read-only tools over a catalogue of Japanese public support programmes (subsidies, loans, tax measures, certifications), ' +
  'laws, enforcement findings, case studies and bids. Start with search_programs (by topic) or prescreen_programs (for a company: give what it wants in need); ' +
  'fetch details with get_program; check combinations with check_exclusions. ' +
  'Every answer has status: ok; empty (nothing matched); no_data (the record set is not held); ' +
  'insufficient_data (the catalogue cannot support an answer: say so, do not guess); error (isError, with error.detail). ' +
  'It also has result_count, a one-line explanation and, where the tool can say, coverage (what was looked at: rules, records, period). ' +
  'limit is the page size (clamped to its range), offset the rows to skip. ' +
  'fields=compact (the default) gives each record its id, name, kind, place, authority, amount, window, purposes and source_url, plus why it is listed; ' +
  'fields=full gives every field the API returns. The licence and source credit of an answer is given once, in attribution. ' +
  'Amounts are yen unless the name says man_yen (万円); rates are per cent (1.5 = 1.5%); dates are YYYY-MM-DD. Cite each record by its source_url (official_url for programmes); a null one means no source is held.';

/**
 * One JSON Schema validator per process. The SDK builds a fresh Ajv (with its
 * formats) for every server it constructs unless given one, and /mcp builds a
 * server per request: that construction was the largest single cost of a
 * tools/call over HTTP (docs/performance.md, Profiles). The validator is
 * stateless apart from its compiled-schema cache, so sharing it is safe.
 */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

export interface CreatedServer {
  server: McpServer;
  cleanup: () => Promise<void>;
}

export interface ServerOptions {
  /** Optional toolsets to serve besides the default tools (e.g. `informed`); unknown names throw. */
  toolsets?: readonly string[];
}

export function createServer(api: ToolApi, options: ServerOptions = {}): CreatedServer {
  const tools = toolsWith(options.toolsets);
  // Only the resources capability goes to McpServer: declaring tools there would install the SDK's own tool handlers.
  const server = new McpServer(SERVER_INFO, {
    capabilities: { resources: CAPABILITIES.resources },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: SHARED_VALIDATOR,
  });
  registerProgramResource(server, api);
  serveTools(server.server, tools, api);
  answerInitialize(server.server, SERVER_INFO, CAPABILITIES, INSTRUCTIONS);
  return { server, cleanup: async () => await server.close() };
}
