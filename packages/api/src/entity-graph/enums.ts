// /v1/am/enums/{enum_name}: the values and counts of an enumeration, by the
// tools' names (aliases below) or a dataset enum name.
import type { CatalogDatabase } from '../catalog/db.ts';
import { amError } from './envelope.ts';
import { enumValues } from './queries/enums.ts';

/** Tool-facing enum names -> the dataset's enum names (data/README.md, enums.jsonl). */
export const ENUM_ALIASES: Record<string, { source: string; description: string }> = {
  authority: {
    source: 'am.authority',
    description: 'administering bodies of programs and enforcement records (authority entities), with the number of records linked to each',
  },
  tier: { source: 'program.tier', description: 'quality tier of programs: S, A, B, C, X (X = quarantined)' },
  industry: { source: 'program.jsic_major', description: 'JSIC major industry codes programs are listed under' },
  funding_purpose: { source: 'program.funding_purpose', description: 'funding purposes of programs (Japanese labels)' },
  target_type: { source: 'program.target_types', description: 'eligible applicant kinds of programs' },
  region: { source: 'prefecture', description: 'the 47 prefectures (label = RSS slug)' },
  tax_category: { source: 'tax_ruleset.tax_category', description: 'tax categories of tax rulesets' },
  program_kind: { source: 'program.program_kind', description: 'upstream program kind codes' },
  event_type: { source: 'enforcement.action_type', description: 'kinds of enforcement actions' },
  ministry: { source: 'law.ministry_code', description: 'ministry codes of laws' },
  record_kind: { source: 'am.record_kind', description: 'the 12 record kinds of the entity graph, counted in this catalogue' },
  relation: { source: 'am.relation', description: 'relation types of the entity graph with their edge counts' },
  loan_type: { source: 'loan.loan_type', description: 'loan types stated by loans and mutual-aid plans (the loans search filter loan_type)' },
  loan_provider: { source: 'loan.provider', description: 'lenders and administering bodies of loans and mutual-aid plans (the loans search filter provider)' },
};

export function enums(db: CatalogDatabase, enumName: string, lastUpdated: string | null) {
  const alias = ENUM_ALIASES[enumName];
  const source = alias?.source ?? enumName;
  const rows = enumValues(db, source);
  if (rows.length === 0) {
    const known = [...Object.keys(ENUM_ALIASES)];
    return {
      enum_name: enumName,
      description: null,
      values: [] as string[],
      frequency_map: {} as Record<string, number>,
      last_updated: lastUpdated,
      error: amError(
        'invalid_enum',
        `unknown enum ${JSON.stringify(enumName.slice(0, 100))}`,
        `enum_name is one of ${known.join(', ')} (or a dataset enum such as program.tier)`,
      ),
    };
  }
  return {
    enum_name: enumName,
    description: alias?.description ?? `values of ${source} observed in the dataset`,
    values: rows.map((r) => r.value),
    frequency_map: Object.fromEntries(rows.map((r) => [r.value, r.count ?? 0])),
    labels: Object.fromEntries(rows.filter((r) => r.label_ja).map((r) => [r.value, r.label_ja])),
    source_enum: source,
    last_updated: lastUpdated,
    error: null,
  };
}
