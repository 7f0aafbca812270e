// A change event as the API shows it (the feed, a programme's history,
// webhook payloads), and the feed's opaque cursor.
import type { ChangeEvent } from '../state/repositories/changes.ts';

export function feedItem(e: ChangeEvent) {
  return {
    id: `chg_${e.seq}`,
    type: e.type,
    kind: e.kind,
    record_id: e.recordId,
    title: e.title,
    prefecture: e.prefecture,
    version: e.version,
    recorded_at: e.recordedAt,
    changes: e.changes,
  };
}
export type FeedItem = ReturnType<typeof feedItem>;

const CURSOR_PREFIX = 'c1.';

/** The opaque cursor of feed position `seq`. */
export function encodeCursor(seq: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${seq}`, 'utf8').toString('base64url');
}

/** The feed position of a cursor, or null when it is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(CURSOR_PREFIX)) return null;
  const digits = text.slice(CURSOR_PREFIX.length);
  if (!/^(0|[1-9][0-9]{0,14})$/.test(digits)) return null;
  return Number(digits);
}
