// Advisors (certified professionals listed by /v1/advisors). An advisor's own
// API key is known only by its hash (`ownerKeyHash`, for the dashboard).
import { columns, first, json, now, num, strOrNull, type SqlDatabase } from '../sql.ts';

export interface AdvisorRecord {
  id: number;
  firmName: string;
  firmType: string;
  specialties: string[];
  prefecture: string;
  fields: Record<string, unknown>;
  /** Key hash of the advisor's own API key (dashboard auth); internal. */
  ownerKeyHash: string | null;
  stripeAccountId: string | null;
  disabledReason: string | null;
  verifiedAt: string | null;
  createdAt: string;
}

export interface AdvisorFilter {
  prefecture?: string;
  specialty?: string;
  firmType?: string;
  verifiedOnly: boolean;
  limit: number;
  offset: number;
}

const ADVISOR = columns<AdvisorRecord>({
  id: ['id', num],
  firmName: ['firm_name', String],
  firmType: ['firm_type', String],
  specialties: ['specialties', json<string[]>],
  prefecture: ['prefecture', String],
  fields: ['fields', json<Record<string, unknown>>],
  ownerKeyHash: ['owner_key_hash', strOrNull],
  stripeAccountId: ['stripe_account_id', strOrNull],
  disabledReason: ['disabled_reason', strOrNull],
  verifiedAt: ['verified_at', strOrNull],
  createdAt: ['created_at', String],
});

/** `LIKE` pattern matching a JSON string element `"value"` inside a JSON array text. */
function jsonElementPattern(value: string): string {
  return `%${JSON.stringify(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The WHERE clause (possibly empty) and its parameters for a filter. */
function whereOf(filter: AdvisorFilter): { clause: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.prefecture) {
    where.push('prefecture = ?');
    params.push(filter.prefecture);
  }
  if (filter.firmType) {
    where.push('firm_type = ?');
    params.push(filter.firmType);
  }
  if (filter.specialty) {
    where.push("specialties LIKE ? ESCAPE '\\'");
    params.push(jsonElementPattern(filter.specialty));
  }
  if (filter.verifiedOnly) where.push('verified_at IS NOT NULL AND disabled_reason IS NULL');
  return { clause: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

export type AdvisorsRepository = ReturnType<typeof advisorsRepository>;

export function advisorsRepository(db: SqlDatabase) {
  return {
    async create(input: Omit<AdvisorRecord, 'id' | 'createdAt'>): Promise<AdvisorRecord> {
      const rows = await db.all(
        `INSERT INTO advisors (firm_name, firm_type, specialties, prefecture, fields, owner_key_hash, stripe_account_id, disabled_reason, verified_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${ADVISOR.list}`,
        [
          input.firmName,
          input.firmType,
          JSON.stringify(input.specialties ?? []),
          input.prefecture,
          JSON.stringify(input.fields ?? {}),
          input.ownerKeyHash,
          input.stripeAccountId,
          input.disabledReason,
          input.verifiedAt,
          now(),
        ],
      );
      return ADVISOR.read(rows[0]);
    },

    async get(id: number): Promise<AdvisorRecord | null> {
      return first(await db.all(`SELECT ${ADVISOR.list} FROM advisors WHERE id = ?`, [id]), ADVISOR.read);
    },

    /** One page of advisors matching `filter` (a specialty matches whole elements only) and the total. */
    /** The advisor an API key is bound to (by the key's hash), if any. */
    async findByOwnerKeyHash(keyHash: string): Promise<AdvisorRecord | null> {
      return first(await db.all(`SELECT ${ADVISOR.list} FROM advisors WHERE owner_key_hash = ? ORDER BY id LIMIT 1`, [keyHash]), ADVISOR.read);
    },

    async list(filter: AdvisorFilter): Promise<{ total: number; rows: AdvisorRecord[] }> {
      const { clause, params } = whereOf(filter);
      const [count] = await db.all(`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM advisors ${clause}`, params);
      const rows = await db.all(`SELECT ${ADVISOR.list} FROM advisors ${clause} ORDER BY id LIMIT ? OFFSET ?`, [...params, filter.limit, filter.offset]);
      return { total: num(count.n), rows: rows.map(ADVISOR.read) };
    },

    /** Mark verified (the first time stands) and set the owner's key hash when given; false when absent. */
    async verify(id: number, ownerKeyHash: string | null): Promise<boolean> {
      const changed = await db.run('UPDATE advisors SET verified_at = COALESCE(verified_at, ?), owner_key_hash = COALESCE(?, owner_key_hash) WHERE id = ?', [
        now(),
        ownerKeyHash,
        id,
      ]);
      return changed === 1;
    },
  };
}
