// The parts of the syncs on their own: the polite client (retries, Retry-After,
// pacing), the jGrants mapping and shape checks, the overlay merge, and the
// live catalogue's leases.
import { datasetVersionId, layIn, localVersionId } from '../../src/ingest/dataset-version.ts';
import { activeOverlayDirs } from '../../src/ingest/overlays.ts';
import { sha256Hex } from '../../src/lib/hash.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PoliteClient, retryAfterMs, SourceHttpError } from '../../src/sources/http.ts';
import { DESCRIPTION_MAX, descriptionOf, htmlToText, jstDateTime, mapDetail } from '../../src/sources/jgrants/map.ts';
import { detailDrift, type JgrantsDetail } from '../../src/sources/jgrants/shape.ts';
import { mergeOverlays, OVERLAY_RULES } from '../../src/ingest/overlays.ts';
import { LiveCatalog } from '../../src/catalog/live.ts';
import { ensureCatalog } from '../../src/ingest/ensure.ts';
import { CATALOG_PLAN } from '../../src/ingest/plan.ts';
import { tempDir } from '../helper.ts';
import { jgrantsRecord } from '../fakes/jgrants-server.ts';
import { SOURCES_DATASET } from './fixture.ts';
import { progressReporter } from '../../src/sources/progress.ts';

async function scriptedServer(t: { after(fn: () => unknown): void }, answers: { status: number; headers?: Record<string, string>; body?: string }[]) {
  let i = 0;
  const server = createServer((_req, res) => {
    const a = answers[Math.min(i++, answers.length - 1)];
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(a.body ?? '{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`, calls: () => i };
}

test('Retry-After is read as seconds or as an HTTP date', () => {
  assert.equal(retryAfterMs('7'), 7000);
  assert.equal(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2026, 0, 1)), 30_000);
  assert.equal(retryAfterMs('soon'), null);
  assert.equal(retryAfterMs(null), null);
});

test('the client retries 429 (honouring Retry-After), 5xx and network errors with doubling backoff, and not other 4xx', async (t) => {
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  const s = await scriptedServer(t, [{ status: 429, headers: { 'retry-after': '3' } }, { status: 503 }, { status: 502 }, { status: 200, body: '{"ok":true}' }]);
  const client = new PoliteClient({ rate: 0, maxRetries: 5, backoffMs: 100, sleep });
  assert.deepEqual(await client.getJson(s.url), { ok: true });
  assert.deepEqual(waits, [3000, 200, 400], 'Retry-After, then 100·2^attempt');
  assert.equal(client.requests, 4);

  const notFound = await scriptedServer(t, [{ status: 404 }]);
  await assert.rejects(
    new PoliteClient({ rate: 0, maxRetries: 5, sleep }).getJson(notFound.url),
    (e: unknown) => e instanceof SourceHttpError && e.status === 404,
  );
  assert.equal(notFound.calls(), 1, 'a 404 is not retried');

  waits.length = 0;
  // Nothing listens on port 9 of loopback: connection refused, retried, then given up.
  await assert.rejects(new PoliteClient({ rate: 0, maxRetries: 2, backoffMs: 10, sleep }).getJson('http://127.0.0.1:9/x'), /gave up after 3 attempts/);
  assert.deepEqual(waits, [10, 20]);

  waits.length = 0;
  // Options passed as undefined (as the CLI passes backoffMs) keep their defaults: 500·2^attempt.
  await assert.rejects(new PoliteClient({ rate: 0, maxRetries: 2, backoffMs: undefined, sleep }).getJson('http://127.0.0.1:9/x'), /gave up after 3 attempts/);
  assert.deepEqual(waits, [500, 1000]);
});

test('the client spaces requests by its rate', async (t) => {
  const s = await scriptedServer(t, [{ status: 200 }]);
  const waits: number[] = [];
  const client = new PoliteClient({
    rate: 2,
    maxRetries: 0,
    sleep: async (ms) => {
      waits.push(ms);
      await new Promise((r) => setTimeout(r, ms));
    },
  });
  for (let i = 0; i < 3; i++) await client.getJson(s.url);
  assert.equal(waits.length, 2, 'the second and third requests waited for their slot');
  for (const w of waits) assert.ok(w > 0 && w <= 500, `waited ${w} ms of a 500 ms slot`);
});

test('jGrants date-times become Japan dates; amounts become 万円; areas, industries and bands are read', () => {
  assert.deepEqual(jstDateTime('2026-03-31T15:00:00.000Z'), { date: '2026-04-01', at: '2026-04-01T00:00:00+09:00' });
  assert.deepEqual(jstDateTime('2026-03-31T23:59:59+09:00'), { date: '2026-03-31', at: '2026-03-31T23:59:59+09:00' });
  assert.deepEqual(jstDateTime('2026-03-31 10:00'), { date: '2026-03-31', at: '2026-03-31T10:00:00+09:00' }, 'no zone: Japan time');
  assert.equal(jstDateTime('3月末'), null);
  const r = mapDetail(
    jgrantsRecord('x1', '補助金A', {
      subsidy_max_limit: 12_345_678,
      target_area_search: '東京都 / 神奈川県',
      industry: '農業，林業 / 情報通信業 / 宇宙業',
      target_number_of_employees: '従業員数の制約なし',
      acceptance_start_datetime: null,
    }) as unknown as JgrantsDetail,
  );
  assert.ok(r.ok);
  assert.equal(r.fields.amount_max_man_yen, 1234.57);
  assert.equal(r.fields.prefecture, null, 'two prefectures: no single one');
  assert.deepEqual(r.fields.prefectures, ['東京都', '神奈川県']);
  assert.deepEqual(r.fields.jsic_majors, ['A', 'G']);
  assert.deepEqual(r.warnings, ['industry not in JSIC: 宇宙業']);
  assert.deepEqual(r.fields.target_types, ['employees_any']);
  assert.deepEqual(r.fields.application_window?.start, null);
  assert.equal(mapDetail(jgrantsRecord('x2', '補助金B', { subsidy_max_limit: 0 }) as unknown as JgrantsDetail).ok && 'ok', 'ok');
  const bad = mapDetail(
    jgrantsRecord('x3', ' ', {
      subsidy_max_limit: -5,
      acceptance_start_datetime: '2026-05-01T00:00:00Z',
      acceptance_end_datetime: '2026-04-01T00:00:00Z',
    }) as unknown as JgrantsDetail,
  );
  assert.ok(!bad.ok);
  assert.deepEqual(bad.reasons, ['title is empty', 'acceptance window ends before it starts', 'subsidy_max_limit is not an amount: -5']);
});

test('jGrants detail HTML becomes plain text: tags, breaks, entities, scripts; catch phrase first; cut at 2,000 characters', () => {
  assert.equal(htmlToText('<p>一行目</p><p>二行目<br/>三&nbsp;行目 &lt;注&gt; &#x2460;&#9312;</p><style>p{}</style>'), '一行目\n二行目\n三 行目 <注> ①①');
  assert.equal(htmlToText('<div>  空白　 と\t改行\r\n\n </div>'), '空白 と 改行');
  assert.equal(htmlToText('&bogus; &#0; &#x110000;'), '&bogus;');
  assert.equal(descriptionOf({ subsidy_catch_phrase: 'キャッチ', detail: '<p>本文</p>' }), 'キャッチ\n本文');
  assert.equal(descriptionOf({ subsidy_catch_phrase: '同じ', detail: '<b>同じ</b>' }), '同じ', 'the same text once');
  assert.equal(descriptionOf({ subsidy_catch_phrase: null, detail: '<p> </p>' }), null);
  assert.equal(descriptionOf({}), null);
  const long = descriptionOf({ detail: 'あ'.repeat(DESCRIPTION_MAX + 10) })!;
  assert.equal([...long].length, DESCRIPTION_MAX);
  assert.ok(long.endsWith('…'));
});

test('shape drift: missing required fields and wrong JSON types; extra fields are not drift', () => {
  assert.deepEqual(detailDrift(jgrantsRecord('x', 't', { brand_new_field: [1, 2] })), []);
  assert.deepEqual(detailDrift({ ...jgrantsRecord('x', 't'), id: 7, industry: ['製造業'] }), [
    'field id: expected string, got number',
    'field industry: expected string or null, got array',
  ]);
  const { acceptance_end_datetime: _gone, ...rest } = jgrantsRecord('x', 't');
  assert.deepEqual(detailDrift(rest), ['required field acceptance_end_datetime missing']);
  assert.deepEqual(detailDrift('x'), ['record is not a JSON object']);
});

test('overlays enrich base records, add new ones, replace groups, and drop enrichments of records gone', async (t) => {
  const dir = tempDir(t);
  const base = path.join(dir, 'programs.jsonl');
  writeFileSync(
    base,
    [
      { unified_id: 'UNI-a', primary_name: 'A', amount_max_man_yen: 1, _provenance: { primary_name: 'idx', amount_max_man_yen: 'idx' } },
      { unified_id: 'UNI-b', primary_name: 'B' },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  const overlay = path.join(dir, 'overlay.jsonl');
  writeFileSync(
    overlay,
    `${[
      { _overlay: 'enrich', unified_id: 'UNI-a', amount_max_man_yen: 5, _provenance: { amount_max_man_yen: 'jgrants: x' } },
      { _overlay: 'new', unified_id: 'UNI-jg-1', primary_name: 'New' },
      { _overlay: 'enrich', unified_id: 'UNI-gone', amount_max_man_yen: 2 },
      { unified_id: 'UNI-c' },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n')}\n{broken`,
  );
  const warnings: string[] = [];
  const out = [];
  for await (const line of mergeOverlays(base, [overlay], OVERLAY_RULES.programs, (w) => warnings.push(w))) out.push(line);
  const ok = out.filter((l) => l.ok).map((l) => (l as { record: Record<string, unknown> }).record);
  assert.deepEqual(ok[0], {
    unified_id: 'UNI-a',
    primary_name: 'A',
    amount_max_man_yen: 5,
    _provenance: { primary_name: 'idx', amount_max_man_yen: 'jgrants: x' },
  });
  assert.deepEqual(
    ok.map((r) => r.unified_id),
    ['UNI-a', 'UNI-b', 'UNI-jg-1'],
  );
  assert.equal(out.filter((l) => !l.ok && l.overlay).length, 2, 'the keyless record and the broken line are rejected as overlay lines');
  assert.match(warnings[0], /enrichment of UNI-gone dropped/);

  const articles = path.join(dir, 'law_articles.jsonl');
  writeFileSync(
    articles,
    [
      { law_slug: 'x', seq: 1 },
      { law_slug: 'x', seq: 2 },
      { law_slug: 'y', seq: 1 },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  const newArticles = path.join(dir, 'new-articles.jsonl');
  writeFileSync(newArticles, JSON.stringify({ _overlay: 'new', law_slug: 'x', seq: 1, text: 'new' }));
  const merged = [];
  for await (const l of mergeOverlays(articles, [newArticles], OVERLAY_RULES.law_articles, () => {})) if (l.ok) merged.push(l.record);
  assert.deepEqual(merged, [
    { law_slug: 'y', seq: 1 },
    { law_slug: 'x', seq: 1, text: 'new' },
  ]);
});

test('the live catalogue swaps on a new file and closes the old one only when its leases are released', async (t) => {
  const dir = tempDir(t);
  const { path: file } = await ensureCatalog(CATALOG_PLAN, dir, SOURCES_DATASET);
  const events: string[] = [];
  const live = new LiveCatalog(file, { pollMs: 0, log: (e) => events.push(e.type) });
  t.after(() => live.close());
  const before = live.catalog;
  assert.equal(await live.check(), false, 'same file: nothing to do');
  const lease = live.acquire();
  // A new file renamed over the old path (as ingest and a sync publish).
  copyFileSync(file, `${file}.next`);
  renameSync(`${file}.next`, file);
  assert.equal(await live.check(), true);
  assert.notEqual(live.catalog, before);
  assert.deepEqual(events, ['swapped']);
  assert.ok(before.db.ping(), 'still open for the request holding it');
  lease.release();
  lease.release();
  assert.deepEqual(events, ['swapped', 'closed-retired']);
  assert.throws(() => before.db.ping());
  assert.ok(live.catalog.db.ping());
});

test('progress: a bar redrawn in place on a terminal, a line per tenth otherwise', () => {
  const tty: string[] = [];
  const bar = progressReporter({ write: (s: string) => tty.push(s), isTTY: true });
  bar.phase('details', 4);
  for (let i = 1; i <= 4; i++) bar.tick(i);
  bar.line('done');
  assert.equal(tty[0], 'details: 4 to do\n');
  assert.equal(tty[4], '\r[##############################] 4/4 details');
  assert.equal(tty[5], '\r\x1b[K', 'the bar is cleared before a line');
  const plain: string[] = [];
  const lines = progressReporter({ write: (s: string) => plain.push(s) });
  lines.phase('details', 100);
  for (let i = 1; i <= 100; i++) lines.tick(i);
  assert.equal(plain.length, 1 + 11, 'the phase, then 0 %, 10 % … 100 %');
  assert.equal(plain.at(-1), 'details: 100/100 (100%)\n');
  assert.ok(plain.every((l) => !l.includes('\r')));
});

test('dataset versions: named by content (not by overlay name), laid into DATA_DIR from their files, unsafe names refused', async (t) => {
  const dataDir = tempDir(t);
  const text = `${JSON.stringify({ _overlay: 'enrich', unified_id: 'UNI-t0000001', amount_max_man_yen: 10 })}\n`;
  const hash = sha256Hex(text);
  const manifest = { jgrants: { name: '20260101T000000Z', files: { programs: hash } } };
  assert.equal(datasetVersionId(manifest), datasetVersionId({ jgrants: { name: 'another-name', files: { programs: hash } } }));
  assert.notEqual(datasetVersionId(manifest), datasetVersionId({}));
  assert.match(datasetVersionId({}), /^dv-[0-9a-f]{20}$/);
  const reads: string[] = [];
  const dirs = await layIn(dataDir, manifest, async (sha) => {
    reads.push(sha);
    return text;
  });
  assert.deepEqual(reads, [hash]);
  assert.deepEqual(activeOverlayDirs(dataDir), dirs);
  assert.equal(localVersionId(dataDir), datasetVersionId(manifest));
  await layIn(dataDir, manifest, async (sha) => {
    reads.push(sha);
    return text;
  });
  assert.equal(reads.length, 1, 'a directory holding the same files is not written again');
  await assert.rejects(
    layIn(dataDir, { jgrants: { name: 'x', files: { programs: 'f'.repeat(64) } } }, async () => text),
    /does not match its hash/,
  );
  await assert.rejects(
    layIn(dataDir, { '..': { name: 'x', files: {} } }, async () => text),
    /not a plain file name/,
  );
  await assert.rejects(
    layIn(dataDir, { jgrants: { name: '../../etc', files: {} } }, async () => text),
    /not a plain file name/,
  );
  // A version without the source takes its pointer away: the bundled dataset alone.
  await layIn(dataDir, {}, async () => text);
  assert.deepEqual(activeOverlayDirs(dataDir), []);
});
