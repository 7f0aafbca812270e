// The plain functions behind the composite tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluatePredicate } from '../src/lib/predicate.ts';
import { compactRecord, compactRecords } from '../src/lib/rows.ts';
import { Attributions } from '../src/lib/attribution.ts';
import { setAsideReason } from '../src/lib/match.ts';
import { admitsSize } from '../src/lib/company-size.ts';
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

test('evaluatePredicate: a set given as `values` is read; what the facts meet is listed', () => {
  const p = {
    op: 'all',
    of: [
      { op: 'lte', field: 'capital_jpy', value: 100_000_000 },
      { op: 'in', field: 'asset_category', values: ['machinery', 'tools'] },
    ],
  };
  assert.equal(evaluatePredicate(p, { capital_yen: 30_000_000, asset_category: 'machinery' }).verdict, 'applies');
  assert.equal(evaluatePredicate(p, { capital_yen: 30_000_000, asset_category: 'building' }).verdict, 'does_not_apply');
  const open = evaluatePredicate(p, { capital_yen: 30_000_000 });
  assert.equal(open.verdict, 'unknown');
  assert.deepEqual(open.met, ['capital_yen=30000000 lte 100000000']);
  assert.deepEqual(open.missing_fields, ['asset_category']);
  assert.deepEqual(evaluatePredicate(p, {}).met, []);
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

test('compact rows keep what an agent cites, drop what says nothing, and reach records inside containers', () => {
  const program = {
    unified_id: 'UNI-1',
    primary_name: 'A',
    aliases: ['a'],
    a_to_j_coverage: { A_basics: true },
    program_kind: 'subsidy',
    prefecture: null,
    amount_max_man_yen: 500,
    application_window: { start: null, end: null },
    official_url: 'https://example.go.jp/a',
    _source: 'scripts/x.json',
  };
  assert.deepEqual(compactRecord(program), {
    unified_id: 'UNI-1',
    primary_name: 'A',
    program_kind: 'subsidy',
    prefecture: null, // nationwide: a null that says something
    amount_max_man_yen: 500,
    official_url: 'https://example.go.jp/a',
  });
  // one id per row: a loan's id repeats its unified_id
  assert.deepEqual(Object.keys(compactRecord({ unified_id: 'UNI-2', id: 'UNI-2', name: 'L' })), ['unified_id', 'name']);
  // an entity's validity repeats its window
  const entity = {
    entity_id: 'E',
    name: 'N',
    valid_from: '2026-01-01',
    valid_until: '2026-02-01',
    application_window: { start: '2026-01-01', end: '2026-02-01' },
  };
  assert.deepEqual(Object.keys(compactRecord(entity)), ['entity_id', 'name', 'application_window']);
  // a record that names no source says so (null), rather than losing the key
  assert.deepEqual(compactRecord({ unified_id: 'UNI-3', primary_name: 'B', official_url: null }), {
    unified_id: 'UNI-3',
    primary_name: 'B',
    official_url: null,
  });
  assert.deepEqual(compactRecord({ unified_id: 'UNI-4', primary_name: 'C', official_url: null, source_url: 'https://s' }), {
    unified_id: 'UNI-4',
    primary_name: 'C',
    source_url: 'https://s',
  });
  assert.deepEqual(compactRecords([{ fiscal_quarter: 'FY2026-Q1', programs: [program] }]), [
    { fiscal_quarter: 'FY2026-Q1', programs: [compactRecord(program)] },
  ]);
});

test('attribution: collected from the answers read and the payload, given once per distinct source', async () => {
  const block = { source: 'S', source_url: 'https://s', license: 'CC BY 4.0', edited: true, notice: 'n' };
  const other = { ...block, source: 'e-Gov' };
  const credits = new Attributions();
  const api = credits.tap({ meta: async () => ({ attribution: block }) } as never);
  await (api as unknown as { meta(): Promise<unknown> }).meta();
  const payload = { record: { title: 'x', attribution: other }, results: [{ name: 'y', attribution: block }] };
  credits.hoist(payload);
  assert.deepEqual(credits.list, [block, other]);
  assert.deepEqual(payload, { record: { title: 'x' }, results: [{ name: 'y' }] });
});

test('a composite lists what the engine matched to the company: rows without a reason, naming other industries or applicants, or with no page to cite, are set aside', () => {
  const place = { kind: 'place', detail: 'nationwide' };
  assert.equal(setAsideReason({ reasons: [], unknowns: [] }), 'no_reason');
  assert.equal(setAsideReason({ reasons: [place], unknowns: [{ kind: 'industry', detail: 'names other industries' }] }), 'other_industry');
  assert.equal(setAsideReason({ reasons: [place], target_types: ['大学・研究機関'], unknowns: [{ kind: 'size' }] }), 'other_applicants');
  assert.equal(setAsideReason({ reasons: [{ kind: 'words' }], unknowns: [{ kind: 'place', detail: 'local to 高知県: give prefecture' }] }), 'local_elsewhere');
  // applicant types not published: a size still to check, not a mismatch
  const page = { official_url: 'https://www.mhlw.go.jp/a.html' };
  assert.equal(setAsideReason({ ...page, reasons: [place], target_types: [], unknowns: [{ kind: 'size' }] }), null);
  assert.equal(setAsideReason({ source_url: 'https://www.jfc.go.jp/b.html', reasons: [place, { kind: 'size' }], unknowns: [{ kind: 'window' }] }), null);
  // a fit with no page to cite is set aside, not listed
  assert.equal(setAsideReason({ reasons: [place], unknowns: [] }), 'no_source');
  assert.equal(setAsideReason({ official_url: 'not a url', source_url: null, reasons: [place], unknowns: [] }), 'no_source');
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

test('admitsSize: a company size rules out programs whose applicant types exclude it', () => {
  assert.equal(admitsSize({ target_types: ['sole_proprietor'] }, 'large'), false);
  assert.equal(admitsSize({ target_types: [] }, 'large'), true, 'no applicant types named: admits everyone');
  assert.equal(admitsSize({ target_types: ['corporation'] }, 'large'), true);
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
