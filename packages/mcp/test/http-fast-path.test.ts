// The Streamable HTTP fast path (transports/http.ts) answers a plain
// tools/call exactly as the SDK's transport does: same status, content type
// and body (latency aside). Both paths run here over a real node:http server
// against the real API app, request by request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JpSupportClient, injectTransport } from '@jp-support/client';
import { build } from '../../api/test/helper.ts';
import { fastPathStats, handleStreamableHttp } from '../src/transports/http.ts';

const ACCEPT = 'application/json, text/event-stream';

async function serve(t: { after(fn: () => unknown): void }, sdkOnly: boolean, api: JpSupportClient): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      void handleStreamableHttp(api, req, res, body, { sdkOnly });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** The answer with the members that differ between two runs (latency_ms, an error's request_id) blanked, in text and structured content. */
function normalise(text: string): string {
  return text.replace(/\\?"latency_ms\\?":[0-9.]+/g, (m) => m.replace(/[0-9.]+$/, '0')).replace(/(\\?"request_id\\?":\\?")[0-9a-f-]{36}/g, '$1-');
}

test('a plain tools/call answers the same through the fast path and through the SDK', async (t) => {
  const app = await build(t);
  const api = new JpSupportClient({ transport: injectTransport(app), maxRetries: 0 });
  const fast = await serve(t, false, api);
  const sdk = await serve(t, true, api);
  const calls: { headers?: Record<string, string>; body: unknown }[] = [
    { body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_programs', arguments: { q: '省エネ', limit: 3 } } } },
    {
      body: {
        jsonrpc: '2.0',
        id: 'a-string-id',
        method: 'tools/call',
        params: { name: 'search_programs', arguments: { q: '補助金', tier: ['S', 'A'], limit: 2, fields: 'full' } },
      },
    },
    { body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_meta' } } },
    { body: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_program', arguments: { unified_id: 'UNI-nope' } } } },
    { body: { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'batch_get_programs', arguments: { unified_ids: [] } } } },
    { body: { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'search_programs', arguments: { limit: 'many' } } } },
    { headers: { 'mcp-protocol-version': '2025-06-18' }, body: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_meta', arguments: {} } } },
    // Not plain: these go to the SDK on both servers, and still agree.
    { body: { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } } },
    { body: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'get_meta', arguments: [] } } },
    { headers: { 'mcp-protocol-version': '1999-01-01' }, body: { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'get_meta' } } },
    { headers: { accept: 'application/json' }, body: { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'get_meta' } } },
  ];
  const before = fastPathStats.answered;
  for (const call of calls) {
    const init = (): RequestInit => ({
      method: 'POST',
      headers: { accept: ACCEPT, 'content-type': 'application/json', ...call.headers },
      body: JSON.stringify(call.body),
    });
    const [a, b] = await Promise.all([fetch(fast, init()), fetch(sdk, init())]);
    const [textA, textB] = await Promise.all([a.text(), b.text()]);
    const what = JSON.stringify(call);
    assert.equal(a.status, b.status, what);
    assert.equal(a.headers.get('content-type'), b.headers.get('content-type'), what);
    assert.equal(normalise(textA), normalise(textB), what);
  }
  assert.equal(fastPathStats.answered - before, 7, 'the seven plain calls took the fast path, the other four the SDK');
});
