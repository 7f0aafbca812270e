// The municipality master (the catalogue's `municipalities`), for intake validation.
import type { CatalogDatabase } from '../../catalog/db.ts';

/** True when the prefecture has a municipality of this name (the catalogue's `municipalities`). */
export function municipalityExists(db: CatalogDatabase, prefecture: string, name: string): boolean {
  return db.get<{ ok: number }>('SELECT 1 AS ok FROM municipalities WHERE prefecture = ? AND name = ?', prefecture, name) !== undefined;
}
