// Streamable HTTP, stateless: a fresh server + transport per request. Used by
// the API's /mcp route (packages/api/src/routes/mcp.ts) with an in-process
// client that carries the caller's key.
//
// One shape of request skips the SDK: a single, plain `tools/call` (the bulk
// of the traffic). Building a server, a transport, the Web Request/Response
// pair around Node's objects and validating the message against every JSON-RPC
// schema cost about ten times the tool's own work (docs/performance.md,
// Profiles). The fast path answers what the SDK answers for that request
// (same status, content type, and body: the tool's result checked against the
// SDK's CallToolResultSchema, in the SDK's response order; tested against the
// SDK path in test/http-fast-path.test.ts). Anything else (batches,
// initialize, notifications, other methods, unusual headers or members)
// goes through the SDK unchanged.
//
// The SDK's server side (McpServer, the transport with its Web
// Request/Response adapter, Ajv) is imported with the first request that
// needs it (loadSdkPath), not with this module: a process whose clients only
// call tools never holds it (about 5 MB of heap and its compiled code a
// process; decision 0431). The fast path needs only the SDK's types
// (CallToolResultSchema, with zod).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CallToolResultSchema, ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { ToolApi } from '../lib/api.ts';
import { runToolCall, toolsByName } from '../lib/run-tool.ts';
import { toolsWith } from '../tools/index.ts';
import type { ServerOptions } from '../server.ts';

export interface HttpOptions extends ServerOptions {
  /** Send every request through the SDK (tests compare the two paths). */
  sdkOnly?: boolean;
}

/** Requests answered by the fast path in this process (tests check it is taken). */
export const fastPathStats = { answered: 0 };

export async function handleStreamableHttp(api: ToolApi, req: IncomingMessage, res: ServerResponse, body: unknown, options: HttpOptions = {}): Promise<void> {
  const tools = toolsWith(options.toolsets);
  const call = options.sdkOnly ? null : plainToolCall(req, body, (name) => toolsByName(tools).has(name));
  if (call) {
    fastPathStats.answered++;
    const answer = Buffer.from(JSON.stringify(await answerToolCall(api, tools, call)), 'utf8');
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length }).end(answer);
    return;
  }
  const { createServer, StreamableHTTPServerTransport } = await loadSdkPath();
  const created = createServer(api, options);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void created.cleanup();
  });
  await created.server.connect(transport);
  await transport.handleRequest(req, res, body);
}

interface SdkPath {
  createServer: typeof import('../server.ts').createServer;
  StreamableHTTPServerTransport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
}

let sdkPath: Promise<SdkPath> | undefined;

/**
 * The SDK's server and transport, imported once, on the first request that
 * takes the SDK path (a process that fills a compile cache for the serving
 * processes calls it too, so that this import strips nothing there).
 */
export function loadSdkPath(): Promise<SdkPath> {
  sdkPath ??= Promise.all([import('../server.ts'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]).then(([server, transport]) => ({
    createServer: server.createServer,
    StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport,
  }));
  return sdkPath;
}

interface PlainToolCall {
  id: string | number;
  params: { name: string; arguments?: Record<string, unknown> };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
const onlyKeys = (o: Record<string, unknown>, allowed: readonly string[]): boolean => Object.keys(o).every((k) => allowed.includes(k));

/** The call when the request is one plain tools/call of a known tool that the SDK would accept as is; else null. */
function plainToolCall(req: IncomingMessage, body: unknown, known: (name: string) => boolean): PlainToolCall | null {
  if (req.method !== 'POST') return null;
  const accept = req.headers.accept;
  if (typeof accept !== 'string' || !accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
  const contentType = req.headers['content-type'];
  if (typeof contentType !== 'string' || contentType.split(';')[0].trim().toLowerCase() !== 'application/json') return null;
  const version = req.headers['mcp-protocol-version'];
  if (version !== undefined && !(typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return null;
  if (req.headers['mcp-session-id'] !== undefined) return null;
  if (!isPlainObject(body) || !onlyKeys(body, ['jsonrpc', 'id', 'method', 'params'])) return null;
  if (body.jsonrpc !== '2.0' || body.method !== 'tools/call') return null;
  const id = body.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)))) return null;
  const params = body.params;
  if (!isPlainObject(params) || !onlyKeys(params, ['name', 'arguments'])) return null;
  if (typeof params.name !== 'string' || !known(params.name)) return null;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return null;
  return { id, params: { name: params.name, arguments: params.arguments as Record<string, unknown> | undefined } };
}

/** The JSON-RPC answer the SDK would give (its tools/call result check, its member order). */
async function answerToolCall(api: ToolApi, tools: Parameters<typeof runToolCall>[0], call: PlainToolCall): Promise<Record<string, unknown>> {
  try {
    const result = await runToolCall(tools, api, call.params);
    const checked = CallToolResultSchema.safeParse(result);
    if (!checked.success) {
      return { jsonrpc: '2.0', id: call.id, error: { code: ErrorCode.InvalidParams, message: `Invalid tools/call result: ${checked.error.message}` } };
    }
    return { result: checked.data, jsonrpc: '2.0', id: call.id };
  } catch (err) {
    const e = err as { code?: unknown; message?: string; data?: unknown };
    return {
      jsonrpc: '2.0',
      id: call.id,
      error: {
        code: Number.isSafeInteger(e.code) ? e.code : ErrorCode.InternalError,
        message: e.message ?? 'Internal error',
        ...(e.data !== undefined ? { data: e.data } : {}),
      },
    };
  }
}
