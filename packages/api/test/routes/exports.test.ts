// Exports of the record-set searches (format=csv|jsonl): CSV that a
// spreadsheet opens (BOM, one header row of the row schema's fields, the
// Japanese text intact, parsed here by csv-parse), JSON Lines equal to the
// JSON rows, a cap on rows, and one unit of quota and billing per started
// 100 rows, taken before the first byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { build, body } from '../helper.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { recordSetSchemas } from '../../src/schemas/record-sets.ts';
import { columnsOf } from '../../src/exports/columns.ts';
import { RECORD_SETS } from '../../src/catalog/record-sets/index.ts';
import { csvCell } from '../../src/exports/encode.ts';
import { CHUNK_ROWS } from '../../src/routes/v1/export-sender.ts';

const spec = (name: string) => RECORD_SETS.find((s) => s.name === name)!;

test("CSV: BOM, the row schema's columns, Japanese text intact, rows in the JSON answer's order; JSONL equals the JSON rows", async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000' });
  const res = await app.inject(`/v1/enforcement/search?q=${encodeURIComponent('補助金')}&format=csv&max_rows=150`);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  assert.match(String(res.headers['content-disposition']), /^attachment; filename="enforcement-\d{8}\.csv"$/);
  assert.ok(res.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])), 'UTF-8 byte-order mark');
  const records: string[][] = parse(res.rawPayload.toString('utf8'), { bom: true });
  const header = records[0];
  assert.deepEqual(
    header,
    columnsOf(recordSetSchemas(spec('enforcement')).row).map((c) => c.name),
  );
  const json = body(await app.inject(`/v1/enforcement/search?q=${encodeURIComponent('補助金')}&limit=100`));
  const total = json.total;
  const rows = records.slice(1);
  assert.equal(rows.length, Math.min(150, total));
  assert.equal(res.headers['x-total-count'], String(total));
  for (let i = 0; i < 100 && i < rows.length; i++) {
    const byName = Object.fromEntries(header.map((h, j) => [h, rows[i][j]]));
    assert.equal(byName.enforcement_id, json.results[i].enforcement_id);
    assert.equal(byName.title, json.results[i].title ?? '', 'Japanese text round-trips');
  }
  assert.match(rows.map((r) => r[header.indexOf('title')]).join(''), /[\u3040-\u30ff\u4e00-\u9fff]/);

  const tax = await app.inject('/v1/tax_rulesets/search?format=jsonl');
  assert.equal(tax.headers['content-type'], 'application/x-ndjson; charset=utf-8');
  const lines = tax.body
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  const taxJson = body(await app.inject('/v1/tax_rulesets/search?limit=100'));
  assert.deepEqual(lines, taxJson.results, "every row, the JSON answer's shape (limit does not apply to exports)");

  // Fields the row schema leaves open (JSON columns) are JSON text.
  const taxCsv: string[][] = parse((await app.inject('/v1/tax_rulesets/search?format=csv')).body, { bom: true });
  const basis = taxCsv[0].indexOf('legal_basis');
  assert.deepEqual(JSON.parse(taxCsv[1][basis]), taxJson.results[0].legal_basis);
  const conditions = taxCsv[0].indexOf('eligibility_conditions_json');
  assert.deepEqual(JSON.parse(taxCsv[1][conditions]), taxJson.results[0].eligibility_conditions_json);
});

test('CSV cells: quotes, line breaks and formula-looking text are escaped', () => {
  assert.equal(csvCell('a,"b"\nc'), '"a,""b""\nc"');
  assert.equal(csvCell('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
  assert.equal(csvCell(-5), '-5', 'numbers are left alone');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(['東京都', '大阪府'], 'list'), '東京都 | 大阪府');
});

test('exports cost one unit per started 100 rows, taken before the first byte; the row cap holds', async (t) => {
  const app = await build(t, { FREE_DAILY_LIMIT: '5', EXPORT_MAX_ROWS: '250' });
  const k = generateApiKey();
  await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free', customerId: null });
  const headers = { 'x-api-key': k.key };
  const res = await app.inject({ url: '/v1/laws/search?format=csv', headers });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['x-export-rows'], '250', 'capped by EXPORT_MAX_ROWS');
  assert.equal(res.headers['x-export-truncated'], 'true');
  assert.equal(res.headers['x-export-units'], '3');
  assert.equal(res.headers['ratelimit-remaining'], '2', '250 rows took 3 of 5');
  assert.equal(parse(res.body, { bom: true }).length, 251);
  const refused = await app.inject({ url: '/v1/laws/search?format=jsonl&max_rows=201', headers });
  assert.equal(refused.statusCode, 429, 'needs 3, 2 remain: refused before anything is sent');
  assert.match(body(refused).detail, /needs 3 requests of the daily allowance/);
  const small = await app.inject({ url: '/v1/laws/search?format=jsonl&max_rows=100&offset=10', headers });
  assert.equal(small.statusCode, 200, 'the refused export took only its own first unit');
  assert.equal(small.body.trimEnd().split('\n').length, 100);
  assert.equal((await app.inject({ url: '/v1/laws/search?limit=1', headers })).statusCode, 429, 'the day is used up');
});

test('a paid key is billed one unit per started 100 rows; the monthly cap is checked for the whole export', async (t) => {
  const app = await build(t, { EXPORT_MAX_ROWS: '10000' });
  const k = generateApiKey();
  const key = await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'paid', customerId: 'cus_export' });
  const headers = { 'x-api-key': k.key };
  const res = await app.inject({ url: '/v1/enforcement/search?format=csv&max_rows=201', headers });
  assert.equal(res.statusCode, 200);
  assert.equal(await app.state.usage.monthlySpend(key.id, new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 7)), 3 * app.config.unitPriceYen);
  const [meter] = await app.state.meterOutbox.pending(10);
  assert.equal(meter.value, 3, 'the meter event carries the units');
  await app.state.keys.setMonthlyCap(key.id, 4 * app.config.unitPriceYen);
  const over = await app.inject({ url: '/v1/enforcement/search?format=csv&max_rows=200', headers });
  assert.equal(over.statusCode, 402, 'two more units would pass the cap');
  assert.match(body(over).detail, /costs 2 units/);
  assert.equal((await app.inject({ url: '/v1/enforcement/search?format=csv&max_rows=100', headers })).statusCode, 200, 'one fits');
});

test("program search: CSV of the default shape (windows as two columns, lists joined), the search's order; JSONL of the chosen shape", async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000' });
  const q = encodeURIComponent('補助金');
  const res = await app.inject(`/v1/programs/search?q=${q}&prefecture=${encodeURIComponent('東京都')}&format=csv&max_rows=120`);
  assert.equal(res.statusCode, 200, res.body);
  const records: string[][] = parse(res.body, { bom: true });
  const header = records[0];
  assert.ok(header.includes('application_window.start') && header.includes('application_window.end') && header.includes('primary_name'));
  assert.ok(!header.includes('source_mentions'), 'the default shape, not the full one');
  const json = body(await app.inject(`/v1/programs/search?q=${q}&prefecture=${encodeURIComponent('東京都')}&limit=100`));
  assert.equal(records.length - 1, Math.min(120, json.total));
  for (let i = 0; i < Math.min(100, json.total); i++) {
    const row = Object.fromEntries(header.map((h, j) => [h, records[i + 1][j]]));
    assert.equal(row.unified_id, json.results[i].unified_id);
    assert.equal(row.primary_name, json.results[i].primary_name, 'Japanese names intact');
    assert.equal(row.prefecture, '東京都');
    assert.equal(row.target_types, json.results[i].target_types.join(' | '));
    assert.equal(row['application_window.end'], json.results[i].application_window.end ?? '');
  }
  const minimal = await app.inject(`/v1/programs/search?q=${q}&format=jsonl&fields=minimal&max_rows=5`);
  const lines = minimal.body
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(lines, body(await app.inject(`/v1/programs/search?q=${q}&fields=minimal&limit=5`)).results);
  assert.equal((await app.inject('/v1/programs/search?format=xlsx')).statusCode, 400);
  assert.equal((await app.inject('/v1/programs/search?format=csv&authority_level=galactic')).statusCode, 400);
});

test('an export of every programme lets the event loop turn between its chunks, however fast the client reads', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000' });
  // Turns of the loop while the export runs: a chain of setImmediate, one link per turn.
  let turns = 0;
  let running = true;
  const turn = () => {
    turns++;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  const res = await app.inject('/v1/programs/search?format=jsonl&fields=full');
  running = false;
  assert.equal(res.statusCode, 200);
  const rows = res.body.trim().split('\n').length;
  assert.equal(String(rows), res.headers['x-export-rows']);
  assert.ok(rows > 5 * CHUNK_ROWS, `${rows} rows`);
  // The loop turned at least once per chunk: no chunk waits for the one after it.
  assert.ok(turns >= Math.floor(rows / CHUNK_ROWS), `${turns} turns for ${rows} rows in chunks of ${CHUNK_ROWS}`);
});
