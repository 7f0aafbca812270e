// A seeded random fuzzer over every route of the server, against a server
// started as `npm start` starts it. The routes come from the server itself,
// so a route added later is fuzzed without an edit here: every operation of
// the OpenAPI document (with its parameter and body schemas), and every
// other route the app registers (admin, /mcp, the portal's pages, health;
// read from an app built in process) with generic values. Values are built
// from the schemas, then broken (wrong types, boundary values, huge and deep
// bodies, bad percent-encodings and bytes, odd headers), some sent over raw
// sockets; path and query parameters also take real values harvested from
// the answers of the list routes first (ids of programmes, laws, records),
// so a route like GET /v1/laws/{id}/revisions is reached past its 404. At
// least 10,000 requests and 100 per route; then: every route fuzzed, no 5xx,
// every error `{"detail": string}`, no key, address, SQL or stack trace in
// any answer or log line, the server healthy and its memory bounded.
// FUZZ_SEED and FUZZ_REQUESTS override the seed (printed) and the count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { generateApiKey } from '../../src/access/keys.ts';
import { openSqliteStore } from '../../src/state/sqlite.ts';
import { startFakeStripe } from '../fakes/stripe-server.ts';
import { pool, privateDataDir, request, startServer, type Answer } from './servers.ts';
import path from 'node:path';
import { build } from '../helper.ts';

/** Every route the app registers, as `METHOD /path/:param` (an app built in process with the same options that add routes). */
async function registeredRoutes(t: { after(fn: () => unknown): void }): Promise<string[]> {
  const app = await build(t, { ADMIN_API_KEY: ADMIN });
  return [...app.routePolicies.keys()];
}

const SEED = Number(process.env.FUZZ_SEED ?? 20251122);
/** At least this many requests, and at least PER_ROUTE per route. */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_500);
const PER_ROUTE = 100;
const ADDRESS = '198.51.100.23';
const ADMIN = `admin-${'z'.repeat(30)}`;
const LEAKS =
  /SQLITE|syntax error|no such (table|column)|SELECT .{0,80} FROM|relation ".*" does not exist|\bat [\w.<>$ ]+ \([^)]*:\d+:\d+\)|node:internal|\.ts:\d+:\d+|ECONNREFUSED|whsec_|sk_test_/i;

/** mulberry32: a small seeded generator, so a failing run can be repeated. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}
type Rng = ReturnType<typeof rng>;
type Schema = Record<string, any>;

const ODD_STRINGS = [
  '',
  ' ',
  '"',
  "'; DROP TABLE api_keys; --",
  '%',
  '%%',
  '_',
  '\\',
  '\u0000',
  '\uFFFF',
  '\uD800',
  '😀'.repeat(20),
  'NEAR(',
  '*',
  '../..',
  '<script>',
  'null',
  'true',
  '-1',
  '1e999',
  'NaN',
  '٣',
  '東京都',
  'ｘ'.repeat(600),
  'a'.repeat(5000),
];
const ODD_VALUES: unknown[] = [null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, '', 'x', [], {}, [null], { a: 1 }, '0'.repeat(400)];

/** A value for `schema`: mostly valid, at a boundary sometimes, of the wrong type or odd at other times. */
function value(r: Rng, schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return r.pick(ODD_VALUES);
  if (r.chance(0.12)) return r.pick(ODD_VALUES);
  if (schema.enum) return r.chance(0.85) ? r.pick(schema.enum) : r.pick(ODD_STRINGS);
  if (schema.anyOf || schema.oneOf) return value(r, r.pick(schema.anyOf ?? schema.oneOf), depth + 1);
  const type = Array.isArray(schema.type) ? r.pick(schema.type) : schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const lo = schema.minimum ?? -1000;
      const hi = schema.maximum ?? 1_000_000;
      const n = r.pick([lo, hi, lo - 1, hi + 1, r.int(Math.max(lo, -1e6), Math.min(hi, 1e6)), 0]);
      return type === 'number' && r.chance(0.2) ? n + 0.5 : n;
    }
    case 'boolean':
      return r.chance(0.8) ? r.chance(0.5) : r.pick(['yes', 1, 'TRUE']);
    case 'array': {
      const max = Math.min(schema.maxItems ?? 5, 60);
      const n = r.pick([0, 1, r.int(0, max), max, max + 1, r.chance(0.05) ? 5000 : 2]);
      return Array.from({ length: n }, () => value(r, schema.items, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, s] of Object.entries<Schema>(schema.properties ?? {})) {
        if ((schema.required ?? []).includes(k) ? r.chance(0.92) : r.chance(0.5)) out[k] = value(r, s, depth + 1);
      }
      if (r.chance(0.1)) out[r.pick(['unexpected', '__proto__', 'constructor', 'tier'])] = r.pick(ODD_VALUES);
      return out;
    }
    default: {
      if (r.chance(0.35)) return r.pick(ODD_STRINGS);
      const max = schema.maxLength ?? 40;
      const n = r.pick([schema.minLength ?? 0, Math.min(max, 12), max, max + 1]);
      if (schema.format === 'uri' || /url/i.test(schema.description ?? ''))
        return r.pick(['https://example.com/x', 'http://x', 'javascript:alert(1)', 'ftp://x', `https://${'a'.repeat(n)}`]);
      if (schema.pattern && r.chance(0.5))
        return r.pick(['UNI-0000000000', 'cus_test', 'cs_test', 'TAX-0000000000', `am_${'A'.repeat(40)}`, `ref_${'x'.repeat(20)}`]);
      return 'あいうabc123'.repeat(Math.ceil(n / 9) + 1).slice(0, n);
    }
  }
}

function deep(n: number, r: Rng): string {
  const open = r.chance(0.5) ? '['.repeat(n) : '{"a":'.repeat(n);
  return open.startsWith('[') ? `${open}${']'.repeat(n)}` : `${open}1${'}'.repeat(n)}`;
}

interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string; schema?: Schema; required?: boolean }[];
  body: Schema | null;
  /** In the OpenAPI document (false: a route the document hides, fuzzed with generic values). */
  documented: boolean;
}

/** The documented operations. */
function documented(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [p, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      out.push({
        method: method.toUpperCase(),
        path: p,
        params: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        documented: true,
      });
    }
  }
  return out;
}

/**
 * Every other route the app registers (`METHOD /path/:param`, from the route
 * declarations), as operations with generic values; HEAD routes Fastify
 * adds for GET ones and the CORS preflight are left to the GET routes.
 */
function hidden(routes: readonly string[], known: readonly Operation[]): Operation[] {
  const seen = new Set(known.map((o) => `${o.method} ${o.path}`));
  const out: Operation[] = [];
  for (const route of routes) {
    const [method, url] = route.split(' ');
    if (method === 'HEAD' || method === 'OPTIONS') continue;
    const path = url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{wildcard}');
    if (seen.has(`${method} ${path}`)) continue;
    const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', schema: { type: 'string' } }));
    out.push({ method, path, params, body: method === 'POST' ? { type: 'object' } : null, documented: false });
  }
  return out;
}

/**
 * Real values seen in answers, by the route prefix they came from (its first
 * two segments, `/v1/laws`) and property name: ids of programmes, laws,
 * records …, for parameters of routes under the same prefix.
 */
type Harvest = Map<string, Map<string, string[]>>;

const prefixOf = (path: string) => path.split('/').slice(0, 3).join('/');

function harvest(into: Harvest, prefix: string, value: unknown, key = '', depth = 0): void {
  if (depth > 6 || value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 20)) harvest(into, prefix, item, key, depth + 1);
    return;
  }
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) harvest(into, prefix, v, k, depth + 1);
    return;
  }
  if (!key || (typeof value !== 'string' && typeof value !== 'number')) return;
  const text = String(value);
  if (text.length === 0 || text.length > 80) return;
  const fields = into.get(prefix) ?? new Map<string, string[]>();
  into.set(prefix, fields);
  const list = fields.get(key) ?? [];
  if (list.length < 40 && !list.includes(text)) list.push(text);
  fields.set(key, list);
}

/**
 * A harvested value for a parameter of a route under `prefix`: of the
 * parameter's own name there, else (a path parameter) of an id-like name there.
 */
function harvested(r: Rng, found: Harvest, prefix: string, name: string, inPath: boolean): string | undefined {
  const fields = found.get(prefix);
  const own = fields?.get(name);
  if (own?.length) return r.pick(own);
  if (!inPath || !fields) return undefined;
  const ids = [...fields.entries()].filter(([k]) => k === 'id' || k.endsWith('_id')).flatMap(([, v]) => v);
  return ids.length ? r.pick(ids) : undefined;
}

interface Planned {
  raw?: Buffer;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  label: string;
}

function plan(r: Rng, op: Operation, keys: { free: string; paid: string }, found: Harvest): Planned {
  const enc = (v: unknown) => {
    const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null');
    try {
      return encodeURIComponent(text);
    } catch {
      return '%ED%A0%80'; // a lone surrogate: bytes that are not UTF-8
    }
  };
  let url = op.path.replace(/\{([^}]+)\}/g, (_, name) => {
    const p = op.params.find((x) => x.in === 'path' && x.name === name);
    const real = r.chance(0.4) ? harvested(r, found, prefixOf(op.path), name, true) : undefined;
    if (real !== undefined) return encodeURIComponent(real);
    const v = value(r, p?.schema);
    return r.chance(0.05) ? r.pick(['%', '%E0%A4%A', '%ZZ', '%00', 'x'.repeat(600)]) : enc(v === '' ? 'x' : v);
  });
  const query: string[] = [];
  for (const p of op.params.filter((x) => x.in === 'query')) {
    if (!p.required && r.chance(0.5)) continue;
    const real = r.chance(0.25) ? harvested(r, found, prefixOf(op.path), p.name, false) : undefined;
    const v = real ?? value(r, p.schema);
    const values = Array.isArray(v) && r.chance(0.5) ? v.slice(0, 5) : [v];
    for (const one of values) query.push(`${encodeURIComponent(p.name)}=${enc(one)}`);
  }
  if (r.chance(op.documented ? 0.05 : 0.3))
    query.push(r.pick(['%', 'q=%E0%A4%A', 'limit=%ZZ', '&&&', '=', 'a[b][c]=1', `q=${'x'.repeat(r.pick([3000, 20_000]))}`]));
  if (query.length) url += `?${query.join('&')}`;
  const headers: Record<string, string> = { 'x-forwarded-for': ADDRESS };
  if (r.chance(0.25)) headers['x-api-key'] = r.pick([keys.free, keys.paid, `am_${'q'.repeat(40)}`, 'garbage', ' ', 'am_']);
  if (r.chance(0.05)) headers.authorization = r.pick([`Bearer ${keys.paid}`, 'Bearer', 'Basic Zm9vOmJhcg==', `Bearer ${'x'.repeat(3000)}`]);
  if (r.chance(0.04)) headers['x-admin-key'] = r.pick([ADMIN, 'wrong']);
  if (r.chance(0.05)) headers['x-forwarded-for'] = r.pick(['unknown', 'ip:port', '203.0.113.5:80', '::1', 'fe80::1%eth0', `${ADDRESS}, 10.0.0.1`]);
  if (r.chance(0.03)) headers['x-request-id'] = r.pick(['../../etc', 'a'.repeat(500), 'ok-id']);
  if (r.chance(0.03)) headers['if-none-match'] = r.pick(['*', 'W/"x"', `"${'y'.repeat(200)}"`]);
  if (r.chance(0.03)) headers['accept-encoding'] = r.pick(['br', 'gzip;q=0', 'identity, *;q=0', 'x'.repeat(100)]);
  let body: string | Buffer | undefined;
  const method = op.method === 'HEAD' ? 'HEAD' : op.method;
  if (method === 'POST') {
    const kind = r.next();
    if (op.path === '/v1/billing/webhook') {
      body = JSON.stringify(value(r, { type: 'object', properties: { id: { type: 'string' }, type: { type: 'string' } } }));
      headers['payment-signature'] = r.pick(['t=1,v1=abc', `t=${Math.floor(Date.now() / 1000) + 9999},v1=00`, '', 'garbage', 't=,v1=']);
    } else if (kind < 0.7) body = JSON.stringify(value(r, op.body ?? { type: 'object' }));
    else if (kind < 0.76) body = deep(r.pick([33, 200, 20_000]), r);
    else if (kind < 0.8) body = JSON.stringify({ pad: 'p'.repeat(r.pick([200_000, 300_000])) });
    else if (kind < 0.85) body = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]);
    else if (kind < 0.9) body = r.pick(['{', '{"a":', 'nul', '[1,]', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '']);
    else body = JSON.stringify(r.pick(ODD_VALUES));
    headers['content-type'] = r.chance(0.9)
      ? 'application/json'
      : r.pick([
          'text/plain',
          'application/json; charset=latin1',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencoded',
          'application/json; charset=utf-8',
          '',
        ]);
    if (headers['content-type'] === '') delete headers['content-type'];
    if (r.chance(0.02)) headers['content-encoding'] = r.pick(['gzip', 'br', 'deflate', 'nonsense']);
  }
  if (r.chance(0.12)) return { ...rawPlan(r, method, url, headers, body), label: `${op.method} ${op.path} (raw)` };
  return { method, url, headers, body, label: `${op.method} ${op.path}` };
}

/** A request written byte by byte on a socket: bad bytes in the URL, a lying Content-Length, broken chunks, huge headers. */
function rawPlan(r: Rng, method: string, url: string, headers: Record<string, string>, body?: string | Buffer): Omit<Planned, 'label'> {
  const bodyBytes = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body);
  const variant = r.int(0, 5);
  const target = variant === 0 ? Buffer.concat([Buffer.from(url.split('?')[0]), Buffer.from([0x2f, 0xff, 0xfe, 0x80])]) : Buffer.from(url);
  const lines = [`${method} `, target, ` HTTP/1.1\r\nHost: fuzz\r\n`];
  const head: Buffer[] = lines.map((l) => (Buffer.isBuffer(l) ? l : Buffer.from(l)));
  for (const [k, v] of Object.entries(headers)) head.push(Buffer.from(`${k}: ${v}\r\n`));
  if (variant === 1) head.push(Buffer.from(`X-Huge: ${'h'.repeat(20_000)}\r\n`));
  if (variant === 2) head.push(Buffer.from('Bad Header Name: x\r\n'));
  let payload = bodyBytes;
  if (variant === 3 && method === 'POST') {
    head.push(Buffer.from('Transfer-Encoding: chunked\r\n'));
    payload = Buffer.from(`zz\r\n${bodyBytes.toString('latin1')}\r\n0\r\n\r\n`, 'latin1');
  } else if (variant === 4 && method === 'POST') {
    head.push(Buffer.from(`Content-Length: ${bodyBytes.length + 5}\r\nContent-Length: ${bodyBytes.length}\r\n`));
  } else if (method === 'POST' || bodyBytes.length) {
    head.push(Buffer.from(`Content-Length: ${bodyBytes.length}\r\n`));
  }
  head.push(Buffer.from('Connection: close\r\n\r\n'));
  return { raw: Buffer.concat([...head, payload]), method, url, headers };
}

/** Send raw bytes; resolve with the parsed answer, or null when the server closed without one (allowed only for refused framing). */
function sendRaw(port: number, bytes: Buffer): Promise<Answer | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const match = /^HTTP\/1\.1 (\d{3})[^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(text);
      if (!match) return resolve(null);
      const headers: http.IncomingHttpHeaders = {};
      for (const line of match[2].split('\r\n')) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      let payload = match[3];
      if (/chunked/i.test(String(headers['transfer-encoding']))) payload = payload.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '');
      resolve({ status: Number(match[1]), headers, body: payload });
    });
    // No half-close: the request says Connection: close, the server closes after its answer.
    socket.write(bytes);
  });
}

test(`seeded fuzzer over every route of the server: the OpenAPI document and the routes it hides (seed ${SEED})`, { timeout: 600_000 }, async (t) => {
  const dataDir = await privateDataDir(t);
  const fake = await startFakeStripe(t);
  const setup = openSqliteStore(path.join(dataDir, 'state.sqlite'));
  await setup.migrate();
  const free = generateApiKey();
  const paid = generateApiKey();
  await setup.keys.create({ keyHash: free.hash, prefix: free.prefix, tier: 'free' });
  const customer = fake.createCustomer();
  await setup.keys.create({ keyHash: paid.hash, prefix: paid.prefix, tier: 'paid', customerId: customer.id, subscriptionId: 'sub_fuzz' });
  await setup.close();
  const server = await startServer(t, {
    DATA_DIR: dataDir,
    TRUST_PROXY: '1',
    ADMIN_API_KEY: ADMIN,
    ANON_DAILY_LIMIT: '10000000',
    FREE_DAILY_LIMIT: '10000000',
    FEEDBACK_DAILY_LIMIT: '10000000',
    PORTAL_DAILY_LIMIT: '10000000',
    WRITE_DAILY_LIMIT: '10000000',
    SUBSCRIBE_DAILY_LIMIT: '10000000',
    CHECKOUT_DAILY_LIMIT: '10000000',
    WEBHOOK_TEST_DAILY_LIMIT: '10000000',
    AUTH_FAILURE_LIMIT: '10000000',
    ...fake.env({ STRIPE_METER_FLUSH_SECONDS: '1', STRIPE_MAX_NETWORK_RETRIES: '0' }),
  });
  const port = Number(new URL(server.url).port);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 12 });
  t.after(() => agent.destroy());
  const doc = JSON.parse((await request(agent, `${server.url}/v1/openapi.json`)).body);
  const inDocument = documented(doc);
  const ops = [...inDocument, ...hidden(await registeredRoutes(t), inDocument)];
  assert.ok(inDocument.length >= 55, `${inDocument.length} operations documented`);

  // Real values first: the answers of the routes that list (GET, no path parameter, their defaults), then of
  // the GET routes with one path parameter, called with a value the first round found (articles of a law …).
  const found: Harvest = new Map();
  const seedRng = rng(SEED ^ 0x5eed);
  const read = async (op: Operation, url: string) => {
    const answer = await request(agent, `${server.url}${url}`, { headers: { 'x-forwarded-for': ADDRESS, 'x-api-key': paid.key } });
    if (answer.status === 200 && /json/.test(String(answer.headers['content-type']))) harvest(found, prefixOf(op.path), JSON.parse(answer.body));
  };
  const gets = inDocument.filter((o) => o.method === 'GET');
  for (const op of gets.filter((o) => !o.path.includes('{'))) await read(op, op.path);
  for (const op of gets.filter((o) => (o.path.match(/\{/g) ?? []).length === 1)) {
    const name = /\{(\w+)\}/.exec(op.path)![1];
    const value = harvested(seedRng, found, prefixOf(op.path), name, true);
    if (value !== undefined) await read(op, op.path.replace(/\{\w+\}/, encodeURIComponent(value)));
  }

  const r = rng(SEED);
  const count = Math.max(REQUESTS, ops.length * PER_ROUTE);
  const plans: Planned[] = Array.from({ length: count }, (_, i) => plan(r, ops[i % ops.length], { free: free.key, paid: paid.key }, found));
  const perRoute = new Map<string, { requests: number; ok: number }>();
  for (const op of ops) perRoute.set(`${op.method} ${op.path}`, { requests: 0, ok: 0 });
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let noAnswer = 0;
  let warmRss = 0;
  const check = (p: Planned, answer: Answer | null) => {
    const route = perRoute.get(p.label.replace(/ \(raw\)$/, ''))!;
    route.requests++;
    if (answer && answer.status < 300) route.ok++;
    if (!answer) {
      noAnswer++;
      if (!p.raw) failures.push(`${p.label}: no answer`);
      return;
    }
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const where = `${p.label} ${p.url.slice(0, 120)} -> ${answer.status} ${answer.body.slice(0, 160)}`;
    if (answer.status >= 500) failures.push(`5xx: ${where}`);
    if (answer.status >= 400 && p.method !== 'HEAD') {
      // Our one error shape; a JSON-RPC endpoint (/mcp) answers its protocol's error object instead.
      let parsed: { detail?: unknown; jsonrpc?: unknown; error?: { message?: unknown } } | null = null;
      try {
        parsed = JSON.parse(answer.body);
      } catch {
        parsed = null;
      }
      const jsonRpcError = parsed?.jsonrpc === '2.0' && typeof parsed.error?.message === 'string';
      if (typeof parsed?.detail !== 'string' && !jsonRpcError) failures.push(`no {detail}: ${where}`);
    }
    const sentKey = [free.key, paid.key, ADMIN].find((k) => answer.body.includes(k) || JSON.stringify(answer.headers).includes(k));
    if (sentKey) failures.push(`key leaked: ${where}`);
    if (answer.body.includes(ADDRESS)) failures.push(`address leaked: ${where}`);
    // Static assets (scripts, styles of the portal) are files shipped as they are, not answers the server composed.
    const asset = /javascript|text\/css|image\//.test(String(answer.headers['content-type'])) && answer.status < 300;
    if (!asset && LEAKS.test(answer.body)) failures.push(`internals leaked: ${where}`);
  };
  await pool(plans, 12, async (p, i) => {
    if (i === 1000) warmRss = server.rss();
    let answer: Answer | null;
    try {
      answer = p.raw ? await sendRaw(port, p.raw) : await request(agent, `${server.url}${p.url}`, { method: p.method, headers: p.headers, body: p.body });
    } catch (err) {
      answer = null;
      failures.push(`${p.label}: ${(err as Error).message}`);
    }
    check(p, answer);
  });

  const endRss = server.rss();
  const health = await request(new http.Agent(), `${server.url}/healthz`);
  const ready = await request(new http.Agent(), `${server.url}/readyz`);
  const log = server.output();
  const neverOk = [...perRoute].filter(([, c]) => c.ok === 0).map(([route]) => route);
  t.diagnostic(
    `${inDocument.length} documented operations and ${ops.length - inDocument.length} other routes; values harvested under ${found.size} route prefixes; routes never answered 2xx: ${neverOk.join(', ') || 'none'}`,
  );
  t.diagnostic(
    `seed ${SEED}: ${plans.length} requests over ${ops.length} routes; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; ${noAnswer} raw requests closed without an answer; RSS ${Math.round(warmRss / 1e6)} MB after 1,000, ${Math.round(endRss / 1e6)} MB at the end`,
  );
  assert.deepEqual(failures.slice(0, 20), [], `${failures.length} failures`);
  assert.ok(plans.length >= 10_000 || process.env.FUZZ_REQUESTS, 'at least 10,000 requests');
  const underFuzzed = [...perRoute].filter(([, c]) => c.requests < Math.min(PER_ROUTE, Math.floor(plans.length / ops.length)));
  assert.deepEqual(underFuzzed, [], 'every route the server has is fuzzed');
  assert.ok(noAnswer < plans.length * 0.01, `${noAnswer} sockets closed without an answer`);
  assert.equal(health.status, 200, 'healthy afterwards');
  assert.equal(ready.status, 200, 'ready afterwards');
  assert.ok(endRss < warmRss + 256e6 && endRss < 1.5e9, `memory bounded: ${warmRss} -> ${endRss}`);
  for (const secret of [free.key, paid.key, ADMIN, ADDRESS]) assert.ok(!log.includes(secret), `the log holds no ${secret.slice(0, 6)}…`);
  assert.doesNotMatch(log, /"statusCode":5\d\d/, 'no 5xx in the log either');
});
