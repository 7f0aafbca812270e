// One programme, one record, decided at ingest (docs/decisions/0330-canonical-programmes.md):
// search totals add up under every tier filter, facets and /meta count the
// same programmes, the default shape has exactly the contract's keys, and a
// record merged into another programme stays readable by its id and names
// that programme.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body, testCatalog } from '../helper.ts';

const TIERS = ['S', 'A', 'B', 'C', 'X'] as const;

/** The contract's Program (default shape) keys, in the contract's order. */
const CONTRACT_KEYS = [
  'unified_id',
  'primary_name',
  'aliases',
  'authority_level',
  'authority_name',
  'prefecture',
  'municipality',
  'program_kind',
  'official_url',
  'amount_max_man_yen',
  'amount_min_man_yen',
  'subsidy_rate',
  'trust_level',
  'tier',
  'coverage_score',
  'gap_to_tier_s',
  'a_to_j_coverage',
  'excluded',
  'exclusion_reason',
  'crop_categories',
  'equipment_category',
  'target_types',
  'funding_purpose',
  'amount_band',
  'application_window',
];

test('totals add up under every tier filter: per-tier totals sum to the multi-tier total, default + X = include_excluded', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000000' });
  const total = async (params: string): Promise<number> => {
    const res = await app.inject(`/v1/programs/search?limit=1&${params}`);
    assert.equal(res.statusCode, 200, `${params}: ${res.body}`);
    return body<{ total: number }>(res).total;
  };
  // Without text, with a broad word, with a word that names merged programmes (rounds, areas), with a place.
  for (const base of ['', 'q=補助金', 'q=持続化補助金', 'q=IT導入補助金', 'prefecture=埼玉県', 'q=新規就農&prefecture=北海道']) {
    const all = await total(`${base}&include_excluded=true`);
    const perTier: Record<string, number> = {};
    for (const tier of TIERS) perTier[tier] = await total(`${base}&include_excluded=true&tier=${tier}`);
    assert.equal(
      TIERS.reduce((s, tier) => s + perTier[tier], 0),
      all,
      `${base || '(no filter)'}: per-tier totals sum to the include_excluded total`,
    );
    // Every pair and the four visible tiers together.
    for (let i = 0; i < TIERS.length; i++) {
      for (let j = i + 1; j < TIERS.length; j++) {
        const pair = await total(`${base}&include_excluded=true&tier=${TIERS[i]}&tier=${TIERS[j]}`);
        assert.equal(pair, perTier[TIERS[i]] + perTier[TIERS[j]], `${base}: tier=${TIERS[i]} + tier=${TIERS[j]}`);
      }
    }
    const visible = await total(base);
    assert.equal(visible, perTier.S + perTier.A + perTier.B + perTier.C, `${base}: the default total is S + A + B + C`);
    assert.equal(await total(`${base}&tier=S&tier=A&tier=B&tier=C`), visible, `${base}: naming the visible tiers changes nothing`);
    assert.equal(visible + perTier.X, all, `${base}: default + tier X = include_excluded`);
    // The facet counts the same programmes.
    const res = await app.inject(`/v1/programs/search?limit=1&${base}&include_excluded=true&facets=tier`);
    const tiers = body<{ facets: { tier: Record<string, number> } }>(res).facets.tier;
    assert.equal(
      Object.values(tiers).reduce((s, n) => s + n, 0),
      all,
      `${base}: the tier facet sums to the total`,
    );
  }
  // /meta counts programmes as search does.
  const meta = body<{ total_programs: number; tier_counts: Record<string, number> }>(await app.inject('/meta'));
  assert.equal(meta.total_programs, await total('include_excluded=true'));
  for (const tier of TIERS) assert.equal(meta.tier_counts[tier], await total(`include_excluded=true&tier=${tier}`), `/meta tier_counts.${tier}`);
});

test('the default shape has exactly the contract keys; the full shape names the other records; a merged record names its programme', async (t) => {
  const app = await build(t);
  const db = (await testCatalog()).db;
  const res = await app.inject('/v1/programs/search?q=持続化補助金&limit=50');
  const rows = body<{ results: Record<string, unknown>[] }>(res).results;
  assert.ok(rows.length > 0);
  for (const row of rows) assert.deepEqual(Object.keys(row), CONTRACT_KEYS, `${row.unified_id}: default shape`);

  // A programme of several records: the full shape lists the others; each of them is served by id and names it.
  const merged = db.get<{ unified_id: string; also_listed_as: string }>(
    "SELECT unified_id, also_listed_as FROM programs WHERE canonical_id IS NULL AND also_listed_as <> '[]' AND primary_name LIKE '%持続化補助金%' LIMIT 1",
  );
  assert.ok(merged, 'the bundled data has a programme of several records');
  const full = body<Record<string, unknown>>(await app.inject(`/v1/programs/${merged.unified_id}?fields=full`));
  assert.equal(full.canonical_id, null);
  const others = full.also_listed_as as { unified_id: string; primary_name: string }[];
  assert.deepEqual(others, JSON.parse(merged.also_listed_as));
  assert.match(String((full.provenance as Record<string, unknown>).also_listed_as), /^derived:canonical:/);
  for (const other of others) {
    const detail = await app.inject(`/v1/programs/${other.unified_id}`);
    assert.equal(detail.statusCode, 200, `${other.unified_id} stays readable by its id`);
    const d = body<Record<string, unknown>>(detail);
    assert.equal(d.canonical_id, merged.unified_id);
    assert.deepEqual(d.also_listed_as, []);
    assert.match(String((d.provenance as Record<string, unknown>).canonical_id), /^derived:canonical:/);
  }
  // Search never shows a merged record, whatever the filter.
  const mergedIds = new Set(db.all<{ unified_id: string }>('SELECT unified_id FROM programs WHERE canonical_id IS NOT NULL').map((r) => r.unified_id));
  for (const params of ['q=持続化補助金&include_excluded=true&limit=100', 'q=IT導入補助金&limit=100', 'tier=X&include_excluded=true&limit=100']) {
    const found = body<{ results: { unified_id: string }[] }>(await app.inject(`/v1/programs/search?${params}`)).results;
    assert.deepEqual(
      found.filter((r) => mergedIds.has(r.unified_id)),
      [],
      `${params}: canonical programmes only`,
    );
  }
});

test('IT導入補助金 and its renamed successor are one programme; rounds of 持続化補助金 are one programme; so are ものづくり補助金 and its full name', async (t) => {
  const app = await build(t);
  const db = (await testCatalog()).db;
  const programmeOf = (name: string): string[] =>
    db
      .all<{ unified_id: string; canonical_id: string | null }>('SELECT unified_id, canonical_id FROM programs WHERE primary_name = ?', name)
      .map((r) => r.canonical_id ?? r.unified_id);
  const it = new Set([...programmeOf('IT導入補助金'), ...programmeOf('デジタル化・AI導入補助金（旧IT導入補助金）')]);
  assert.equal(it.size, 1, 'IT導入補助金 beside デジタル化・AI導入補助金（旧IT導入補助金）: one programme');
  const [canonical] = it;
  const name = db.get<{ primary_name: string }>('SELECT primary_name FROM programs WHERE unified_id = ?', canonical)!.primary_name;
  assert.equal(name, 'デジタル化・AI導入補助金（旧IT導入補助金）', 'the current name stands for the programme');
  const rounds = new Set([11, 12, 16, 17, 18, 19].flatMap((n) => programmeOf(`持続化補助金 一般型 通常枠 商工会版 第${n}回`)));
  assert.equal(rounds.size, 1, 'the rounds of 持続化補助金 一般型 通常枠 (商工会版): one programme');
  // Decision 0314: the short name in brackets joins the full name: ものづくり補助金 is one programme.
  const monozukuri = new Set(
    ['ものづくり補助金', 'ものづくり・商業・サービス生産性向上促進補助金', 'ものづくり・商業・サービス生産性向上促進補助金 (ものづくり補助金)'].flatMap(
      programmeOf,
    ),
  );
  assert.equal(monozukuri.size, 1, 'ものづくり補助金 and its full name: one programme');
  // Found by the name of any of its records.
  const res = body<{ results: { unified_id: string }[] }>(await app.inject('/v1/programs/search?q=IT導入補助金&limit=5'));
  assert.ok(
    res.results.some((r) => r.unified_id === canonical),
    'a search for the old name finds the programme',
  );
});
