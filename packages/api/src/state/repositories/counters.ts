// Counters for daily limits (anonymous by address hash, free keys by key id,
// feedback). A take is one atomic statement (INSERT … ON CONFLICT … DO UPDATE
// … WHERE … RETURNING), so the limit holds when several processes share one
// PostgreSQL. Subjects are hashes or key ids, never a raw address or key.
import { num, type SqlDatabase } from '../sql.ts';

/** Result of an atomic "take one if below the limit" on a counter. */
export interface CounterResult {
  allowed: boolean;
  /** Count after this call (unchanged when not allowed). */
  count: number;
}

export type CountersRepository = ReturnType<typeof countersRepository>;

export function countersRepository(db: SqlDatabase) {
  async function peek(scope: string, subject: string, window: string): Promise<number> {
    const rows = await db.all<{ count: unknown }>('SELECT count FROM counters WHERE scope = ? AND subject = ? AND period = ?', [scope, subject, window]);
    return rows.length ? num(rows[0].count) : 0;
  }

  return {
    /**
     * Atomically add `units` (default 1) to `scope`/`subject`/`window` unless
     * that would pass `limit`: all of them or none (a batch of 5 with 3 left takes nothing).
     */
    async take(scope: string, subject: string, window: string, limit: number, units = 1): Promise<CounterResult> {
      const rows = await db.all<{ count: unknown }>(
        `INSERT INTO counters (scope, subject, period, count)
         SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER) WHERE CAST(? AS INTEGER) >= CAST(? AS INTEGER)
         ON CONFLICT (scope, subject, period) DO UPDATE SET count = counters.count + CAST(? AS INTEGER)
         WHERE counters.count + CAST(? AS INTEGER) <= CAST(? AS INTEGER)
         RETURNING count`,
        [scope, subject, window, units, limit, units, units, units, limit],
      );
      if (rows.length) return { allowed: true, count: num(rows[0].count) };
      return { allowed: false, count: await peek(scope, subject, window) };
    },

    peek,
  };
}
