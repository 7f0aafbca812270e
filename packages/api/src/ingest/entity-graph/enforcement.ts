// Enforcement records, from the typed `enforcement` table; valid from/until
// are the exclusion period. Each notes its corporate entity and authority and
// returns the links it states (laws, programs).
import type { DatabaseSync } from 'node:sqlite';
import { datePart } from '../../lib/time.ts';
import { compactFacts, str, typedRecords, type Rec } from './rows.ts';
import type { LawIndex } from './laws.ts';
import type { Parties } from './parties.ts';
import type { GraphWriter } from './writer.ts';

export interface EnforcementLinks {
  id: string;
  /** Valid corporate number of the target, if any. */
  houjinBangou: string | null;
  laws: string[];
  programs: string[];
  authority: string | null;
}

export function addEnforcement(w: GraphWriter, db: DatabaseSync, laws: LawIndex, parties: Parties): EnforcementLinks[] {
  const out: EnforcementLinks[] = [];
  for (const r of typedRecords(db, 'enforcement')) {
    const id = str(r.enforcement_id);
    if (!id) continue;
    w.addEntity({
      id,
      kind: 'enforcement',
      name: str(r.title) ?? id,
      sourceUrl: str(r.source_url),
      fetchedAt: str(r.source_fetched_at),
      validFrom: datePart(r.exclusion_start),
      validUntil: datePart(r.exclusion_end),
      status: str(r.action_type),
      prefecture: str(r.prefecture),
      authority: str(r.authority),
      facts: compactFacts(r),
      recordSource: str(r._source),
      searchExtra: [str(r.target_name), str(r.houjin_bangou), str(r.program_name_at_publication), str(r.related_law_text)],
    });
    const relatedLaws = ((r.related_laws as Rec[] | null) ?? [])
      .map((l) => (str(l.law_slug) ? laws.bySlug.get(l.law_slug as string) : str(l.law_name) ? laws.uniqueByTitle(l.law_name as string) : null))
      .filter((x): x is string => !!x);
    const programs = ((r.related_programs_auto as Rec[] | null) ?? []).map((p) => str(p.unified_id)).filter((x): x is string => !!x);
    out.push({
      id,
      houjinBangou: parties.corporate(str(r.houjin_bangou), str(r.target_name), 'enforcement.jsonl'),
      laws: relatedLaws,
      programs,
      authority: parties.authority(str(r.authority)),
    });
  }
  return out;
}
