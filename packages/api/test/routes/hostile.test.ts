// Hostile inputs answer 4xx or a normal result, never 500, and never echo internals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';

const HOSTILE_Q = [
  '"',
  '""',
  "'",
  "' OR 1=1 --",
  'AND',
  'OR',
  'NOT',
  'NEAR(',
  'NEAR(a b, 2)',
  '*',
  'abc*',
  '^abc',
  'primary_name:abc',
  '(',
  ')',
  '%',
  '_',
  '%%%',
  '\\',
  '50%_',
  '😀',
  '😀😀😀',
  '\u0000',
  'a\u0000bc',
  '補助金\u0000',
  '\u202e\u200b',
  '<script>',
  'x'.repeat(499),
  '補'.repeat(300),
];

function assertClean(res: { statusCode: number; body: string }, what: string): void {
  assert.ok(res.statusCode < 500, `${what}: status ${res.statusCode}`);
  assert.doesNotMatch(res.body, /SQLITE|syntax error|at .*\.ts:\d+|fts5/i, `${what}: no internals`);
}

test('search q: operators, quotes, wildcards, NUL, emoji never break the query', async (t) => {
  const app = await build(t);
  for (const q of HOSTILE_Q) {
    const res = await app.inject(`/v1/programs/search?q=${encodeURIComponent(q)}`);
    assertClean(res, JSON.stringify(q));
    assert.equal(res.statusCode, 200, JSON.stringify(q));
    assert.equal(typeof body(res).total, 'number');
  }
});

test('search q of 5,000 characters is refused with 400', async (t) => {
  const app = await build(t);
  const res = await app.inject(`/v1/programs/search?q=${'a'.repeat(5000)}`);
  assert.equal(res.statusCode, 400);
  assert.match(body(res).detail, /q/);
});

test('numbers: negative, huge, NaN, exponent and fractional values answer 400 or a normal result', async (t) => {
  const app = await build(t);
  const cases = [
    'amount_min=-1',
    'amount_max=1e400',
    'amount_min=NaN',
    'amount_max=Infinity',
    'limit=1e2',
    'limit=99999999999999999999',
    'offset=99999999999',
    'offset=-0',
    'amount_min=0x10',
    'amount_min=1e3',
    'limit=',
    'tier=',
    `prefecture=${'x'.repeat(100)}`,
  ];
  for (const q of cases) {
    const res = await app.inject(`/v1/programs/search?${q}`);
    assertClean(res, q);
    assert.ok([200, 400].includes(res.statusCode), `${q}: ${res.statusCode}`);
  }
});

test('bodies: malformed JSON, wrong types, wrong content type, huge payloads, prototype pollution', async (t) => {
  const app = await build(t);
  const post = (payload: string, contentType = 'application/json') =>
    app.inject({ method: 'POST', url: '/v1/programs/batch', headers: { 'content-type': contentType }, payload });
  const cases: [string, string, number][] = [
    ['{"unified_ids": [', 'application/json', 400],
    ['', 'application/json', 400],
    ['null', 'application/json', 400],
    ['[]', 'application/json', 400],
    ['{"unified_ids": "UNI-1"}', 'application/json', 400],
    ['{"unified_ids": [1, 2]}', 'application/json', 400],
    ['{"unified_ids": [null]}', 'application/json', 400],
    ['{"unified_ids": ["x"], "__proto__": {"admin": true}}', 'application/json', 400],
    ['unified_ids=x', 'application/x-www-form-urlencoded', 415],
    ['<x/>', 'application/xml', 415],
    [JSON.stringify({ unified_ids: Array(5000).fill('x'.repeat(90)) }), 'application/json', 413],
  ];
  for (const [payload, type, status] of cases) {
    const res = await post(payload, type);
    assertClean(res, payload.slice(0, 40));
    assert.equal(res.statusCode, status, `${payload.slice(0, 40)} (${type})`);
    assert.equal(typeof body(res).detail, 'string');
  }
  assert.equal(({} as Record<string, unknown>).admin, undefined, 'no prototype pollution');
});

test('path parameters: odd ids answer 404 JSON, over-long ones 4xx', async (t) => {
  const app = await build(t);
  for (const id of ["UNI-' OR 1=1", '%00', '😀', '..%2F..%2Fetc%2Fpasswd', 'UNI-%22%3Cx%3E']) {
    const res = await app.inject(`/v1/programs/${id}`);
    assertClean(res, id);
    assert.equal(res.statusCode, 404, id);
  }
  const long = await app.inject(`/v1/programs/${'x'.repeat(1000)}`);
  assert.ok(long.statusCode >= 400 && long.statusCode < 500);
});

test('exclusion check with hostile ids is a normal answer', async (t) => {
  const app = await build(t);
  const res = await app.inject({ method: 'POST', url: '/v1/exclusions/check', payload: { program_ids: ['"', 'NEAR(', '%', '\u0000', '😀'] } });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(body(res).hits, []);
});
