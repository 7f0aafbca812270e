// /v1/am/tax_rule: the structured rules (rate, legal basis, validity) of the
// tax measures a name or TAX- id means, ranked: words in the measure's name,
// then in its legal basis or formula, then a published rate range holding an
// asked rate, then measures of the same family.
import type { CatalogDatabase } from '../catalog/db.ts';
import { normalizeText } from '../catalog/text-query.ts';
import { daysBetween, isIsoDate, jstDate } from '../lib/time.ts';
import { amError, type AmError } from './envelope.ts';
import { getEntity, searchEntities, type Entity } from './queries/entities.ts';

/** Query words and the other words the same measure is published under. */
const TAX_SYNONYMS: Record<string, string[]> = {
  インボイス: ['インボイス', '適格請求書', '適格簡易請求書', '登録番号', '免税事業者'],
  電帳法: ['電子帳簿', '電子取引', '電磁的記録'],
  電子帳簿保存法: ['電子帳簿', '電子取引', '電磁的記録'],
  賃上げ: ['賃上げ', '給与等支給額'],
  '2割特例': ['2割特例', '2割', '小規模事業者に係る税額控除'],
};

export const TAX_RULE_TYPES = [
  'credit',
  'deduction',
  'reduction',
  'special_depreciation',
  'immediate_writeoff',
  'exemption',
  'registration',
  'preservation',
  'other',
] as const;

export interface TaxRuleParams {
  measure_name_or_id: string;
  rule_type?: string;
  as_of?: string;
  /** Words of the issuing authority (国税庁 44, 中小企業庁 4, 経済産業省 2 of the 50 rulesets). */
  authority?: string;
  limit: number;
}

export function taxRule(
  db: CatalogDatabase,
  p: TaxRuleParams,
  today = jstDate(),
): { results: Record<string, unknown>[]; total: number; error: AmError | null; retrieval_note: string | null } {
  const q = p.measure_name_or_id.trim();
  const fail = (error: AmError) => ({ results: [], total: 0, error, retrieval_note: null });
  if (q === '') return fail(amError('empty_input', 'measure_name_or_id is empty'));
  if (p.rule_type && !(TAX_RULE_TYPES as readonly string[]).includes(p.rule_type)) {
    return fail(amError('invalid_enum', 'unknown rule_type', `rule_type is one of ${TAX_RULE_TYPES.join(', ')}`));
  }
  if (p.as_of !== undefined && !isIsoDate(p.as_of)) return fail(amError('invalid_date', 'as_of must be YYYY-MM-DD'));
  let candidates: Entity[];
  /** Why each row matched: direct (words found), rate_range, same_family. */
  const match = new Map<string, string>();
  const byId = /^TAX-/i.test(q) ? (getEntity(db, q.toUpperCase().replace(/^TAX-/, 'TAX-')) ?? getEntity(db, q)) : null;
  if (byId && byId.record_kind === 'tax_measure') {
    candidates = [byId];
  } else {
    const terms = normalizeText(q).split(' ').filter(Boolean).slice(0, 8);
    const groups = terms.map((t) => TAX_SYNONYMS[t] ?? [t]);
    candidates = searchEntities(db, { kinds: ['tax_measure'], termGroups: groups, order: 'name', limit: 500, offset: 0 }).rows;
    // Matches in the measure's own name rank before matches in its legal basis or formula.
    const inName = (e: Entity): number => groups.filter((g) => g.some((t) => normalizeText(e.name).includes(normalizeText(t)))).length;
    candidates.sort((a, b) => inName(b) - inName(a) || a.name.localeCompare(b.name));
    for (const e of candidates) match.set(e.entity_id, 'direct');
    const all = searchEntities(db, { kinds: ['tax_measure'], order: 'name', limit: 500, offset: 0 }).rows;
    // A rate asked for (80%) also finds measures publishing a range that contains it (40%-90%).
    const pct = /^(\d+(?:\.\d+)?)[%％]$/.exec(q.normalize('NFKC'));
    if (pct) {
      const v = Number(pct[1]);
      for (const e of all) {
        if (match.has(e.entity_id)) continue;
        const text = [e.name, e.facts.rate_or_amount, e.facts.calculation_formula].filter(Boolean).join(' ').normalize('NFKC');
        for (const m of text.matchAll(/(\d+(?:\.\d+)?)%\s*[-〜~]\s*(\d+(?:\.\d+)?)%/g)) {
          if (Number(m[1]) <= v && v <= Number(m[2])) {
            candidates.push(e);
            match.set(e.entity_id, 'rate_range');
            break;
          }
        }
      }
    }
    // Measures of the same family (same name before the first number or bracket) follow the direct hits.
    const stem = (name: string): string =>
      name
        .normalize('NFKC')
        .split(/\s*[(（]|\s+\S*\d/)[0]
        .trim();
    const stems = new Set(
      candidates
        .filter((e) => match.get(e.entity_id) === 'direct')
        .map((e) => stem(e.name))
        .filter((x) => [...x].length >= 6),
    );
    for (const e of all) {
      if (!match.has(e.entity_id) && stems.has(stem(e.name))) {
        candidates.push(e);
        match.set(e.entity_id, 'same_family');
      }
    }
  }
  const kindFor = (t: string): string[] =>
    t === 'reduction' ? ['deduction', 'exemption', 'credit'] : t === 'immediate_writeoff' ? ['special_depreciation'] : [t];
  const asOf = p.as_of ?? null;
  const authority = p.authority ? normalizeText(p.authority) : '';
  const rows = candidates
    .filter((e) => !p.rule_type || kindFor(p.rule_type).includes(String(e.facts.ruleset_kind)))
    .filter((e) => !asOf || ((!e.valid_from || e.valid_from <= asOf) && (!e.valid_until || e.valid_until >= asOf)))
    .filter((e) => !authority || normalizeText(e.authority_name ?? '').includes(authority))
    .map((e) => {
      const ref = asOf ?? today;
      return {
        unified_id: e.entity_id,
        match: match.get(e.entity_id) ?? 'id',
        ruleset_name: e.name,
        tax_category: e.facts.tax_category ?? null,
        ruleset_kind: e.facts.ruleset_kind ?? null,
        rate_or_amount: e.facts.rate_or_amount ?? null,
        calculation_formula: e.facts.calculation_formula ?? null,
        legal_basis: e.facts.legal_basis ?? [],
        effective_from: e.valid_from,
        effective_until: e.valid_until,
        in_effect: (!e.valid_from || e.valid_from <= ref) && (!e.valid_until || e.valid_until >= ref),
        days_until_sunset: e.valid_until ? daysBetween(ref, e.valid_until) : null,
        eligibility_conditions: e.facts.eligibility_conditions_json ?? null,
        authority: e.authority_name,
        source_url: e.source_url,
        confidence: e.facts.confidence ?? null,
        needs_verification: e.facts.needs_verification ?? null,
      };
    });
  return {
    results: rows.slice(0, p.limit),
    total: rows.length,
    error: null,
    retrieval_note: `in_effect evaluated at ${asOf ?? today}; search covers the 50 tax rulesets (name, legal basis, rate, formula)`,
  };
}
