import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeAuthorityLevel } from '../../src/catalog/programs/parameters.ts';
import { checkExclusions, dedupe, type LoadedRule } from '../../src/catalog/queries/exclusions.ts';

test('authority_level aliases normalise to the canonical values', () => {
  assert.equal(normalizeAuthorityLevel('都道府県'), 'prefecture');
  assert.equal(normalizeAuthorityLevel('市区町村'), 'municipality');
  assert.equal(normalizeAuthorityLevel('公庫'), 'financial');
  assert.equal(normalizeAuthorityLevel('国'), 'national');
  assert.equal(normalizeAuthorityLevel('National'), 'national');
  assert.equal(normalizeAuthorityLevel('県'), null);
});

test('dedupe keeps the first occurrence order', () => {
  assert.deepEqual(dedupe(['b', 'a', 'b', 'c', 'a']), ['b', 'a', 'c']);
});

const rule = (kind: string, legs: string[][]): LoadedRule => ({
  rule: {
    rule_id: `r-${kind}`,
    kind,
    severity: 'critical',
    program_a: null,
    program_b: null,
    program_b_group: [],
    description: null,
    source_notes: null,
    source_urls: [],
    extra: {},
  },
  legs: legs.map((ids, i) => ({ slug: `slug-${i}`, name: `name-${i}`, unified_ids: ids })),
});

test('checkExclusions: mutex needs two legs, prerequisite one, others behave like mutex', () => {
  const rules = [rule('mutex', [['A1', 'A2'], ['B']]), rule('prerequisite', [['P'], ['Q']]), rule('conditional_reduction', [['A1'], ['C']])];
  assert.deepEqual(
    checkExclusions(rules, ['A1']).map((h) => h.rule_id),
    [],
  );
  assert.deepEqual(
    checkExclusions(rules, ['A1', 'A2']).map((h) => h.rule_id),
    [],
    'two ids of the same leg are not a conflict',
  );
  assert.deepEqual(
    checkExclusions(rules, ['A2', 'B']).map((h) => h.rule_id),
    ['r-mutex'],
  );
  assert.deepEqual(
    checkExclusions(rules, ['P']).map((h) => h.rule_id),
    ['r-prerequisite'],
  );
  assert.deepEqual(
    checkExclusions(rules, ['A1', 'C']).map((h) => h.rule_id),
    ['r-conditional_reduction'],
  );
  assert.deepEqual(checkExclusions(rules, ['B', 'slug-0'])[0].programs_involved, ['slug-0', 'B'], 'slugs match and involved ids follow the legs');
});
