// Laws, from the typed `laws` table. Id: the law's one id, the spec's derived
// `id` (the upstream LAW- id, or `LAWSLUG-<slug>` when upstream has none); a
// repeated id keeps its first page.
// Keys: slug, title, e-Gov id, law number.
import type { DatabaseSync } from 'node:sqlite';
import { normalizeText } from '../../catalog/text-query.ts';
import { datePart } from '../../lib/time.ts';
import { compactFacts, str, typedRecords } from './rows.ts';
import type { GraphWriter } from './writer.ts';

export interface LawIndex {
  /** law slug -> law entity id. */
  bySlug: Map<string, string>;
  /** The law entity of a title when exactly one law carries it. */
  uniqueByTitle(title: string): string | null;
}

export function addLaws(w: GraphWriter, db: DatabaseSync): LawIndex {
  const bySlug = new Map<string, string>();
  const byTitle = new Map<string, string[]>();
  for (const r of typedRecords(db, 'laws')) {
    const title = str(r.title);
    const slug = str(r.law_slug);
    const id = str(r.id);
    if (!id || !title) continue;
    const inserted = w.addEntity({
      id,
      kind: 'law',
      name: title,
      sourceUrl: str(r.source_url),
      fetchedAt: str(r.source_fetched_at),
      validFrom: datePart(r.enforced_on),
      validUntil: null,
      status: str(r.status),
      authority: str(r.ministry_code),
      facts: compactFacts(r),
      recordSource: slug ? `site/laws/${slug}.md` : 'data/facts_registry.json',
      searchExtra: [str(r.law_number), str(r.category)],
    });
    if (!inserted) continue;
    if (slug) {
      bySlug.set(slug, id);
      w.addKey(slug, id, 'slug');
    }
    w.addKey(title, id, 'title');
    w.addKey(str(r.egov_law_id), id, 'egov_law_id');
    w.addKey(str(r.law_number), id, 'law_number');
    const t = normalizeText(title);
    byTitle.set(t, [...(byTitle.get(t) ?? []), id]);
  }
  return {
    bySlug,
    uniqueByTitle(title) {
      const ids = byTitle.get(normalizeText(title));
      return ids && ids.length === 1 ? ids[0] : null;
    },
  };
}
