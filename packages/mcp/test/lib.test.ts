// The plain functions behind the composite tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluatePredicate } from '../src/lib/predicate.ts';
import { rankPrograms } from '../src/lib/ranking.ts';
import { fiscalQuarter } from '../src/lib/dates.ts';
import { deadlineOf, sunsetBucket } from '../src/lib/deadlines.ts';
import { normalizePrefecture } from '@jp-support/vocab';
import { checkArgs } from '../src/lib/lenient.ts';

test('evaluatePredicate: three-valued all/any with missing fields', () => {
  const p = {
    op: 'all',
    of: [
      { op: 'eq', field: 'a', value: false },
      { op: 'gte', field: 'n', value: 10 },
    ],
  };
  assert.equal(evaluatePredicate(p, { a: false, n: 12 }).verdict, 'applies');
  assert.equal(evaluatePredicate(p, { a: true, n: 12 }).verdict, 'does_not_apply');
  const partial = evaluatePredicate(p, { a: false });
  assert.equal(partial.verdict, 'unknown');
  assert.deepEqual(partial.missing_fields, ['n']);
  assert.equal(evaluatePredicate(p, { a: true }).verdict, 'does_not_apply', 'a false leg decides all() even with a missing one');
  assert.equal(
    evaluatePredicate(
      {
        op: 'any',
        of: [
          { op: 'in', field: 'k', value: ['x'] },
          { op: 'eq', field: 'm', value: 1 },
        ],
      },
      { k: 'x' },
    ).verdict,
    'applies',
  );
  assert.equal(evaluatePredicate({ op: 'weird' }, {}).verdict, 'unknown');
});

test('fiscal quarters start in April; sunset buckets; deadline field', () => {
  assert.equal(fiscalQuarter('2027-02-28'), 'FY2026-Q4');
  assert.equal(fiscalQuarter('2026-04-01'), 'FY2026-Q1');
  assert.equal(fiscalQuarter('2026-12-31'), 'FY2026-Q3');
  assert.equal(sunsetBucket(90), 'critical');
  assert.equal(sunsetBucket(91), 'warning');
  assert.equal(sunsetBucket(400), 'later');
  assert.equal(deadlineOf({ application_window: { start: null, end: '2027-01-15' } }), '2027-01-15');
  assert.equal(deadlineOf({ application_window: null }), null);
});

test('rankPrograms: own prefecture beats another prefecture; tier X dropped', () => {
  const ranked = rankPrograms(
    [
      { unified_id: 'a', primary_name: 'A', tier: 'S', prefecture: '大阪府' },
      { unified_id: 'b', primary_name: 'B', tier: 'C', prefecture: '東京都' },
      { unified_id: 'x', primary_name: 'X', tier: 'X', prefecture: '東京都' },
    ],
    { prefecture: '東京都' },
  );
  assert.deepEqual(
    ranked.map((r) => r.unified_id),
    ['b', 'a'],
  );
  assert.ok((ranked[0].reasons as string[]).some((s) => s.includes('東京都')));
});

test('prefecture aliases', () => {
  assert.equal(normalizePrefecture('東京'), '東京都');
  assert.equal(normalizePrefecture('Tokyo'), '東京都');
  assert.equal(normalizePrefecture('osaka-fu'), '大阪府');
  assert.equal(normalizePrefecture('北海道'), '北海道');
  assert.equal(normalizePrefecture('Atlantis'), null);
});

test('checkArgs passes valid values through', () => {
  assert.deepEqual(checkArgs({ q: 'x', limit: 5 }), { args: { q: 'x', limit: 5 }, warnings: [] });
});

test('rankPrograms: a company size rules out programs whose applicant types exclude it', () => {
  const programs = [
    { unified_id: 'sole', primary_name: 'Sole only', tier: 'S', prefecture: null, target_types: ['sole_proprietor'] },
    { unified_id: 'any', primary_name: 'Anyone', tier: 'B', prefecture: null, target_types: [] },
    { unified_id: 'corp', primary_name: 'Companies', tier: 'B', prefecture: null, target_types: ['corporation'] },
  ];
  assert.deepEqual(
    rankPrograms(programs, {}).map((r) => r.unified_id),
    ['sole', 'any', 'corp'],
  );
  const large = rankPrograms(programs, { company_size: 'large' });
  assert.equal(large.at(-1)?.unified_id, 'sole');
  assert.ok((large.at(-1)!.reasons as string[]).some((s) => s.includes('do not admit a large company')));
});

test('not-applied parameters and aliases: not published; a call that sets one is warned', async () => {
  const { z } = await import('zod');
  const { defineTool, READ_ONLY } = await import('../src/lib/define.ts');
  const { aliasWarnings, notAppliedWarnings, omitNotApplied } = await import('../src/lib/not-applied.ts');
  const { publishedInput } = await import('../src/lib/publish.ts');
  const def = defineTool({
    name: 't',
    title: 't',
    description: 'Does things.',
    annotations: READ_ONLY,
    output: {},
    empty: {},
    input: {
      q: z.string().optional().describe('Keywords'),
      query: z.string().optional().describe('Alias of q'),
      as_of: z.string().default('today').describe('Date'),
      size: z.string().optional().describe('Size'),
    },
    notApplied: { as_of: 'no snapshots', size: 'no size field' },
    aliases: { query: 'q' },
    async run() {
      return {};
    },
  });
  const published = omitNotApplied(def, publishedInput(def));
  assert.deepEqual(Object.keys(published.properties as object), ['q']);
  assert.deepEqual(notAppliedWarnings(def, { q: 'x', as_of: 'today' }), [], 'the default is not a filter');
  assert.deepEqual(
    notAppliedWarnings(def, { as_of: '2020-01-01', size: 'large' }).map((w) => [w.code, w.field]),
    [
      ['unsupported_filter', 'as_of'],
      ['unsupported_filter', 'size'],
    ],
  );
  assert.deepEqual(
    aliasWarnings(def, { query: 'x' }).map((w) => [w.code, w.field, w.message]),
    [['alias', 'query', 'query is another name of q; use q']],
  );
});
