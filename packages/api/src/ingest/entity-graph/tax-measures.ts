// Tax measures, from the typed `tax_rulesets` table; valid from/until are
// the ruleset's effective dates.
import type { DatabaseSync } from 'node:sqlite';
import { datePart } from '../../lib/time.ts';
import { compactFacts, str, typedRecords } from './rows.ts';
import type { GraphWriter } from './writer.ts';

/** tax measure id -> its legal basis strings (statute + article), for based_on_law links. */
export type LegalBasisLinks = [string, string[]][];

export function addTaxMeasures(w: GraphWriter, db: DatabaseSync): LegalBasisLinks {
  const links: LegalBasisLinks = [];
  for (const r of typedRecords(db, 'tax_rulesets')) {
    const id = str(r.unified_id);
    const name = str(r.ruleset_name);
    if (!id || !name) continue;
    const legalBasis = (r.legal_basis as string[] | null) ?? [];
    w.addEntity({
      id,
      kind: 'tax_measure',
      name,
      sourceUrl: str(r.source_url),
      fetchedAt: null,
      validFrom: datePart(r.effective_from),
      validUntil: datePart(r.effective_until),
      authority: str(r.authority),
      facts: compactFacts(r),
      recordSource: str(r._source),
      searchExtra: [...legalBasis, str(r.rate_or_amount), str(r.calculation_formula), str(r.tax_category), str(r.ruleset_kind)],
    });
    links.push([id, legalBasis]);
  }
  return links;
}
