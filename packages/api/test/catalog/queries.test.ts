import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeAuthorityLevel } from '../../src/catalog/programs/parameters.ts';
import { checkExclusions, dedupe, exclusionsToCheck, idsCoveredByRules, type LoadedRule, type RuleLeg } from '../../src/catalog/queries/exclusions.ts';

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

const sided = (kind: string, id: string, legs: RuleLeg[]): LoadedRule => ({ ...rule(kind, []), rule: { ...rule(kind, []).rule, rule_id: id }, legs });
const leg = (side: 'a' | 'b', ids: string[], refers_to: RuleLeg['refers_to'] = 'programmes', note?: string): RuleLeg => ({
  slug: null,
  name: note ?? null,
  unified_ids: ids,
  side,
  refers_to,
  ...(note ? { note } : {}),
});

test('checkExclusions: a rule pits side a against side b; two programmes of side b are no conflict', () => {
  // 経営開始資金 × [生活保護, 求職者支援制度, any other living-cost benefit]
  const rules = [sided('mutex', 'r-group', [leg('a', ['K']), leg('b', ['S']), leg('b', ['Q']), leg('b', [], 'class', '生活費を支給する国の他の事業')])];
  assert.deepEqual(
    checkExclusions(rules, ['S', 'Q']).map((h) => h.rule_id),
    [],
    'two of the group are not the rule',
  );
  assert.deepEqual(
    checkExclusions(rules, ['K', 'Q']).map((h) => h.rule_id),
    ['r-group'],
  );
  // K alone: the class cannot be matched, so it is to be checked
  assert.deepEqual(
    exclusionsToCheck(rules, ['K']).map((c) => [c.rule_id, c.to_check]),
    [['r-group', ['生活費を支給する国の他の事業']]],
  );
  assert.deepEqual(exclusionsToCheck(rules, ['K', 'Q']), [], 'a hit is not also to be checked');
});

test('checkExclusions: a rule whose side a is a condition on the applicant never hits; it is to be checked', () => {
  // 経営開始から5年以上経過した法人経営体 × the new-farmer programmes
  const rules = [sided('mutex', 'r-corp', [leg('a', [], 'condition', '経営開始から5年以上経過した法人経営体'), leg('b', ['K']), leg('b', ['Y'])])];
  assert.deepEqual(checkExclusions(rules, ['K', 'Y']), [], 'two new-farmer programmes are not in conflict');
  assert.deepEqual(
    exclusionsToCheck(rules, ['K', 'Y']).map((c) => [c.rule_id, c.programs_involved, c.to_check]),
    [['r-corp', ['K', 'Y'], ['経営開始から5年以上経過した法人経営体']]],
  );
  assert.deepEqual(idsCoveredByRules(rules, ['K', 'Z']), ['K']);
});
