// Streamable HTTP, stateless: a fresh server + transport per request. Used by
// the API's /mcp route (packages/api/src/routes/mcp.ts) with an in-process
// client that carries the caller's key.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ToolApi } from '../lib/api.ts';
import { createServer, type ServerOptions } from '../server.ts';

export async function handleStreamableHttp(api: ToolApi, req: IncomingMessage, res: ServerResponse, body: unknown, options: ServerOptions = {}): Promise<void> {
  const created = createServer(api, options);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void created.cleanup();
  });
  await created.server.connect(transport);
  await transport.handleRequest(req, res, body);
}
