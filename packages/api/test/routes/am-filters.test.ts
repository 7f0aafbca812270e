// The applicant filters of the /v1/am program listings (industry, size, target)
// and the authority filter of /v1/am/tax_rule, checked on real records of the
// bundled dataset (docs/decisions/0060-applicant-filters.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';

type Row = { entity_id: string; record_kind: string };
const ids = (json: Record<string, any>): string[] => (json.results as Row[]).map((r) => r.entity_id);
const PIVOT = '2026-04-15';
// 持続化補助金 rounds open on PIVOT: all but the ext record publish target small_business (小規模事業者), the ext
// record's is derived from its name (ingest/tagging.ts). The dataset lists them under JSIC E, but they serve every
// trade, so they name no industry (decision 0329).
const JIZOKUKA = ['UNI-363f999bb2', 'UNI-aee24f11e3', 'UNI-d7625f297d', 'UNI-eedb2ef135'];
const JIZOKUKA_EXT = 'UNI-ext-5f0960827c';
// Open on PIVOT too: a farm programme (JSIC A) that lists 認定農業者 among its applicants.
const TOMISATO = 'UNI-f6165b8a9c';

test('open_programs: industry by JSIC letter or word, target by applicant kind, size by the shared vocabulary', async (t) => {
  const app = await build(t);
  const get = async (q: string) => body(await app.inject(`/v1/am/open_programs?pivot_date=${PIVOT}&limit=100&${q}`));
  const all = await get('');
  for (const id of [...JIZOKUKA, JIZOKUKA_EXT, TOMISATO]) assert.ok(ids(all).includes(id), `${id} open on ${PIVOT}`);

  const byLetter = await get('industry=A');
  assert.ok(ids(byLetter).includes(TOMISATO), 'a farm programme under A');
  assert.ok(!ids(byLetter).some((id) => [...JIZOKUKA, JIZOKUKA_EXT].includes(id)), 'a programme for every trade is under no industry');
  assert.ok(byLetter.total > 1 && byLetter.total < all.total, `${byLetter.total} of ${all.total}`);
  assert.match(byLetter.retrieval_note, /jsic_majors contains A/);
  assert.deepEqual(ids(await get(`industry=${encodeURIComponent('農業')}`)), ids(byLetter));
  assert.deepEqual(ids(await get('industry=agriculture')), ids(byLetter));
  assert.ok(!ids(await get('industry=E')).some((id) => [...JIZOKUKA, JIZOKUKA_EXT].includes(id)), '持続化補助金 is not a maker-only programme');

  // target: an applicant kind, with the spellings the programs use for it.
  const smallBusiness = await get('target=small_business');
  for (const id of [...JIZOKUKA, JIZOKUKA_EXT]) assert.ok(ids(smallBusiness).includes(id), `${id}: 小規模事業者, published or derived from the name`);
  assert.ok(!ids(smallBusiness).includes(TOMISATO), 'a farm programme for corporations in general is not one for small businesses');
  const farmer = await get('target=certified_farmer');
  assert.ok(ids(farmer).includes(TOMISATO));
  assert.ok(!ids(farmer).some((id) => JIZOKUKA.includes(id)));
  const certified = await get(`target=${encodeURIComponent('認定農業者')}`);
  assert.ok(ids(certified).includes(TOMISATO), 'a spelling of the audience 農林漁業者');
  assert.ok(!ids(certified).some((id) => JIZOKUKA.includes(id)));
  assert.deepEqual(ids(await get('industry=A&target=small_business')), [], 'filters AND');

  // size: the shared company-size vocabulary and the target types admitting each size.
  const small = await get('size=small');
  for (const id of [...JIZOKUKA, JIZOKUKA_EXT, TOMISATO]) assert.ok(ids(small).includes(id), `${id} admits a small business (小規模事業者, or 法人)`);
  assert.match(small.retrieval_note, /target_types among/);
  const sme = await get('size=sme');
  assert.ok(ids(sme).includes(TOMISATO), 'open to all corporations');
  assert.ok(!ids(sme).some((id) => JIZOKUKA.includes(id)), 'small-business rounds do not admit a larger SME');
  assert.deepEqual(ids(await get('size=medium')), ids(sme), 'another spelling of sme');
  assert.deepEqual(ids(await get(`size=${encodeURIComponent('中小企業')}`)), ids(sme));
  assert.equal((await get('size=sole')).total, 0, 'no program open on the day names sole proprietors');

  for (const [q, pattern] of [
    ['industry=Z', /unknown industry/],
    ['target=martian', /unknown target/],
    ['size=huge', /unknown company size/],
  ] as const) {
    const res = await app.inject(`/v1/am/open_programs?pivot_date=${PIVOT}&${q}`);
    assert.equal(res.statusCode, 200);
    assert.equal(body(res).error.code, 'invalid_enum', q);
    assert.match(body(res).error.message, pattern);
    assert.deepEqual(body(res).results, []);
  }
  // Without the new parameters the answer is what it was.
  assert.doesNotMatch(all.retrieval_note, /jsic_majors/);
});

test('active_at: the same applicant filters; entities without the fields (tax measures) never match', async (t) => {
  const app = await build(t);
  const get = async (q: string) => body(await app.inject(`/v1/am/active_at?date=${PIVOT}&limit=100&${q}`));
  const a = ids(await get('industry=A'));
  assert.ok(a.includes(TOMISATO));
  assert.ok(!a.some((id) => [...JIZOKUKA, JIZOKUKA_EXT].includes(id)));
  assert.ok((await get('')).results.some((r: Row) => r.record_kind === 'tax_measure'));
  assert.equal((await get('kinds=tax_measure&size=sme')).total, 0);
  const smallBusiness = ids(await get('target=small_business'));
  for (const id of [...JIZOKUKA, JIZOKUKA_EXT]) assert.ok(smallBusiness.includes(id), id);
  assert.ok(!smallBusiness.includes(TOMISATO));
  assert.ok(ids(await get('size=small')).includes(TOMISATO));
});

test('gx_programs: applicant filters narrow a theme', async (t) => {
  const app = await build(t);
  const get = async (q: string) => body(await app.inject(`/v1/am/gx_programs?theme=ghg_reduction&limit=100&${q}`));
  const all = await get('');
  assert.equal(all.retrieval_note, undefined);
  const sole = await get('target=sole_proprietor');
  assert.ok(sole.total > 0 && sole.total < all.total);
  assert.ok(ids(sole).includes('UNI-17577be18f'), '南さつま市漁船省エネ対策事業 lists sole proprietors');
  assert.ok(!ids(sole).includes('UNI-532f6d96fc'), 'SHIFT (corporations only) does not');
  const individual = await get('size=individual');
  assert.ok(ids(individual).includes('UNI-17577be18f'));
  assert.ok(!ids(individual).includes('UNI-532f6d96fc'));
  const large = await get('size=large');
  assert.ok(ids(large).includes('UNI-532f6d96fc'), 'open to corporations in general');
  assert.ok(!ids(large).includes('UNI-17577be18f'));
  const fisheries = await get('industry=B');
  assert.ok(ids(fisheries).includes('UNI-17577be18f'), 'a fisheries (B) program');
  assert.ok(!ids(fisheries).includes('UNI-532f6d96fc'), 'SHIFT (工場・事業場: every trade, decision 0329) names no industry');
  assert.match(fisheries.retrieval_note, /jsic_majors contains B/);
});

test('tax_rule: authority keeps the measures of that authority', async (t) => {
  const app = await build(t);
  const get = async (q: string) => body(await app.inject(`/v1/am/tax_rule?measure_name_or_id=${encodeURIComponent('中小企業経営強化税制')}&limit=20${q}`));
  const all = await get('');
  const authorities = new Set(all.results.map((r: { authority: string }) => r.authority));
  assert.ok(authorities.has('国税庁') && authorities.has('中小企業庁'));
  const sme = await get(`&authority=${encodeURIComponent('中小企業庁')}`);
  assert.ok(sme.total >= 3 && sme.total < all.total);
  assert.ok(sme.results.every((r: { authority: string }) => r.authority === '中小企業庁'));
  assert.ok(sme.results.some((r: { ruleset_name: string }) => /B類型/.test(r.ruleset_name)));
  assert.equal((await get(`&authority=${encodeURIComponent('自治体')}`)).total, 0);
});
