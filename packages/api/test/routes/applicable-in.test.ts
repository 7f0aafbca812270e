// applicable_in (issue 21): the programmes a business in a place can use —
// that place's, its prefecture's and the nationwide ones, ranked together —
// while the exact prefecture filter stays exact. Through the real app over the
// bundled dataset; rows are told apart by their columns, not by ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';

type Row = Record<string, any>;
type Search = { total: number; results: Row[]; facets?: Record<string, Record<string, number>> };

const search = async (app: Awaited<ReturnType<typeof build>>, params: Record<string, string | number | boolean>) => {
  const res = await app.inject(`/v1/programs/search?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`);
  assert.equal(res.statusCode, 200, res.body);
  return body<Search>(res);
};
const nationwide = (r: Row): boolean => r.prefecture === null && r.authority_level !== 'prefecture' && r.authority_level !== 'municipality';

test('q=省エネ&applicable_in=大阪府: Osaka and nationwide programmes together, none of another prefecture; prefecture= stays exact', async (t) => {
  const app = await build(t);
  const exact = await search(app, { q: '省エネ', prefecture: '大阪府', limit: 100 });
  const wide = await search(app, { q: '省エネ', applicable_in: '大阪府', limit: 100 });
  assert.ok(
    exact.results.every((r) => r.prefecture === '大阪府'),
    'prefecture is still exact',
  );
  assert.ok(wide.total > exact.total, `applicable_in adds the nationwide programmes (${wide.total} > ${exact.total})`);
  assert.ok(
    wide.results.every((r) => r.prefecture === '大阪府' || nationwide(r)),
    'every row is Osaka’s or nationwide',
  );
  assert.ok(wide.results.some(nationwide), 'nationwide programmes are in');
  const first = wide.results.slice(0, 10);
  assert.ok(
    first.every((r) => /省エネ/.test(r.primary_name)),
    first.map((r) => r.primary_name).join(' / '),
  );
  // Ranked together: the first page is not one kind of place after the other by construction.
  const osakaIds = new Set(exact.results.map((r) => r.unified_id));
  for (const r of wide.results) if (r.prefecture === '大阪府') assert.ok(osakaIds.has(r.unified_id) || exact.total > 100);
});

test('applicable_in: aliases of a prefecture are one place; a municipality adds its own programmes and drops the other cities of its prefecture', async (t) => {
  const app = await build(t);
  const a = await search(app, { applicable_in: '大阪', limit: 1 });
  const b = await search(app, { applicable_in: 'Osaka', limit: 1 });
  const c = await search(app, { applicable_in: '大阪府', limit: 1 });
  assert.equal(a.total, c.total);
  assert.equal(b.total, c.total);

  const prefecture = await search(app, { applicable_in: '大阪府', limit: 100, facets: 'prefecture' });
  const city = await search(app, { applicable_in: '大阪市', limit: 100 });
  assert.ok(city.total < prefecture.total, 'a municipality is narrower than its prefecture');
  assert.ok(city.total > 0);
  const all = await search(app, { applicable_in: '大阪市', limit: 100, offset: 0, sort: 'name' });
  for (const r of all.results) {
    assert.ok(
      nationwide(r) || (r.prefecture === '大阪府' && (r.municipality === null || r.municipality === '大阪市')),
      JSON.stringify([r.primary_name, r.municipality]),
    );
  }
  assert.deepEqual(Object.keys(prefecture.facets?.prefecture ?? {}).sort(), ['_none', '大阪府'], 'no other prefecture (nationwide rows have none)');
  const written = await search(app, { applicable_in: '大阪府 大阪市', limit: 1 });
  assert.equal(written.total, city.total, 'the municipality after its prefecture reads the same');
});

test('applicable_in: a place named in q ranks inside the place asked; an unknown place is a 400 that says what to give', async (t) => {
  const app = await build(t);
  for (const value of ['アトランティス', '大阪府世田谷区']) {
    const res = await app.inject(`/v1/programs/search?applicable_in=${encodeURIComponent(value)}`);
    assert.equal(res.statusCode, 400, value);
    assert.match(body(res).detail, /applicable_in: unknown place/);
  }
  const res = await app.inject('/v1/programs/search?applicable_in=');
  assert.equal(res.statusCode, 400, 'empty');
  const explained = await search(app, { q: '創業', applicable_in: '福岡県', explain: true, limit: 20 });
  for (const r of explained.results) {
    // Decision 0337: the prefecture's own programme 2, a town's 1.5 (the asker's town is not known), nationwide 1.5.
    const expected = r.prefecture === '福岡県' ? (r.municipality === null ? 2 : 1.5) : 1.5;
    assert.equal(r.score.place, expected, `${r.primary_name}: place part ${r.score.place}`);
  }
});
