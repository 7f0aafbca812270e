// Dataset versions and the change feed. One writer (the ingest command, or
// the first start that builds the catalogue) records a version: inside ONE
// transaction that holds the feed head's row lock, it compares the new
// records' content hashes with the latest stored state of every tracked
// record, assigns the next sequence numbers to the created, amended and
// removed records, stores the new state and the version, and runs the
// caller's fan-out (saved-search matches, webhook deliveries) on the same
// transaction. Readers therefore see all of a version's events or none, and
// the sequence has no gap. A snapshot whose fingerprint equals the latest
// version's records nothing.
import { columns, first, json, num, numOrNull, placeholders, strOrNull, type Queryer, type Row, type SqlDatabase } from '../sql.ts';

/** The record kinds the feed follows (event types are `<kind>.<change>`). */
export const RECORD_KINDS = ['program', 'enforcement', 'tax_ruleset', 'law'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];
export const CHANGE_TYPES = ['created', 'amended', 'removed'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export type EventType = `${RecordKind}.${ChangeType}`;

/** One record of a dataset version as the feed sees it: its served fields and their hash. */
export interface TrackedRecord {
  kind: RecordKind;
  id: string;
  /** SHA-256 of the canonical JSON of `body`. */
  hash: string;
  body: Record<string, unknown>;
  title: string | null;
  prefecture: string | null;
}

export interface VersionSnapshot {
  /** Content fingerprint of the tracked records (kind, id, hash). */
  fingerprint: string;
  /** Records per kind in this version. */
  counts: Record<string, number>;
  records: Iterable<TrackedRecord>;
}

export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
}

export interface ChangeEvent {
  seq: number;
  version: number;
  type: EventType;
  kind: RecordKind;
  recordId: string;
  title: string | null;
  prefecture: string | null;
  /** The changed fields of an amended record (null for created and removed). */
  changes: FieldChange[] | null;
  recordedAt: string;
}

export interface DatasetVersion {
  version: number;
  fingerprint: string;
  /** The first version: it sets the state the next one is compared with and records no events. */
  baseline: boolean;
  counts: Record<string, number>;
  changeCounts: Record<ChangeType, number>;
  firstSeq: number | null;
  /** The feed position after this version. */
  lastSeq: number;
  recordedAt: string;
}

export type RecordOutcome = { recorded: false; version: DatasetVersion } | { recorded: true; version: DatasetVersion; events: ChangeEvent[] };

/** Called inside the recording transaction with the new version's events. */
export type FanOut = (q: Queryer, events: readonly ChangeEvent[], version: DatasetVersion) => Promise<void>;

const VERSION = columns<DatasetVersion>({
  version: ['version', num],
  fingerprint: ['fingerprint', String],
  baseline: ['baseline', (v) => num(v) === 1],
  counts: ['counts', json],
  changeCounts: ['change_counts', json],
  firstSeq: ['first_seq', numOrNull],
  lastSeq: ['last_seq', num],
  recordedAt: ['recorded_at', String],
});

const EVENT = columns<ChangeEvent>({
  seq: ['seq', num],
  version: ['version', num],
  type: ['type', (v) => v as EventType],
  kind: ['kind', (v) => v as RecordKind],
  recordId: ['record_id', String],
  title: ['title', strOrNull],
  prefecture: ['prefecture', strOrNull],
  changes: ['changes', (v) => (v === null || v === undefined ? null : json<FieldChange[]>(v))],
  recordedAt: ['recorded_at', String],
});

/** Rows per multi-row INSERT (both databases accept far more bound values). */
const BATCH = 400;

/** The fields whose values differ between two bodies, in the new body's field order (then removed fields). */
export function fieldChanges(before: Record<string, unknown>, after: Record<string, unknown>): FieldChange[] {
  const out: FieldChange[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  for (const field of Object.keys(after)) if (!same(before[field], after[field])) out.push({ field, old: before[field] ?? null, new: after[field] });
  for (const field of Object.keys(before)) if (!(field in after)) out.push({ field, old: before[field], new: null });
  return out;
}

const matchKeys = (n: number) => Array.from({ length: n }, () => '(kind = ? AND record_id = ?)').join(' OR ');

/** The stored bodies of some records, by `kind\u0000id`. */
async function storedBodies(q: Queryer, keys: readonly { kind: string; id: string }[]): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const r of await q.all(
    `SELECT kind, record_id, body FROM record_states WHERE ${matchKeys(keys.length)}`,
    keys.flatMap((k) => [k.kind, k.id]),
  )) {
    out.set(`${r.kind}\u0000${r.record_id}`, json(r.body));
  }
  return out;
}

async function insertMany(q: Queryer, head: string, width: number, rows: unknown[][], tail = ''): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    const part = rows.slice(i, i + BATCH);
    await q.run(`${head} VALUES ${part.map(() => `(${placeholders(width)})`).join(', ')}${tail}`, part.flat());
  }
}

export interface EventQuery {
  /** Events after this sequence number. */
  afterSeq: number;
  /** Events up to this sequence number (the head read first, so a page never runs past a version being written). */
  upToSeq: number;
  kinds?: readonly RecordKind[];
  types?: readonly EventType[];
  prefecture?: string;
  limit: number;
}

export type ChangesRepository = ReturnType<typeof changesRepository>;

export function changesRepository(db: SqlDatabase) {
  return {
    /** The feed position: the last version and sequence number recorded. */
    async head(): Promise<{ lastVersion: number; lastSeq: number }> {
      const [row] = await db.all('SELECT last_version, last_seq FROM feed_head WHERE id = 1');
      return { lastVersion: num(row.last_version), lastSeq: num(row.last_seq) };
    },

    async latestVersion(): Promise<DatasetVersion | null> {
      return first(await db.all(`SELECT ${VERSION.list} FROM dataset_versions ORDER BY version DESC LIMIT 1`), VERSION.read);
    },

    async versions(limit = 100): Promise<DatasetVersion[]> {
      return (await db.all(`SELECT ${VERSION.list} FROM dataset_versions ORDER BY version DESC LIMIT ?`, [limit])).map(VERSION.read);
    },

    /** Record a dataset version against the latest state (see the module comment). */
    async recordVersion(snapshot: VersionSnapshot, fanOut?: FanOut, recordedAt = new Date().toISOString()): Promise<RecordOutcome> {
      return db.tx(async (q) => {
        // The head's row lock makes this the only writer until commit (on SQLite, BEGIN IMMEDIATE already is).
        const [head] = await q.all(`SELECT last_version, last_seq FROM feed_head WHERE id = 1${db.forUpdate}`);
        const lastVersion = num(head.last_version);
        let seq = num(head.last_seq);
        const latest = first(await q.all(`SELECT ${VERSION.list} FROM dataset_versions WHERE version = ?`, [lastVersion]), VERSION.read);
        if (latest && latest.fingerprint === snapshot.fingerprint) return { recorded: false, version: latest };

        const baseline = latest === null;
        const version = lastVersion + 1;
        const stored = new Map<string, { hash: string; removed: boolean }>();
        for (const r of await q.all('SELECT kind, record_id, hash, removed FROM record_states')) {
          stored.set(`${r.kind}\u0000${r.record_id}`, { hash: String(r.hash), removed: num(r.removed) === 1 });
        }

        type Pending = Omit<ChangeEvent, 'seq' | 'changes'> & { changes: FieldChange[] | null; body?: Record<string, unknown> };
        const pending: Pending[] = [];
        const upserts: unknown[][] = [];
        const amended: TrackedRecord[] = [];
        const seen = new Set<string>();
        const base = { version, recordedAt };
        for (const record of snapshot.records) {
          const key = `${record.kind}\u0000${record.id}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const before = stored.get(key);
          if (before && !before.removed && before.hash === record.hash) continue;
          upserts.push([record.kind, record.id, record.hash, JSON.stringify(record.body), version, version, 0]);
          if (baseline) continue;
          const event = { ...base, kind: record.kind, recordId: record.id, title: record.title, prefecture: record.prefecture, changes: null };
          if (before && !before.removed) amended.push(record);
          else pending.push({ ...event, type: `${record.kind}.created` });
        }
        // Amended: read the stored bodies of just those records and name the changed fields.
        for (let i = 0; i < amended.length; i += BATCH) {
          const part = amended.slice(i, i + BATCH);
          const old = await storedBodies(q, part);
          for (const record of part) {
            pending.push({
              ...base,
              type: `${record.kind}.amended`,
              kind: record.kind,
              recordId: record.id,
              title: record.title,
              prefecture: record.prefecture,
              changes: fieldChanges(old.get(`${record.kind}\u0000${record.id}`) ?? {}, record.body),
            });
          }
        }
        const removed: Row[] = [];
        if (!baseline) {
          for (const [key, state] of stored) {
            if (state.removed || seen.has(key)) continue;
            const [kind, recordId] = key.split('\u0000') as [RecordKind, string];
            removed.push({ kind, recordId });
          }
          for (let i = 0; i < removed.length; i += BATCH) {
            const part = removed.slice(i, i + BATCH);
            const info = await storedBodies(
              q,
              part.map((p) => ({ kind: String(p.kind), id: String(p.recordId) })),
            );
            for (const r of part) {
              const body = info.get(`${r.kind}\u0000${r.recordId}`) ?? {};
              pending.push({
                ...base,
                type: `${r.kind as RecordKind}.removed`,
                kind: r.kind as RecordKind,
                recordId: String(r.recordId),
                title: titleOf(body),
                prefecture: typeof body.prefecture === 'string' ? body.prefecture : null,
                changes: null,
              });
            }
            await q.run(`UPDATE record_states SET removed = 1, last_version = ? WHERE ${matchKeys(part.length)}`, [
              version,
              ...part.flatMap((p) => [p.kind, p.recordId]),
            ]);
          }
        }

        // Sequence numbers in a stable order: by kind, then change, then record id.
        const kindOrder = (k: string) => RECORD_KINDS.indexOf(k as RecordKind);
        const typeOrder = (t: string) => CHANGE_TYPES.indexOf(t.split('.')[1] as ChangeType);
        pending.sort(
          (a, b) =>
            kindOrder(a.kind) - kindOrder(b.kind) || typeOrder(a.type) - typeOrder(b.type) || (a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0),
        );
        const firstSeq = pending.length ? seq + 1 : null;
        const events: ChangeEvent[] = pending.map((p) => ({
          seq: ++seq,
          version,
          type: p.type,
          kind: p.kind,
          recordId: p.recordId,
          title: p.title,
          prefecture: p.prefecture,
          changes: p.changes,
          recordedAt,
        }));

        await insertMany(
          q,
          `INSERT INTO record_states (kind, record_id, hash, body, first_version, last_version, removed)`,
          7,
          upserts,
          ' ON CONFLICT (kind, record_id) DO UPDATE SET hash = excluded.hash, body = excluded.body, last_version = excluded.last_version, removed = 0',
        );
        await insertMany(
          q,
          `INSERT INTO change_events (${EVENT.list})`,
          EVENT.fields.length,
          events.map((e) => EVENT.values({ ...e, changes: (e.changes === null ? null : JSON.stringify(e.changes)) as never })),
        );
        const changeCounts = { created: 0, amended: 0, removed: 0 } as Record<ChangeType, number>;
        for (const e of events) changeCounts[e.type.split('.')[1] as ChangeType]++;
        const row: DatasetVersion = {
          version,
          fingerprint: snapshot.fingerprint,
          baseline,
          counts: snapshot.counts,
          changeCounts,
          firstSeq,
          lastSeq: seq,
          recordedAt,
        };
        await q.run(`INSERT INTO dataset_versions (${VERSION.list}) VALUES (${placeholders(VERSION.fields.length)})`, [
          row.version,
          row.fingerprint,
          row.baseline ? 1 : 0,
          JSON.stringify(row.counts),
          JSON.stringify(row.changeCounts),
          row.firstSeq,
          row.lastSeq,
          row.recordedAt,
        ]);
        await q.run('UPDATE feed_head SET last_version = ?, last_seq = ? WHERE id = 1', [version, seq]);
        if (fanOut && events.length) await fanOut(q, events, row);
        return { recorded: true, version: row, events };
      });
    },

    /** Events after `afterSeq` (up to `upToSeq`), oldest first, filtered. */
    async events(query: EventQuery): Promise<ChangeEvent[]> {
      const where = ['seq > ?', 'seq <= ?'];
      const params: unknown[] = [query.afterSeq, query.upToSeq];
      if (query.kinds?.length) {
        where.push(`kind IN (${placeholders(query.kinds.length)})`);
        params.push(...query.kinds);
      }
      if (query.types?.length) {
        where.push(`type IN (${placeholders(query.types.length)})`);
        params.push(...query.types);
      }
      if (query.prefecture !== undefined) {
        where.push('prefecture = ?');
        params.push(query.prefecture);
      }
      const rows = await db.all(`SELECT ${EVENT.list} FROM change_events WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ?`, [...params, query.limit]);
      return rows.map(EVENT.read);
    },

    /** One record's events, oldest first, and the version it was first seen in (null when never). */
    async recordHistory(kind: RecordKind, recordId: string): Promise<{ firstVersion: number | null; removed: boolean; events: ChangeEvent[] }> {
      const state = first(await db.all('SELECT first_version, removed FROM record_states WHERE kind = ? AND record_id = ?', [kind, recordId]), (r) => r);
      const events = (await db.all(`SELECT ${EVENT.list} FROM change_events WHERE kind = ? AND record_id = ? ORDER BY seq`, [kind, recordId])).map(EVENT.read);
      return { firstVersion: state ? num(state.first_version) : null, removed: state ? num(state.removed) === 1 : false, events };
    },

    async version(version: number): Promise<DatasetVersion | null> {
      return first(await db.all(`SELECT ${VERSION.list} FROM dataset_versions WHERE version = ?`, [version]), VERSION.read);
    },
  };
}

/** The name a removed record is announced under: the first of its title fields. */
function titleOf(body: Record<string, unknown>): string | null {
  for (const field of ['primary_name', 'title', 'ruleset_name', 'name']) if (typeof body[field] === 'string') return body[field] as string;
  return null;
}
