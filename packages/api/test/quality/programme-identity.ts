// The evaluation's own notion of "one programme", independent of the
// search's duplicate collapse: records of one `program_duplicates` group in
// the same prefecture, or records whose names are identical once spaces and
// punctuation are dropped, in the same prefecture and municipality.
import type { CatalogDatabase } from '../../src/catalog/db.ts';

export function programmeIdentity(db: CatalogDatabase): (unifiedId: string) => string {
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
  return (id) => (parent.has(id) ? find(id) : id);
}
