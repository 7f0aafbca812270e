// Deadline calendars on real data and on the derived dataset: the .ics file
// parses with ical.js (a well-kept RFC 5545 parser), one all-day event per
// application window on its Japan date, stable UIDs, the source URL; the JSON
// lists the same events; a saved search's calendar needs its key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import { build, body, testCatalog } from '../helper.ts';
import { deadlineEvents, MAX_EVENTS } from '../../src/calendar/deadlines.ts';
import { readProgramQuery } from '../../src/catalog/programs/query.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { ensureDerivedCatalog } from '../catalog-fixture.ts';
import { generateApiKey } from '../../src/access/keys.ts';

function parseIcs(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((v) => {
    const event = new ICAL.Event(v);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.toString(),
      end: event.endDate.toString(),
      allDay: event.startDate.isDate,
      url: String(v.getFirstPropertyValue('url') ?? ''),
      description: event.description,
    };
  });
}

test('bundled data: every programme with an application window is an all-day event; the .ics parses and matches the JSON', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000' });
  const ics = await app.inject('/v1/calendar/deadlines.ics?include_past=true');
  assert.equal(ics.statusCode, 200, ics.body);
  assert.equal(ics.headers['content-type'], 'text/calendar; charset=utf-8');
  const events = parseIcs(ics.body);
  const json = body(await app.inject('/v1/calendar/deadlines?include_past=true'));
  assert.ok(events.length >= 40, `${events.length} events from the bundled dataset's application windows`);
  assert.equal(events.length, json.total);
  for (const [i, e] of events.entries()) {
    const j = json.results[i];
    assert.equal(e.uid, j.uid);
    assert.ok(e.allDay, 'all-day');
    assert.equal(e.start, j.date, 'the Japan date, as published');
    assert.equal(Date.parse(e.end) - Date.parse(e.start), 86_400_000, 'one day long');
    assert.match(e.summary, j.kind === 'deadline' ? /^締切: / : /^受付開始: /);
    if (j.source_url) assert.equal(decodeURIComponent(e.url), j.source_url, 'the source URL (`,` `;` percent-encoded in the URI value)');
  }
  assert.equal(new Set(events.map((e) => e.uid)).size, events.length, 'UIDs are unique');
  const again = await app.inject('/v1/calendar/deadlines.ics?include_past=true');
  assert.equal(again.body, ics.body, 'the same data gives the same file (stable UIDs and stamps)');
  const tokyo = body(await app.inject(`/v1/calendar/deadlines?include_past=true&prefecture=${encodeURIComponent('東京都')}`));
  assert.ok(tokyo.results.every((e: any) => e.prefecture === '東京都'));
  assert.ok(tokyo.total < json.total, 'the search filters apply');
  assert.equal((await app.inject('/v1/calendar/deadlines?authority_level=galactic')).statusCode, 400);
  assert.equal((await app.inject('/v1/calendar/deadlines?nonsense=1')).statusCode, 400);
});

test("derived data: the new and amended windows appear on their dates; a saved search's calendar", async (t) => {
  const derived = await ensureDerivedCatalog();
  const app = await build(t, { ANON_DAILY_LIMIT: '1000' }, {}, { catalog: new Catalog(derived.file) });
  const events = parseIcs((await app.inject('/v1/calendar/deadlines.ics?include_past=true')).body);
  for (const [id, window] of Object.entries(derived.manifest.windows)) {
    const event = events.find((e) => e.uid.startsWith(`${id}-`));
    assert.ok(event, `${id} has an event`);
    assert.equal(event.start, window.end ?? window.start);
    assert.ok(event.description.includes(`unified_id: ${id}`));
    assert.ok(event.url.startsWith('http'));
  }
  const k = generateApiKey();
  await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free', customerId: null });
  const headers = { 'x-api-key': k.key };
  const saved = body(await app.inject({ method: 'POST', url: '/v1/me/saved_searches', headers, payload: { name: '北海道', query: { prefecture: '北海道' } } }));
  const mineRes = await app.inject({ url: `/v1/calendar/deadlines?include_past=true&saved_search_id=${saved.id}`, headers });
  assert.equal(mineRes.statusCode, 200, mineRes.body);
  const mine = body(mineRes);
  assert.ok(mine.results.some((e: any) => e.unified_id === 'UNI-derived-0003'));
  assert.ok(mine.results.every((e: any) => e.prefecture === '北海道'));
  assert.equal((await app.inject(`/v1/calendar/deadlines?saved_search_id=${saved.id}`)).statusCode, 404, 'another caller cannot read it');
  assert.equal((await app.inject({ url: `/v1/calendar/deadlines?saved_search_id=${saved.id}&prefecture=x`, headers })).statusCode, 400);
});

test("the calendar walks the catalogue's calendar order on the columns: the same events as its definition over every match's full row", async () => {
  const catalog = await testCatalog();
  // The definition: each match's application window read from its row, the day its end (else start), by day then unified_id.
  const DATE = /^\d{4}-\d{2}-\d{2}/;
  const day = (v: unknown): string | null => (typeof v === 'string' && DATE.test(v) ? v.slice(0, 10) : null);
  const defined = (query: ReturnType<typeof readProgramQuery>, from: string | null) => {
    const out = [];
    for (const { row } of catalog.programs.stream(query, { offset: 0, limit: Number.MAX_SAFE_INTEGER }).hits) {
      const window = JSON.parse(row.application_window) as { start?: unknown; end?: unknown };
      const [start, end] = [day(window.start), day(window.end)];
      const date = end ?? start;
      if (!date || (from !== null && date < from)) continue;
      const kind = end ? 'deadline' : 'opening';
      out.push({
        uid: `${row.unified_id}-${kind}-${date}@jp-support-programs`,
        unified_id: row.unified_id,
        primary_name: row.primary_name,
        prefecture: row.prefecture,
        authority_name: row.authority_name,
        kind,
        date,
        window_start: start,
        window_end: end,
        source_url: row.source_url ?? row.official_url,
      });
    }
    return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.unified_id < b.unified_id ? -1 : 1));
  };
  let compared = 0;
  for (const params of [{}, { q: '補助金' }, { prefecture: '東京都' }, { tier: ['S', 'A'] }, { q: '農業', sort: 'amount' }]) {
    for (const from of [null, '2025-04-01', '2026-12-01']) {
      const query = readProgramQuery(params, '2026-12-01');
      const want = defined(query, from);
      assert.deepEqual(
        deadlineEvents(catalog, query, from),
        { events: want.slice(0, MAX_EVENTS), truncated: want.length > MAX_EVENTS },
        `${JSON.stringify(params)} from ${from}`,
      );
      compared += want.length;
    }
  }
  assert.ok(compared > 100, `${compared} events compared`);
});
