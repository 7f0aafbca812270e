// Finding the law entities a name or id means: a LAW-/LAWSLUG- id, the
// formal title, a known short name (略称) or a `…法` / `…に関する法律`
// variant (law-names.ts); the names tried are reported back.
import type { CatalogDatabase } from '../catalog/db.ts';
import { lawNameVariants } from './law-names.ts';
import { entitiesByKey, getEntity, type Entity } from './queries/entities.ts';

export interface LawResolution {
  laws: Entity[];
  tried: string[];
}

export function resolveLaw(db: CatalogDatabase, input: string): LawResolution {
  const tried: string[] = [];
  const found = new Map<string, Entity>();
  const trimmed = input.trim();
  if (/^LAW(SLUG)?-/i.test(trimmed)) {
    tried.push(trimmed);
    const e = getEntity(db, trimmed);
    if (e && e.record_kind === 'law') found.set(e.entity_id, e);
  }
  if (found.size === 0) {
    for (const variant of lawNameVariants(trimmed)) {
      tried.push(variant);
      for (const e of entitiesByKey(db, variant, 'law')) found.set(e.entity_id, e);
      if (found.size > 0) break;
    }
  }
  for (const e of found.values()) {
    if (!tried.includes(e.name)) tried.push(e.name);
    const slug = e.facts.law_slug;
    if (typeof slug === 'string' && !tried.includes(slug)) tried.push(slug);
  }
  // A law with a page (articles, links) first, then active before repealed.
  const laws = [...found.values()].sort(
    (a, b) =>
      Number(!a.facts.law_slug) - Number(!b.facts.law_slug) ||
      Number(a.status === 'repealed') - Number(b.status === 'repealed') ||
      a.entity_id.localeCompare(b.entity_id),
  );
  return { laws, tried };
}
