// Saved searches (the parameters of GET /v1/programs/search, kept as given)
// and their matches: the created or amended programmes of a dataset version
// that a search matched. A search belongs to an API key, or (key_id null) to
// the e-mail subscriber that created it. Matches are written by the version
// recorder inside its transaction (`insertMatches`), once per (search, event).
import { randomBytes } from 'node:crypto';
import { columns, first, json, num, now, placeholders, strOrNull, type Queryer, type SqlDatabase } from '../sql.ts';

export interface SavedSearch {
  id: string;
  keyId: number | null;
  name: string;
  /** The search parameters, by their REST names. */
  query: Record<string, unknown>;
  createdAt: string;
  matchCount: number;
  lastMatchedAt: string | null;
}

export interface SavedSearchMatch {
  id: number;
  savedSearchId: string;
  seq: number;
  version: number;
  type: string;
  unifiedId: string;
  primaryName: string | null;
  createdAt: string;
}

const SEARCH = columns<SavedSearch>({
  id: ['id', String],
  keyId: ['key_id', (v) => (v === null || v === undefined ? null : num(v))],
  name: ['name', String],
  query: ['query', json],
  createdAt: ['created_at', String],
  matchCount: ['match_count', num],
  lastMatchedAt: ['last_matched_at', strOrNull],
});

const MATCH = columns<SavedSearchMatch>({
  id: ['id', num],
  savedSearchId: ['saved_search_id', String],
  seq: ['seq', num],
  version: ['version', num],
  type: ['type', String],
  unifiedId: ['unified_id', String],
  primaryName: ['primary_name', strOrNull],
  createdAt: ['created_at', String],
});

export const newSavedSearchId = (): string => `ss_${randomBytes(12).toString('base64url')}`;

/** Record matches inside the caller's transaction; a (search, event) pair already recorded is ignored. */
export async function insertMatches(q: Queryer, matches: readonly Omit<SavedSearchMatch, 'id' | 'createdAt'>[]): Promise<void> {
  const at = now();
  const counts = new Map<string, number>();
  for (const m of matches) {
    const added = await q.run(
      `INSERT INTO saved_search_matches (saved_search_id, seq, version, type, unified_id, primary_name, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (saved_search_id, seq) DO NOTHING`,
      [m.savedSearchId, m.seq, m.version, m.type, m.unifiedId, m.primaryName, at],
    );
    if (added) counts.set(m.savedSearchId, (counts.get(m.savedSearchId) ?? 0) + added);
  }
  for (const [id, n] of counts) {
    await q.run('UPDATE saved_searches SET match_count = match_count + ?, last_matched_at = ? WHERE id = ?', [n, at, id]);
  }
}

/** Every saved search, read inside the caller's transaction (the recorder evaluates each against a new version). */
export async function allSavedSearches(q: Queryer): Promise<SavedSearch[]> {
  return (await q.all(`SELECT ${SEARCH.list} FROM saved_searches ORDER BY id`)).map(SEARCH.read);
}

export type SavedSearchesRepository = ReturnType<typeof savedSearchesRepository>;

export function savedSearchesRepository(db: SqlDatabase) {
  return {
    /** A new search of a key; null when the key already has `maxPerKey`. */
    async create(input: { keyId: number | null; name: string; query: Record<string, unknown> }, maxPerKey = Infinity): Promise<SavedSearch | null> {
      const search: SavedSearch = { id: newSavedSearchId(), ...input, createdAt: now(), matchCount: 0, lastMatchedAt: null };
      return db.tx(async (q) => {
        if (input.keyId !== null && Number.isFinite(maxPerKey)) {
          const [row] = await q.all('SELECT count(*) AS n FROM saved_searches WHERE key_id = ?', [input.keyId]);
          if (num(row.n) >= maxPerKey) return null;
        }
        await q.run(`INSERT INTO saved_searches (${SEARCH.list}) VALUES (${placeholders(SEARCH.fields.length)})`, [
          ...SEARCH.values({ ...search, query: JSON.stringify(search.query) as never }),
        ]);
        return search;
      });
    },

    /** One search; with `keyId`, only when that key owns it. */
    async get(id: string, keyId?: number): Promise<SavedSearch | null> {
      const owner = keyId === undefined ? '' : ' AND key_id = ?';
      return first(await db.all(`SELECT ${SEARCH.list} FROM saved_searches WHERE id = ?${owner}`, keyId === undefined ? [id] : [id, keyId]), SEARCH.read);
    },

    async listForKey(keyId: number): Promise<SavedSearch[]> {
      return (await db.all(`SELECT ${SEARCH.list} FROM saved_searches WHERE key_id = ? ORDER BY created_at, id`, [keyId])).map(SEARCH.read);
    },

    /** Delete a search (its matches and e-mail subscriptions go with it); with `keyId`, only the key's own. */
    async delete(id: string, keyId?: number): Promise<boolean> {
      const owner = keyId === undefined ? '' : ' AND key_id = ?';
      return (await db.run(`DELETE FROM saved_searches WHERE id = ?${owner}`, keyId === undefined ? [id] : [id, keyId])) === 1;
    },

    /** Matches of a search after match id `afterId`, oldest first. */
    async matches(savedSearchId: string, options: { afterId?: number; limit?: number } = {}): Promise<SavedSearchMatch[]> {
      const rows = await db.all(`SELECT ${MATCH.list} FROM saved_search_matches WHERE saved_search_id = ? AND id > ? ORDER BY id LIMIT ?`, [
        savedSearchId,
        options.afterId ?? 0,
        options.limit ?? 100,
      ]);
      return rows.map(MATCH.read);
    },

    /** The newest matches of a search, newest first. */
    async recentMatches(savedSearchId: string, limit: number): Promise<SavedSearchMatch[]> {
      return (await db.all(`SELECT ${MATCH.list} FROM saved_search_matches WHERE saved_search_id = ? ORDER BY id DESC LIMIT ?`, [savedSearchId, limit])).map(
        MATCH.read,
      );
    },
  };
}
