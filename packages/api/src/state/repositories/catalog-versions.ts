// Dataset versions published through the state store (migration 007), the
// head every server follows, and what each serving process reports it serves.
//
// A version is the set of source overlays the catalogue is built from (the
// bundled dataset is part of the code): its manifest names, per source, the
// overlay's name and the SHA-256 of each of its files, and its id is the hash
// of that manifest, so the same content is the same version wherever it was
// built. The files are stored once each (catalog_files). Moving the head is
// done under its row lock by `lockHead` + `setHead` inside one transaction of
// the caller, which also records the version's change events (versions/publish.ts).
import { columns, first, json, num, numOrNull, placeholders, strOrNull, type SqlDatabase } from '../sql.ts';

/** How often a serving process reports what it serves (plugins/served-version.ts). */
export const REPORT_SECONDS = 15;
/** A server not heard from for this long is no longer listed as serving. */
export const SERVER_SEEN_SECONDS = 4 * REPORT_SECONDS;

/** source -> the overlay's name and its files (base name -> SHA-256 of the JSONL text). */
export type VersionManifest = Record<string, { name: string; files: Record<string, string> }>;

export interface CatalogVersion {
  id: string;
  /** Publication order (1, 2, …). */
  seq: number;
  /** The version that was current when this one was published (null: none was). */
  parent: string | null;
  manifest: VersionManifest;
  /** `sync jgrants`, `sync egov`, `basis` (the catalogue before the first publication). */
  reason: string;
  /** The sync's report (null for a basis). */
  report: unknown;
  publishedBy: string;
  publishedAt: string;
  /** The change feed's dataset version its events were recorded as (null: recorded none). */
  feedVersion: number | null;
}

export interface CatalogHead {
  versionId: string | null;
  changedAt: string | null;
  changedBy: string | null;
}

export interface ServerReport {
  serverId: string;
  host: string;
  pid: number;
  dataDir: string;
  /** The dataset version of the catalogue it serves (ingest's `dataset_version`). */
  versionId: string;
  catalogFingerprint: string;
  startedAt: string;
  seenAt: string;
}

const VERSION = columns<CatalogVersion>({
  id: ['id', String],
  seq: ['seq', num],
  parent: ['parent', strOrNull],
  manifest: ['manifest', json],
  reason: ['reason', String],
  report: ['report', (v) => (v === null || v === undefined ? null : json(v))],
  publishedBy: ['published_by', String],
  publishedAt: ['published_at', String],
  feedVersion: ['feed_version', numOrNull],
});

const SERVER = columns<ServerReport>({
  serverId: ['server_id', String],
  host: ['host', String],
  pid: ['pid', num],
  dataDir: ['data_dir', String],
  versionId: ['version_id', String],
  catalogFingerprint: ['catalog_fingerprint', String],
  startedAt: ['started_at', String],
  seenAt: ['seen_at', String],
});

const HEAD = 'SELECT version_id, changed_at, changed_by FROM catalog_head WHERE id = 1';
const readHead = (r: Record<string, unknown>): CatalogHead => ({
  versionId: strOrNull(r.version_id),
  changedAt: strOrNull(r.changed_at),
  changedBy: strOrNull(r.changed_by),
});

export type CatalogVersionsRepository = ReturnType<typeof catalogVersionsRepository>;

export function catalogVersionsRepository(db: SqlDatabase) {
  return {
    async head(): Promise<CatalogHead> {
      const [row] = await db.all(HEAD);
      return readHead(row);
    },

    /** The head under its row lock (inside a transaction: the caller is the only one moving it until commit). */
    async lockHead(): Promise<CatalogHead> {
      const [row] = await db.all(`${HEAD}${db.forUpdate}`);
      return readHead(row);
    },

    async setHead(versionId: string, by: string, at: string): Promise<void> {
      await db.run('UPDATE catalog_head SET version_id = ?, changed_at = ?, changed_by = ? WHERE id = 1', [versionId, at, by]);
    },

    async version(id: string): Promise<CatalogVersion | null> {
      return first(await db.all(`SELECT ${VERSION.list} FROM catalog_versions WHERE id = ?`, [id]), VERSION.read);
    },

    /** Newest first. */
    async versions(limit = 50): Promise<CatalogVersion[]> {
      return (await db.all(`SELECT ${VERSION.list} FROM catalog_versions ORDER BY seq DESC LIMIT ?`, [limit])).map(VERSION.read);
    },

    /** Adds a version (its files must be stored already); a version of the same id is kept as it is. Returns the stored row. */
    async addVersion(v: Omit<CatalogVersion, 'seq'>): Promise<CatalogVersion> {
      const existing = await this.version(v.id);
      if (existing) return existing;
      const [{ next }] = await db.all<{ next: unknown }>('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM catalog_versions');
      const row: CatalogVersion = { ...v, seq: num(next) };
      await db.run(`INSERT INTO catalog_versions (${VERSION.list}) VALUES (${placeholders(VERSION.fields.length)})`, [
        row.id,
        row.seq,
        row.parent,
        JSON.stringify(row.manifest),
        row.reason,
        row.report === null ? null : JSON.stringify(row.report),
        row.publishedBy,
        row.publishedAt,
        row.feedVersion,
      ]);
      return row;
    },

    /** Stores overlay files by their SHA-256 (a file already stored is left alone). */
    async putFiles(files: readonly { sha256: string; content: string }[], at: string): Promise<void> {
      for (const f of files) {
        await db.run('INSERT INTO catalog_files (sha256, size, content, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING', [
          f.sha256,
          Buffer.byteLength(f.content),
          f.content,
          at,
        ]);
      }
    },

    /** The hashes of these the store does not hold. */
    async missingFiles(hashes: readonly string[]): Promise<string[]> {
      if (hashes.length === 0) return [];
      const have = new Set(
        (await db.all<{ sha256: string }>(`SELECT sha256 FROM catalog_files WHERE sha256 IN (${placeholders(hashes.length)})`, [...hashes])).map((r) =>
          String(r.sha256),
        ),
      );
      return hashes.filter((h) => !have.has(h));
    },

    /** The content of one stored file, or null. */
    async file(sha256: string): Promise<string | null> {
      return first(await db.all('SELECT content FROM catalog_files WHERE sha256 = ?', [sha256]), (r) => String(r.content));
    },

    /** A serving process says what it serves (its row is replaced). */
    async reportServer(r: ServerReport): Promise<void> {
      await db.run(
        `INSERT INTO catalog_servers (${SERVER.list}) VALUES (${placeholders(SERVER.fields.length)})
         ON CONFLICT (server_id) DO UPDATE SET version_id = excluded.version_id, catalog_fingerprint = excluded.catalog_fingerprint, seen_at = excluded.seen_at`,
        SERVER.values(r),
      );
    },

    /** A serving process that stops takes its row away. */
    async removeServer(serverId: string): Promise<void> {
      await db.run('DELETE FROM catalog_servers WHERE server_id = ?', [serverId]);
    },

    /** Processes that reported at or after `since`; rows older than `forgetBefore` are deleted first. */
    async servers(since: string, forgetBefore?: string): Promise<ServerReport[]> {
      if (forgetBefore) await db.run('DELETE FROM catalog_servers WHERE seen_at < ?', [forgetBefore]);
      return (await db.all(`SELECT ${SERVER.list} FROM catalog_servers WHERE seen_at >= ? ORDER BY host, data_dir, pid`, [since])).map(SERVER.read);
    },
  };
}
