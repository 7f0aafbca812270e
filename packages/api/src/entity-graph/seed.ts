// The error of a tool whose entity id names nothing, with a suggestion when
// the input looks like a name rather than an id.
import type { CatalogDatabase } from '../catalog/db.ts';
import { searchNormalize } from '../catalog/search-text.ts';
import { RECORD_KINDS } from './schema.ts';
import { amError, type AmError } from './envelope.ts';
import { searchEntities } from './queries/entities.ts';

export function seedNotFound(db: CatalogDatabase, id: string, param: string): AmError {
  // Suggest entities whose name contains the input (it may be a name, not an id).
  const t = searchNormalize(id).slice(0, 100);
  const near = t.length >= 2 ? searchEntities(db, { kinds: [...RECORD_KINDS], termGroups: [[t]], order: 'tier', limit: 3, offset: 0 }).rows : [];
  return amError(
    'seed_not_found',
    `no entity with id ${JSON.stringify(id.slice(0, 100))}`,
    near.length > 0 ? `did you mean ${near.map((n) => n.entity_id).join(', ')}?` : 'ids look like UNI-…, TAX-…, LAW-…, HB-<13 digits>, AUTH-…, mirasapo_case_…',
    near.length > 0 ? { [param]: near[0].entity_id } : undefined,
  );
}
