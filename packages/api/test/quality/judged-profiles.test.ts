// The judged company profiles (fixtures/judged_profiles.jsonl, described in
// judged_profiles.md) are well-formed data for evaluating
// POST /v1/programs/match: enough profiles over several categories, stages,
// places and industries, fields of the documented shape and values, grades
// 0..3 with a relevant programme for each profile, pools of at least 40
// judged candidates, every judged
// programme in the catalogue, one grade per duplicate group, and held-out
// marks that are exactly the seeded draw. The last test sends every profile
// to the real endpoint and prints nDCG@10, success@1 and the duplicate rate
// per category, for the tuned and the held-out part, with floors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { body, build, testCatalog } from '../helper.ts';
import { getProgramRows } from '../../src/catalog/programs/records.ts';
import { holdoutDraw, loadJudgedProfiles, type JudgedProfile } from './judged.ts';
import { duplicateRows, mean, ndcgAt10, type ResultRow, successAt1 } from './ranking-metrics.ts';
import { programmeIdentity, withMergedRecords } from './programme-identity.ts';

const MIN_PROFILES = 30;
const MIN_CATEGORIES = 5;
const MIN_PREFECTURES = 20;
const MIN_INDUSTRIES = 8;
const MIN_POOL = 40;
const ID_PATTERN = /^jp-\d{3}-[a-z0-9-]+$/;
const INDUSTRY_PATTERN = /^([A-T]|\d{2,4})$/;
const STAGES = new Set(['planning', 'founding', 'established']);
const FIELDS = new Set(['prefecture', 'municipality', 'industry', 'employees', 'capital_man_yen', 'founded_year', 'stage', 'purposes', 'need']);

const profiles = loadJudgedProfiles();

test('judged profiles: enough profiles, unique ids, the documented fields and values', async () => {
  const { db } = await testCatalog();
  const places = db.all<{ prefecture: string; name: string }>('SELECT prefecture, name FROM municipalities');
  const prefectures = new Set(places.map((p) => p.prefecture));
  assert.ok(profiles.length >= MIN_PROFILES, `${profiles.length} profiles >= ${MIN_PROFILES}`);
  const ids = profiles.map((p) => p.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  for (const { id, profile: p, need, category, pool_query, pool } of profiles) {
    assert.match(id, ID_PATTERN, `${id}: id shape`);
    assert.ok(need.trim() !== '' && category.trim() !== '' && pool_query.trim() !== '' && pool.trim() !== '', `${id}: need, category, pool`);
    for (const key of Object.keys(p)) assert.ok(FIELDS.has(key), `${id}: field ${key} is documented`);
    if (p.prefecture !== undefined) assert.ok(prefectures.has(p.prefecture), `${id}: prefecture ${p.prefecture}`);
    if (p.municipality !== undefined)
      assert.ok(
        places.some((m) => m.name === p.municipality && m.prefecture === p.prefecture),
        `${id}: ${p.municipality} lies in ${p.prefecture}`,
      );
    if (p.industry !== undefined) assert.match(p.industry, INDUSTRY_PATTERN, `${id}: industry is a JSIC letter or code`);
    for (const n of [p.employees, p.capital_man_yen]) if (n !== undefined) assert.ok(Number.isInteger(n) && n >= 0, `${id}: size ${n}`);
    if (p.founded_year !== undefined) assert.ok(Number.isInteger(p.founded_year) && p.founded_year >= 1900 && p.founded_year <= 2030, `${id}: founded_year`);
    if (p.stage !== undefined) assert.ok(STAGES.has(p.stage), `${id}: stage ${p.stage}`);
    assert.ok(p.stage !== undefined || p.founded_year !== undefined, `${id}: stage or founded_year`);
    assert.ok(Array.isArray(p.purposes) && p.purposes.length > 0 && p.purposes.every((w) => w.trim() !== ''), `${id}: purposes`);
  }
});

test('judged profiles: coverage of categories, stages, places and industries', () => {
  const distinct = (values: (string | undefined)[]): number => new Set(values.filter(Boolean)).size;
  assert.ok(distinct(profiles.map((p) => p.category)) >= MIN_CATEGORIES, `>= ${MIN_CATEGORIES} categories`);
  assert.equal(distinct(profiles.map((p) => p.profile.stage)), STAGES.size, 'every stage');
  assert.ok(distinct(profiles.map((p) => p.profile.prefecture)) >= MIN_PREFECTURES, `>= ${MIN_PREFECTURES} prefectures`);
  assert.ok(distinct(profiles.map((p) => p.profile.industry)) >= MIN_INDUSTRIES, `>= ${MIN_INDUSTRIES} industries`);
  assert.ok(profiles.some((p) => p.profile.municipality) && profiles.some((p) => !p.profile.municipality), 'with and without a municipality');
});

test('judged profiles: grades 0..3, a relevant programme each, pools of at least 40', () => {
  for (const p of profiles) {
    const grades = Object.values(p.judgments);
    assert.ok(grades.length >= MIN_POOL, `${p.id}: ${grades.length} judged >= ${MIN_POOL}`);
    for (const g of grades) assert.ok(Number.isInteger(g) && g >= 0 && g <= 3, `${p.id}: grade ${g}`);
    assert.ok(
      grades.some((g) => g >= 2),
      `${p.id}: at least one grade >= 2`,
    );
  }
});

// Re-creating the pools takes minutes on this machine, so it is a script check, not a test:
// node scripts/judged-pool.ts --verify packages/api/test/fixtures/judged_profiles.jsonl
test('judged profiles: every judged programme exists in the test catalogue', async () => {
  const catalog = await testCatalog();
  const judged = [...new Set(profiles.flatMap((p) => Object.keys(p.judgments)))];
  const found = getProgramRows(catalog.db, judged);
  assert.deepEqual(
    judged.filter((id) => !found.has(id)),
    [],
    'no judged id is missing from the catalogue',
  );
});

test('judged profiles: members of one duplicate group share a grade', async () => {
  const { db } = await testCatalog();
  const groups = db.all<{ group_id: number; unified_ids: string }>('SELECT group_id, unified_ids FROM program_duplicates');
  const conflicts: string[] = [];
  for (const p of profiles) {
    for (const g of groups) {
      const grades = new Set((JSON.parse(g.unified_ids) as string[]).filter((id) => id in p.judgments).map((id) => p.judgments[id]));
      if (grades.size > 1) conflicts.push(`${p.id}: group ${g.group_id}`);
    }
  }
  assert.deepEqual(conflicts, []);
});

test('judged profiles: the held-out profiles are exactly the seeded draw', () => {
  const marked = profiles.filter((p) => p.holdout).map((p) => p.id);
  assert.deepEqual(marked.sort(), [...holdoutDraw(profiles)].sort());
  const categories = new Set(profiles.map((p) => p.category));
  for (const c of categories)
    assert.ok(
      profiles.some((p) => p.category === c && p.holdout),
      `${c} has held-out profiles`,
    );
});

// Measured when POST /v1/programs/match was first built (issue 21), before any
// tuning on the profiles: all 0.333 / 0.600, tuned 0.337 / 0.600, held out 0.326 / 0.600
// (nDCG@10 / success@1). With purposes as one required group and the need
// ranking (decision 0372): all 0.353 / 0.600, tuned 0.289 / 0.500, held out
// 0.480 / 0.800; with a purpose's match words from the programme vocabulary:
// all 0.394 / 0.600, tuned 0.316 / 0.500, held out 0.551 / 0.800. Floors just
// below. Whoever improves matching raises them.
// On the catalogue with issue 20's record kinds: all 0.433 / 0.600, tuned 0.362 / 0.500, held out 0.576 / 0.800.
// With places from evidence (decision 0312: national programmes nationwide, city pages the city's):
// all 0.411 / 0.600, tuned 0.341 / 0.500, held out 0.550 / 0.800; with canonical programmes on top
// (decision 0330): all 0.411 / 0.600, tuned 0.350 / 0.550, held out 0.534 / 0.700.
// With who is asking read from the need and a trade's own schemes as ranking words (industry_words: 生活衛生 for
// salons and inns, 介護 for care providers; issue 21): all 0.411 -> 0.435 / 0.600, tuned 0.355 -> 0.386 / 0.550,
// held out 0.534 / 0.700; with importance and tiers at ingest (decisions 0302, 0303) and programmes named for large
// companies ranked as another applicant's: all 0.444 / 0.667, tuned 0.398 / 0.600, held out 0.537 / 0.800; with the
// search vocabulary of decision 0374 and a profile's ranking groups at 0.75 of their weight (a sentence's incidental
// words stay at 0.5): all 0.452 / 0.667, tuned 0.409 / 0.600, held out 0.538 / 0.800.
// The pools completed with the 141 unjudged rows of match's first pages (judged_profiles.md, "Pool completion"; a change
// of measurement, not of ranking), on the catalogue of decision 0314: all 0.458 -> 0.594 / 0.667 -> 0.833, tuned
// 0.417 -> 0.560 / 0.600 -> 0.750, held out 0.539 -> 0.663 / 0.800 -> 1.
// On 2026-12-04 (decisions 0335–0337, rows graded first): all 0.640 -> 0.664, tuned 0.607 -> 0.633, held out 0.706 -> 0.727.
const MATCH_FLOORS = {
  all: { ndcg: 0.655, success: 0.8 },
  tuned: { ndcg: 0.62, success: 0.75 },
  holdout: { ndcg: 0.71, success: 0.9 },
};
/** Per category (both parts), at what was reached. */
const MATCH_CATEGORY_FLOORS: Record<string, { ndcg: number; success: number }> = {
  // Raised at what issue 21 reached with the trades' own words, who asks and importance: founding 0.406 / 0.5,
  // growth 0.373 / 0.6, investment 0.531 / 1, succession-finance 0.451 / 0.6, workforce 0.4197 / 0.5.
  // With the pools completed: founding 0.623 / 1, growth 0.545 / 0.8, investment 0.637 / 1, succession-finance
  // 0.617 / 0.8, workforce 0.531 / 0.5.
  founding: { ndcg: 0.6, success: 0.83 },
  // 0.373 -> 0.355 with a profile's ranking groups at 0.75 (decision 0374): the tuned growth profiles 0.423 -> 0.395
  // while the other four categories rose (founding 0.413, investment 0.544, succession-finance 0.456, workforce 0.445).
  growth: { ndcg: 0.52, success: 0.8 },
  // With places from evidence (decision 0312): investment 0.534, succession-finance 0.384, workforce 0.371 / 0.5;
  // with canonical programmes on top (decision 0330): 0.511, 0.397, workforce 0.352 / 0.333 (one profile of six).
  investment: { ndcg: 0.62, success: 1 },
  'succession-finance': { ndcg: 0.6, success: 0.8 },
  workforce: { ndcg: 0.51, success: 0.5 },
};

test('judged profiles through POST /v1/programs/match: nDCG@10, success@1 and duplicate rate per category, tuned and held-out parts', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000000' });
  const db = (await testCatalog()).db;
  // Gains by the programmes the catalogue serves (records merged at ingest count once, and grade their programme's row).
  const same = programmeIdentity(db, { servedMerges: true });
  const merged = withMergedRecords(db);
  type Scored = { p: JudgedProfile; ndcg: number; success: number | null; duplicates: number; shown: number };
  const scored: Scored[] = [];
  for (const p of profiles) {
    const res = await app.inject({ method: 'POST', url: '/v1/programs/match', payload: { ...p.profile, limit: 10 } });
    assert.equal(res.statusCode, 200, `${p.id}: ${res.body}`);
    const rows = body<{ results: ResultRow[] }>(res).results.map(merged);
    const s = {
      p,
      ndcg: ndcgAt10(rows, p.judgments, same),
      success: successAt1(rows, p.judgments),
      duplicates: duplicateRows(rows, same),
      shown: Math.min(10, rows.length),
    };
    scored.push(s);
    t.diagnostic(`${p.id}${p.holdout ? ' [held out]' : ''}: nDCG@10=${s.ndcg.toFixed(2)} success@1=${s.success ?? 'n/a'}`);
  }
  const summary = (list: Scored[]) => ({
    ndcg: mean(list.map((s) => s.ndcg)),
    success: mean(list.map((s) => s.success)),
    duplicateRate:
      list.reduce((a, s) => a + s.duplicates, 0) /
      Math.max(
        1,
        list.reduce((a, s) => a + s.shown, 0),
      ),
  });
  const line = (label: string, list: Scored[]): string => {
    const m = summary(list);
    return `${label}: nDCG@10=${m.ndcg.toFixed(3)} success@1=${m.success.toFixed(3)} duplicate rate=${m.duplicateRate.toFixed(3)} over ${list.length}`;
  };
  const parts = { tuned: scored.filter((s) => !s.p.holdout), holdout: scored.filter((s) => s.p.holdout) };
  for (const category of [...new Set(profiles.map((p) => p.category))].sort()) {
    for (const [part, list] of Object.entries(parts))
      t.diagnostic(
        line(
          `category ${category} (${part})`,
          list.filter((s) => s.p.category === category),
        ),
      );
    t.diagnostic(
      line(
        `category ${category} (all)`,
        scored.filter((s) => s.p.category === category),
      ),
    );
  }
  t.diagnostic(line('tuned part', parts.tuned));
  t.diagnostic(line('held-out part', parts.holdout));
  t.diagnostic(line('judged profiles', scored));
  assert.equal(
    scored.reduce((a, s) => a + s.duplicates, 0),
    0,
    'no page shows two rows of one programme',
  );
  const results = { all: summary(scored), tuned: summary(parts.tuned), holdout: summary(parts.holdout) };
  for (const [part, floor] of Object.entries(MATCH_FLOORS) as [keyof typeof MATCH_FLOORS, { ndcg: number; success: number }][]) {
    assert.ok(results[part].ndcg >= floor.ndcg, `${part} nDCG@10 ${results[part].ndcg.toFixed(3)} >= ${floor.ndcg}`);
    assert.ok(results[part].success >= floor.success, `${part} success@1 ${results[part].success.toFixed(3)} >= ${floor.success}`);
  }
  for (const [category, floor] of Object.entries(MATCH_CATEGORY_FLOORS)) {
    const m = summary(scored.filter((s) => s.p.category === category));
    assert.ok(m.ndcg >= floor.ndcg, `category ${category} nDCG@10 ${m.ndcg.toFixed(3)} >= ${floor.ndcg}`);
    assert.ok(m.success >= floor.success, `category ${category} success@1 ${m.success.toFixed(3)} >= ${floor.success}`);
  }
});
