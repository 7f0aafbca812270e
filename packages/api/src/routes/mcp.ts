// /mcp: the tool-protocol server (packages/mcp) over Streamable HTTP, in
// stateless mode: every POST builds a fresh MCP server whose tools call this
// very app in-process (client `injectTransport`), carrying the caller's key
// and address. So the REST calls a tool makes are authenticated, limited,
// counted and billed exactly as if the caller had made them, and /mcp itself
// is declared uncounted (counting it too would charge a tool call twice).
// Hidden from the OpenAPI document.
import type { FastifyPluginAsync } from 'fastify';
import { JpSupportClient, injectTransport } from '@jp-support/client';
import { handleStreamableHttp } from '@jp-support/mcp/http';
import { normaliseAddress } from '../client-address.ts';

const methodNotAllowed = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this endpoint is stateless, send JSON-RPC requests with POST' },
  id: null,
};

// Anyone; a key, when sent, is checked here (401 before any tool runs) and passed on to the tools' calls.
const config = { access: 'public' } as const;

const mcpRoutes: FastifyPluginAsync = async (app) => {
  app.post('/mcp', { config, schema: { hide: true } }, async (request, reply) => {
    const headers: Record<string, string> = {};
    const key = request.headers['x-api-key'];
    if (typeof key === 'string' && key) headers['x-api-key'] = key;
    else if (typeof request.headers.authorization === 'string') headers.authorization = request.headers.authorization;
    const client = new JpSupportClient({
      transport: injectTransport(app, { remoteAddress: normaliseAddress(request.ip) ?? request.ip }),
      defaultHeaders: headers,
      maxRetries: 0,
    });
    reply.hijack();
    try {
      await handleStreamableHttp(client, request.raw, reply.raw, request.body);
    } catch (err) {
      request.log.error({ err }, 'mcp request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      }
    }
  });

  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config,
      schema: { hide: true },
      handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send(methodNotAllowed),
    });
  }
};

export default mcpRoutes;
