// The calls the MCP tools make, in process. A tool calls the typed client
// (packages/mcp/src/lib/api.ts); the client hands each HTTP exchange to a
// transport. This one gives it to `app.callInProcess` (plugins/in-process.ts):
// a route that declares its answer (routes/operation.ts `answered`) answers
// it from that function, validated, limited and recorded as the route would,
// without a second pass through Fastify. Any other call, and any call the
// route would answer otherwise (a value its schema or its answer refuses, an
// export, an unknown id), goes to the route through `inject`, unchanged.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { injectTransport, type Transport } from '@jp-support/client';
import { normaliseAddress } from '../access/client-address.ts';

/** The in-process transport of one /mcp request: its calls are made as that request's caller (its key, or its address). */
export function toolTransport(app: FastifyInstance, request: FastifyRequest): Transport {
  const viaRoute = injectTransport(app, { remoteAddress: normaliseAddress(request.ip) ?? request.ip });
  return async (req) => {
    if (!req.signal.aborted) {
      const url = new URL(req.url);
      const answer = await app.callInProcess(request, {
        method: req.method,
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: req.body,
      });
      if (answer) return answer;
    }
    return viaRoute(req);
  };
}
