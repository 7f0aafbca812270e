// /mcp: the tool-protocol server (packages/mcp) over Streamable HTTP, in
// stateless mode: every POST builds a fresh MCP server whose tools call this
// very app in-process (routes/mcp-calls.ts: the programme reads answered
// directly, every other call through `inject`), as the caller: its key and
// address. Hidden from the OpenAPI document.
//
// What it costs (issue 11, finding 6):
// - every JSON-RPC message of a POST (initialize, tools/list, each tools/call,
//   notifications) takes one unit of the caller's daily allowance and is a
//   usage event of a key; the messages themselves are never billed;
// - the REST calls a tool makes are authenticated, limited, counted and
//   billed exactly as if the caller had made them (the work they do);
// - a POST carries at most MCP_MAX_BATCH messages (a larger batch is refused
//   with a JSON-RPC "Invalid Request" before anything runs or is counted),
//   and one tool call makes at most MAX_API_CALLS_PER_TOOL_CALL REST calls
//   (packages/mcp/src/lib/call-budget.ts; beyond it the tool answers an error).
// So one POST costs at most MCP_MAX_BATCH × (1 + MAX_API_CALLS_PER_TOOL_CALL) units.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { JpSupportClient } from '@jp-support/client';
import { handleStreamableHttp } from '@jp-support/mcp/http';
import { toolTransport } from './mcp-calls.ts';
import { toolsWith } from '@jp-support/mcp/tools';

const methodNotAllowed = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this endpoint is stateless, send JSON-RPC requests with POST' },
  id: null,
};

// Anyone; a key, when sent, is checked here (401 before any tool runs) and passed on to the tools' calls.
const config = { access: 'public' } as const;
const postConfig = { access: 'public', counter: 'daily', units: 'jsonrpc-message' } as const;

const mcpRoutes: FastifyPluginAsync = async (app) => {
  // MCP_TOOLSETS: optional toolsets besides the default tools; an unknown name stops the start here.
  const toolsets = app.config.mcpToolsets;
  toolsWith(toolsets);
  const maxBatch = app.config.mcpMaxBatch;
  const preValidation = async (request: FastifyRequest, reply: FastifyReply) => {
    if (Array.isArray(request.body) && request.body.length > maxBatch) {
      return reply.code(400).send({
        jsonrpc: '2.0',
        error: { code: -32600, message: `Invalid Request: a batch of ${request.body.length} messages is over the limit of ${maxBatch}` },
        id: null,
      });
    }
  };
  app.post('/mcp', { config: postConfig, schema: { hide: true }, preValidation }, async (request, reply) => {
    const headers: Record<string, string> = {};
    const key = request.headers['x-api-key'];
    if (typeof key === 'string' && key) headers['x-api-key'] = key;
    else if (typeof request.headers.authorization === 'string') headers.authorization = request.headers.authorization;
    const client = new JpSupportClient({
      transport: toolTransport(app, request),
      defaultHeaders: headers,
      maxRetries: 0,
    });
    reply.hijack();
    try {
      await handleStreamableHttp(client, request.raw, reply.raw, request.body, { toolsets });
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
