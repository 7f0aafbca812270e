// Keyset cursors for deep pages: an opaque token carrying the sort key of
// the last row returned and a hash of the search it belongs to, so the next
// page starts right after that row whatever the offset, and a cursor is
// refused for another search. base64url of JSON; not a secret (it holds
// nothing the caller did not send or receive).
import { createHash } from 'node:crypto';

export interface CursorKey {
  /** relevance score */
  s: number;
  /** amount_max_man_yen */
  a: number | null;
  /** application window end */
  d: string | null;
  /** browse rank (tier, primary_name, pid) */
  b: number;
  /** name rank */
  n: number;
}

const searchHash = (searchKey: string): string => createHash('sha256').update(searchKey).digest('base64url').slice(0, 12);

export function encodeCursor(searchKey: string, key: CursorKey): string {
  return Buffer.from(JSON.stringify({ h: searchHash(searchKey), k: key })).toString('base64url');
}

/** The key of a cursor issued for this search, or null (malformed, or issued for another search). */
export function decodeCursor(cursor: string, searchKey: string): CursorKey | null {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { h?: unknown; k?: Record<string, unknown> };
    const k = parsed.k;
    if (parsed.h !== searchHash(searchKey) || !k) return null;
    const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
    if (!num(k.s) || !num(k.b) || !num(k.n)) return null;
    if (!(k.a === null || num(k.a)) || !(k.d === null || typeof k.d === 'string')) return null;
    return { s: k.s, a: k.a as number | null, d: k.d as string | null, b: k.b, n: k.n };
  } catch {
    return null;
  }
}
