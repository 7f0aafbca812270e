import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aliasesFor,
  amountBand,
  applicationWindow,
  coverageFrom,
  DIMENSIONS,
  enrichedDimensions,
  tierAndExclusion,
  trustLevel,
} from '../../src/ingest/derive.ts';

const base = { unified_id: 'UNI-0000000001', primary_name: 'テスト補助金' };

test('amountBand: null is unknown, bands by 万円 boundaries', () => {
  assert.equal(amountBand(null), 'unknown');
  assert.equal(amountBand(undefined), 'unknown');
  assert.equal(amountBand(0), 'under_100');
  assert.equal(amountBand(99.9), 'under_100');
  assert.equal(amountBand(100), '100_to_500');
  assert.equal(amountBand(999), '500_to_1000');
  assert.equal(amountBand(1000), '1000_to_5000');
  assert.equal(amountBand(5000), '5000_to_10000');
  assert.equal(amountBand(10000), '10000_plus');
});

test('tierAndExclusion: a missing tier becomes X, excluded, reason unclassified', () => {
  assert.deepEqual(tierAndExclusion({ ...base, tier: null }), { tier: 'X', excluded: true, exclusion_reason: 'unclassified' });
  assert.deepEqual(tierAndExclusion({ ...base, tier: 'X', exclusion_reason: 'unclassified_legacy' }), {
    tier: 'X',
    excluded: true,
    exclusion_reason: 'unclassified_legacy',
  });
  assert.deepEqual(tierAndExclusion({ ...base, tier: 'A', excluded: false }), { tier: 'A', excluded: false, exclusion_reason: null });
});

test('coverage: dimensions with evidence are true; the score is their share; gaps list the rest in order', () => {
  const enriched = enrichedDimensions({ ...base, program_kind: 'subsidy', amount_max_man_yen: 100, source_url: 'https://x' }, { laws: [] });
  const { a_to_j_coverage, coverage_score, gap_to_tier_s } = coverageFrom(enriched);
  assert.deepEqual(Object.keys(a_to_j_coverage), [...DIMENSIONS]);
  assert.equal(a_to_j_coverage.A_basics, true);
  assert.equal(a_to_j_coverage.C_amount, true);
  assert.equal(a_to_j_coverage.I_source, true);
  assert.equal(a_to_j_coverage.B_target, false);
  assert.equal(coverage_score, 0.3);
  assert.deepEqual(gap_to_tier_s, ['B_target', 'D_schedule', 'E_region', 'F_purpose', 'G_industry', 'H_legal_basis', 'J_statistics']);
});

test('H_legal_basis comes from the program->law references', () => {
  const enriched = enrichedDimensions(base, { laws: [{ law_id: 'LAW-1', law_slug: 'x', law_title: '法' }] });
  assert.deepEqual(enriched.H_legal_basis, { laws: [{ law_id: 'LAW-1', law_slug: 'x', law_title: '法' }] });
});

test('aliasesFor: the published name and duplicate-group names, never the primary name, no repeats', () => {
  const p = { ...base, name_as_published: 'PREF-01-001_テスト補助金' };
  assert.deepEqual(aliasesFor(p, ['テスト補助金', '別名', '別名']), ['PREF-01-001_テスト補助金', '別名']);
  assert.deepEqual(aliasesFor(base, []), []);
});

test('trustLevel reflects what is known of the source', () => {
  assert.equal(trustLevel({ ...base, source_last_check_status: 200 }), 'verified');
  assert.equal(trustLevel({ ...base, source_url: 'https://x', source_fetched_at: '2026-01-01' }), 'sourced');
  assert.equal(trustLevel({ ...base, source_url: 'https://x' }), 'listed');
  assert.equal(trustLevel(base), 'unverified');
});

test('applicationWindow keeps start/end only when they are dates', () => {
  assert.deepEqual(applicationWindow(base), { start: null, end: null });
  const w = applicationWindow({ ...base, application_window: { start: '2025-04-01', end: '随時', cycle: 'rolling' } });
  assert.equal(w.start, '2025-04-01');
  assert.equal(w.end, null);
  assert.equal(w.cycle, 'rolling');
});
