// The evaluation's own notion of "one programme", independent of the
// catalogue's merges: records of one `program_duplicates` group in
// the same prefecture, or records whose names are identical once spaces and
// punctuation are dropped, in the same prefecture and municipality.
//
// With `servedMerges`, also the records the catalogue serves as one programme
// (canonical_id, ingest/canonical-records.ts: rounds, area and expense-type
// splits, renamed successors): a ranking cannot show those as separate rows,
// so the ideal ranking of nDCG must not ask for them. The judged set graded
// such records one by one; the strict identity (without) is printed beside.
import type { CatalogDatabase } from '../../src/catalog/db.ts';

export function programmeIdentity(db: CatalogDatabase, options: { servedMerges?: boolean } = {}): (unifiedId: string) => string {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root)!;
    return root;
  };
  const join = (a: string, b: string): void => {
    const ra = find(a);
    const rb = find(b);
    // biome-ignore lint/complexity/useMathMinMax: ids are strings, compared as strings
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  };
  const rows = db.all<{ unified_id: string; primary_name: string; prefecture: string | null; municipality: string | null }>(
    'SELECT unified_id, primary_name, prefecture, municipality FROM programs',
  );
  const place = new Map(rows.map((r) => [r.unified_id, r.prefecture ?? '']));
  const byName = new Map<string, string>();
  for (const r of rows) {
    parent.set(r.unified_id, r.unified_id);
    const key = `${r.primary_name
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]/gu, '')}|${r.prefecture ?? ''}|${r.municipality ?? ''}`;
    const first = byName.get(key);
    if (first) join(first, r.unified_id);
    else byName.set(key, r.unified_id);
  }
  for (const g of db.all<{ unified_ids: string }>('SELECT unified_ids FROM program_duplicates')) {
    const ids = (JSON.parse(g.unified_ids) as string[]).filter((id) => parent.has(id));
    for (let i = 1; i < ids.length; i++) {
      for (let j = 0; j < i; j++) if (place.get(ids[i]) === place.get(ids[j])) join(ids[i], ids[j]);
    }
  }
  if (options.servedMerges) {
    for (const r of db.all<{ unified_id: string; canonical_id: string }>('SELECT unified_id, canonical_id FROM programs WHERE canonical_id IS NOT NULL')) {
      join(r.unified_id, r.canonical_id);
    }
  }
  return (id) => (parent.has(id) ? find(id) : id);
}

/**
 * A result row with the records merged into its programme at ingest
 * (`also_listed_as` of the catalogue), for answers whose rows do not carry
 * them (the default shape, match rows): a row is graded by the best of them.
 */
export function withMergedRecords(db: CatalogDatabase): <T extends { unified_id: string }>(row: T) => T & { also_listed_as: { unified_id: string }[] } {
  const merged = new Map(
    db
      .all<{ unified_id: string; also_listed_as: string }>("SELECT unified_id, also_listed_as FROM programs WHERE also_listed_as <> '[]'")
      .map((r) => [r.unified_id, JSON.parse(r.also_listed_as) as { unified_id: string }[]]),
  );
  return (row) => ({ ...row, also_listed_as: merged.get(row.unified_id) ?? [] });
}
