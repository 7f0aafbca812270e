// POST /v1/programs/match (issue 21 item 4): a company profile, every field
// optional, answered by the search engine with reasons and unknowns per row;
// impossible values are a 400 with {detail}. Through the real app over the
// bundled dataset; rows are told apart by their columns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';

type Row = Record<string, any>;
type Match = { total: number; limit: number; offset: number; results: Row[]; read_as: Record<string, any> };

const match = async (app: Awaited<ReturnType<typeof build>>, profile: Record<string, unknown>): Promise<Match> => {
  const res = await app.inject({ method: 'POST', url: '/v1/programs/match', payload: profile });
  assert.equal(res.statusCode, 200, res.body);
  return body<Match>(res);
};
const nationwide = (r: Row): boolean => r.prefecture === null && r.authority_level !== 'prefecture' && r.authority_level !== 'municipality';

test('match: an Osaka salon being founded gets founding programmes of Osaka and nationwide ones, each with reasons and unknowns', async (t) => {
  const app = await build(t);
  const m = await match(app, { prefecture: '大阪府', municipality: '大阪市', industry: 'N', employees: 1, stage: 'founding', purposes: ['創業'] });
  assert.ok(m.total > 0);
  assert.equal(m.limit, 10);
  assert.deepEqual(m.read_as.place, { prefecture: '大阪府', municipality: '大阪市' });
  assert.equal(m.read_as.industry, 'N');
  assert.equal(m.read_as.size, 'small');
  assert.equal(m.read_as.stage, 'founding');
  for (const r of m.results) {
    assert.ok(nationwide(r) || (r.prefecture === '大阪府' && (r.municipality === null || r.municipality === '大阪市')), `${r.primary_name} applies in 大阪市`);
    assert.ok(Array.isArray(r.reasons) && Array.isArray(r.unknowns));
    assert.ok(
      r.reasons.some((n: Row) => n.kind === 'place'),
      `${r.primary_name}: its place is a reason`,
    );
    for (const n of [...r.reasons, ...r.unknowns]) assert.ok(typeof n.kind === 'string' && typeof n.detail === 'string' && n.detail !== '');
    assert.ok(!('score' in r) && !('need' in r), 'no explain unless asked');
  }
  assert.match(
    m.results
      .slice(0, 3)
      .map((r) => r.primary_name)
      .join(' '),
    /創業|開業|起業/,
    'founding support on top',
  );
});

test('match: every field is optional; an empty profile answers programmes; explain adds the need read and the score parts', async (t) => {
  const app = await build(t);
  const empty = await match(app, {});
  assert.ok(empty.total > 0 && empty.results.length === 10);
  const explained = await match(app, { need: '古い機械を入れ替えたい', prefecture: '大阪府', explain: true, limit: 5 });
  assert.equal(explained.results.length, 5);
  for (const r of explained.results) {
    assert.deepEqual(r.need, explained.read_as);
    const { total, ...parts } = r.score;
    const sum = Object.values(parts as Record<string, number>).reduce((a, x) => a + x, 0);
    assert.ok(Math.abs(sum - total) < 0.01, JSON.stringify(r.score));
  }
  assert.ok(explained.read_as.terms.length > 0, 'the need is searched');
});

test('match: impossible values are a 400 with a detail naming the field', async (t) => {
  const app = await build(t);
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ prefecture: '大阪府', municipality: '世田谷区' }, /municipality: 世田谷区 is in 東京都, not in 大阪府/],
    [{ prefecture: 'アトランティス' }, /prefecture: unknown prefecture/],
    [{ municipality: 'どこでもない市' }, /municipality: unknown municipality/],
    [{ industry: 'Z' }, /industry/],
    [{ industry: '00' }, /industry: "00" is not a JSIC code/],
    [{ founded_year: 2999 }, /founded_year/],
    [{ stage: 'planning', founded_year: 1990 }, /stage: planning contradicts founded_year 1990/],
    [{ stage: 'someday' }, /stage/],
    [{ employees: -1 }, /employees/],
    [{ purposes: 'startup' }, /purposes/],
    [{ colour: 'blue' }, /colour|additional/],
  ];
  for (const [profile, detail] of bad) {
    const res = await app.inject({ method: 'POST', url: '/v1/programs/match', payload: profile });
    assert.equal(res.statusCode, 400, JSON.stringify(profile));
    assert.match(body(res).detail, detail, JSON.stringify(profile));
  }
});

test('match: a JSIC division code reads as its major letter; a municipality alone finds its prefecture', async (t) => {
  const app = await build(t);
  const division = await match(app, { industry: '24', limit: 1 });
  assert.equal(division.read_as.industry, 'E', '24 (metal products) is manufacturing');
  const city = await match(app, { municipality: '札幌市', limit: 1 });
  assert.deepEqual(city.read_as.place, { prefecture: '北海道', municipality: '札幌市' });
});

test("match: a trade with schemes of its own ranks them (a barber's cash need reads 生活衛生 as a ranking term); other trades add none", async (t) => {
  const app = await build(t);
  const barber = await match(app, { prefecture: '山口県', industry: 'N', employees: 2, stage: 'established', purposes: ['資金繰り'] });
  assert.ok(barber.read_as.terms.includes('jsic:N'), JSON.stringify(barber.read_as.terms));
  assert.ok(
    barber.results.slice(0, 5).some((r) => r.primary_name.includes('生活衛生')),
    barber.results.map((r) => r.primary_name).join(' / '),
  );
  const factory = await match(app, { prefecture: '山口県', industry: 'E', employees: 20, stage: 'established', purposes: ['資金繰り'] });
  assert.ok(!factory.read_as.terms.some((w: string) => w.startsWith('jsic:')), 'manufacturing is served by the general programmes');
});

test('match: a profile that names no purpose and no need is read as asking for the programmes its kind of company uses, not every programme of its place by tier', async (t) => {
  const app = await build(t);
  const sme = await match(app, { prefecture: '福岡県', employees: 20, limit: 5 });
  assert.ok(sme.read_as.terms.includes('中小企業全般'), JSON.stringify(sme.read_as.terms));
  assert.ok(
    sme.results.every((r) => /ものづくり|持続化|IT導入|デジタル化|省力化|小規模事業者|中小企業/.test(r.primary_name)),
    sme.results.map((r) => r.primary_name).join(' / '),
  );
  const factory = await match(app, { prefecture: '福岡県', industry: 'E', employees: 30, stage: 'established', limit: 5 });
  assert.ok(factory.read_as.terms.includes('製造業'), 'a manufacturer: the manufacturing programmes');
});
