// SME case studies, from the typed `case_studies` table. Each notes the
// company it features (valid corporate number).
import type { DatabaseSync } from 'node:sqlite';
import { compactFacts, str, typedRecords } from './rows.ts';
import type { Parties } from './parties.ts';
import type { GraphWriter } from './writer.ts';

export interface CaseLinks {
  id: string;
  houjinBangou: string | null;
  title: string;
}

export function addCaseStudies(w: GraphWriter, db: DatabaseSync, parties: Parties): CaseLinks[] {
  const out: CaseLinks[] = [];
  for (const r of typedRecords(db, 'case_studies')) {
    const id = str(r.case_id);
    if (!id) continue;
    const title = str(r.title) ?? id;
    w.addEntity({
      id,
      kind: 'case_study',
      name: title,
      sourceUrl: str(r.source_url),
      fetchedAt: str(r.source_fetched_at),
      prefecture: str(r.prefecture),
      facts: compactFacts(r),
      recordSource: str(r._source),
      searchExtra: [str(r.company_name), str(r.industry_name), ...((r.pattern_tags as string[] | null) ?? [])],
    });
    out.push({ id, houjinBangou: parties.corporate(str(r.houjin_bangou), str(r.company_name), 'case_studies.jsonl'), title });
  }
  return out;
}
