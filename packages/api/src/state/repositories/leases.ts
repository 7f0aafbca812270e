// Named leases: which process runs a singleton job (the outbound worker) now.
// Taking or renewing a lease is one atomic statement: it succeeds for the
// current holder, or for anyone once the lease has expired, so at most one
// process holds a name at a time however many workers and replicas try.
import type { SqlDatabase } from '../sql.ts';

export type LeasesRepository = ReturnType<typeof leasesRepository>;

export function leasesRepository(db: SqlDatabase) {
  return {
    /** Take or renew `name` for `holder` until `until`; true when `holder` holds it now. */
    async acquire(name: string, holder: string, at: string, until: string): Promise<boolean> {
      const rows = await db.all(
        `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE leases.holder = excluded.holder OR leases.expires_at < ?
         RETURNING holder`,
        [name, holder, until, at],
      );
      return rows.length === 1 && rows[0].holder === holder;
    },

    /** Give the lease up (on close), so another process can take it at once. */
    async release(name: string, holder: string): Promise<void> {
      await db.run('DELETE FROM leases WHERE name = ? AND holder = ?', [name, holder]);
    },

    async holder(name: string, at: string): Promise<string | null> {
      const rows = await db.all('SELECT holder, expires_at FROM leases WHERE name = ?', [name]);
      return rows.length && String(rows[0].expires_at) >= at ? String(rows[0].holder) : null;
    },
  };
}
