// /v1/am/tax_rule: the structured rules (rate, legal basis, validity) of the
// tax measures a name or TAX- id means, ranked: the measures the words find
// (the tax rulesets' own search, ranked by where the words stand), then a
// published rate range holding an asked rate, then measures of the same
// family. The rulesets are read through their spec
// (catalog/record-sets/tax-rulesets.ts), the reader of GET /v1/tax_rulesets;
// its synonyms (インボイス, 電帳法, 賃上げ …) are the ones this tool used to keep.
import type { CatalogDatabase } from '../catalog/db.ts';
import { getRecord, searchRecords, type FilterValues, type Row } from '../catalog/queries/record-sets.ts';
import taxRulesets from '../catalog/record-sets/tax-rulesets.ts';
import { datePart, daysBetween, isIsoDate, jstDate } from '../lib/time.ts';
import { amError, type AmError } from './envelope.ts';

/** More than the set holds (the whole set is read to find rate ranges and families). */
const ALL = { limit: 1000, offset: 0 };

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
  /** Words of the issuing authority (国税庁, 中小企業庁, 経済産業省): GET /v1/tax_rulesets/search's `authority`. */
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
  // The REST filters of the set: in force on as_of, issued by an authority whose name contains the words.
  const authority = p.authority?.trim();
  const filters: FilterValues = { ...(p.as_of ? { effective_on: p.as_of } : {}), ...(authority ? { authority } : {}) };
  const all = searchRecords(db, taxRulesets, { filters, ...ALL });
  /** Why each row matched: direct (words found), rate_range, same_family; `id` for a TAX- id. */
  const match = new Map<string, string>();
  let candidates: Row[];
  const byId = /^TAX-/i.test(q) ? getRecord(db, taxRulesets, q) : undefined;
  if (byId) {
    candidates = all.rows.filter((r) => r.unified_id === byId.unified_id);
    match.set(byId.unified_id as string, 'id');
  } else {
    candidates = searchRecords(db, taxRulesets, { q, filters, ...ALL }).rows;
    for (const r of candidates) match.set(r.unified_id as string, 'direct');
    // A rate asked for (80%) also finds measures publishing a range that contains it (40%-90%).
    const pct = /^(\d+(?:\.\d+)?)[%％]$/.exec(q.normalize('NFKC'));
    if (pct) {
      const v = Number(pct[1]);
      for (const r of all.rows) {
        if (match.has(r.unified_id as string)) continue;
        const text = [r.ruleset_name, r.rate_or_amount, r.calculation_formula].filter(Boolean).join(' ').normalize('NFKC');
        for (const m of text.matchAll(/(\d+(?:\.\d+)?)%\s*[-〜~]\s*(\d+(?:\.\d+)?)%/g)) {
          if (Number(m[1]) <= v && v <= Number(m[2])) {
            candidates.push(r);
            match.set(r.unified_id as string, 'rate_range');
            break;
          }
        }
      }
    }
    // Measures of the same family (same name before the first number or bracket) follow the direct hits.
    const stem = (name: unknown): string =>
      String(name)
        .normalize('NFKC')
        .split(/\s*[(（]|\s+\S*\d/)[0]
        .trim();
    const stems = new Set(
      candidates
        .filter((r) => match.get(r.unified_id as string) === 'direct')
        .map((r) => stem(r.ruleset_name))
        .filter((x) => [...x].length >= 6),
    );
    for (const r of all.rows) {
      if (!match.has(r.unified_id as string) && stems.has(stem(r.ruleset_name))) {
        candidates.push(r);
        match.set(r.unified_id as string, 'same_family');
      }
    }
  }
  const kindFor = (t: string): string[] =>
    t === 'reduction' ? ['deduction', 'exemption', 'credit'] : t === 'immediate_writeoff' ? ['special_depreciation'] : [t];
  const ref = p.as_of ?? today;
  const rows = candidates
    .filter((r) => !p.rule_type || kindFor(p.rule_type).includes(String(r.ruleset_kind)))
    .map((r) => {
      const from = datePart(r.effective_from);
      const until = datePart(r.effective_until);
      return {
        unified_id: r.unified_id,
        match: match.get(r.unified_id as string) ?? 'id',
        ruleset_name: r.ruleset_name,
        tax_category: r.tax_category ?? null,
        ruleset_kind: r.ruleset_kind ?? null,
        rate_or_amount: r.rate_or_amount ?? null,
        calculation_formula: r.calculation_formula ?? null,
        legal_basis: r.legal_basis ?? [],
        effective_from: from,
        effective_until: until,
        in_effect: (!from || from <= ref) && (!until || until >= ref),
        days_until_sunset: until ? daysBetween(ref, until) : null,
        eligibility_conditions: r.eligibility_conditions_json ?? null,
        authority: r.authority ?? null,
        source_url: r.source_url,
        confidence: r.confidence ?? null,
        needs_verification: r.needs_verification ?? null,
      };
    });
  return {
    results: rows.slice(0, p.limit),
    total: rows.length,
    error: null,
    retrieval_note: `in_effect evaluated at ${ref}; search covers the tax rulesets (name, legal basis, rate, formula, authority, eligibility conditions), as GET /v1/tax_rulesets/search`,
  };
}
