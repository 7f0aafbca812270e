// `npm run bench`: throughput and latency of the main read paths, reported as
// ratios against a baseline measured in the same run (GET /healthz, the
// cheapest route through the same stack), so figures compare across machines.
//
// Usage: npm run bench [-- --duration 5 --connections 10 --only search]
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../packages/api/src/app.ts';
import { loadConfig } from '../packages/api/src/config.ts';
import { Catalog } from '../packages/api/src/catalog/catalog.ts';
import { ensureTestCatalog } from '../packages/api/test/catalog-fixture.ts';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
  },
});

const q = encodeURIComponent('スマート農業');
const SCENARIOS: { name: string; method?: string; path: string; body?: unknown }[] = [
  { name: 'baseline: GET /healthz', path: '/healthz' },
  { name: 'GET /meta', path: '/meta' },
  { name: 'search: no filters', path: '/v1/programs/search' },
  { name: 'search: q (FTS) + tier', path: `/v1/programs/search?q=${q}&tier=S&tier=A&tier=B&limit=10&fields=minimal` },
  { name: 'search: prefecture, full shape', path: `/v1/programs/search?prefecture=${encodeURIComponent('北海道')}&fields=full&limit=20` },
  { name: 'search: 2-char LIKE', path: `/v1/programs/search?q=${encodeURIComponent('創業')}&limit=20` },
  { name: 'GET /v1/programs/{id}', path: '/v1/programs/UNI-000780f85e' },
  { name: 'POST /v1/programs/batch (10)', method: 'POST', path: '/v1/programs/batch', body: { unified_ids: [] as string[] } },
  { name: 'POST /v1/exclusions/check', method: 'POST', path: '/v1/exclusions/check', body: { program_ids: ['UNI-194743d166', 'UNI-76ff1702bc'] } },
];

const dataDir = mkdtempSync(path.join(tmpdir(), 'jpsp-bench-'));
// Paid-key-free run: the anonymous limit would refuse most requests, so the
// bench lifts it (it measures the catalogue path, not the limiter).
const config = loadConfig({ DATA_DIR: dataDir, ANON_DAILY_LIMIT: '1000000000', LOG_LEVEL: 'silent' });
const catalog = new Catalog(await ensureTestCatalog());
const app = await buildApp({ config, catalog, ownsCatalog: true });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

const batchIds = catalog.db.all<{ unified_id: string }>('SELECT unified_id FROM programs ORDER BY pid LIMIT 10').map((r) => r.unified_id);
const duration = Number(values.duration);
const connections = Number(values.connections);

const rows: { name: string; rps: number; p50: number; p99: number; non2xx: number }[] = [];
for (const s of SCENARIOS) {
  if (values.only && !s.name.includes(values.only) && !s.name.startsWith('baseline')) continue;
  const body = s.path === '/v1/programs/batch' ? { unified_ids: batchIds } : s.body;
  const result = await autocannon({
    url: address + s.path,
    method: s.method ?? 'GET',
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
    duration,
    connections,
  });
  rows.push({ name: s.name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors });
}
// MCP on the in-process transport: tools/list and tools/call (get_meta, and
// search_programs through the same inject client the /mcp route uses),
// timed as a mean over many calls, beside an in-process REST baseline.
const mcpRows = await measureMcp();
await app.close();
rmSync(dataDir, { recursive: true, force: true });

const base = rows[0];
console.log(`\n${connections} connections, ${duration}s per scenario; ratios are against "${base.name}" measured in this run.\n`);
console.log(`${'scenario'.padEnd(36)} ${'req/s'.padStart(9)} ${'x base'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'p99 x'.padStart(6)} ${'non2xx'.padStart(6)}`);
for (const r of rows) {
  console.log(
    `${r.name.padEnd(36)} ${r.rps.toFixed(0).padStart(9)} ${(r.rps / base.rps).toFixed(2).padStart(7)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${(r.p99 / Math.max(base.p99, 1)).toFixed(1).padStart(6)} ${String(r.non2xx).padStart(6)}`,
  );
}
console.log('\nIn-process (no socket), mean of repeated calls; ratio against inject GET /healthz:');
const injectBase = mcpRows[0].ms;
for (const r of mcpRows) console.log(`${r.name.padEnd(36)} ${r.ms.toFixed(3).padStart(9)} ms ${(r.ms / injectBase).toFixed(1).padStart(7)} x`);
if (rows.some((r) => r.non2xx > 0)) {
  console.error('\nsome requests did not answer 2xx: the figures above are not comparable');
  process.exitCode = 1;
}

async function measureMcp(): Promise<{ name: string; ms: number }[]> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const { ListToolsResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const { JpSupportClient, injectTransport } = await import('@jp-support/client');
  const { createServer } = await import('../packages/mcp/src/server.ts');
  const api = new JpSupportClient({ transport: injectTransport(app), maxRetries: 0 });
  const { server, cleanup } = createServer(api);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  const time = async (name: string, n: number, fn: () => Promise<unknown>) => {
    for (let i = 0; i < 20; i++) await fn();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    return { name, ms: (performance.now() - t0) / n };
  };
  const out = [
    await time('inject GET /healthz', 500, () => app.inject('/healthz')),
    // client.request, not client.listTools: the SDK client compiles every
    // output schema with Ajv inside listTools, which is the caller's cost.
    await time('MCP tools/list (server)', 300, () => client.request({ method: 'tools/list', params: {} }, ListToolsResultSchema)),
    await time('MCP tools/list (SDK client incl.)', 20, () => client.listTools()),
    await time('MCP tools/call get_meta', 300, () => client.callTool({ name: 'get_meta', arguments: {} })),
    await time('MCP tools/call search_programs', 200, () => client.callTool({ name: 'search_programs', arguments: { q: 'スマート農業', limit: 5 } })),
  ];
  await client.close();
  await cleanup();
  return out;
}
