// Referrals from a programme to an advisor. The referral token is stored only
// as a hash with a short visible prefix; a referral converts at most once.
import { first, now, num, numOrNull, strOrNull, type Row, type SqlDatabase } from '../sql.ts';

export interface ReferralRecord {
  id: number;
  advisorId: number;
  tokenHash: string;
  tokenPrefix: string;
  sourceProgramId: string | null;
  clickedAt: string | null;
  convertedAt: string | null;
  conversionValueYen: number | null;
  commissionYen: number | null;
  commissionPaidAt: string | null;
}

const COLUMNS =
  'id, advisor_id, token_hash, token_prefix, source_program_id, clicked_at, converted_at, conversion_value_yen, commission_yen, commission_paid_at';

function toReferral(r: Row): ReferralRecord {
  return {
    id: num(r.id),
    advisorId: num(r.advisor_id),
    tokenHash: String(r.token_hash),
    tokenPrefix: String(r.token_prefix),
    sourceProgramId: strOrNull(r.source_program_id),
    clickedAt: strOrNull(r.clicked_at),
    convertedAt: strOrNull(r.converted_at),
    conversionValueYen: numOrNull(r.conversion_value_yen),
    commissionYen: numOrNull(r.commission_yen),
    commissionPaidAt: strOrNull(r.commission_paid_at),
  };
}

export type ReferralsRepository = ReturnType<typeof referralsRepository>;

export function referralsRepository(db: SqlDatabase) {
  return {
    async create(input: Omit<ReferralRecord, 'id'>): Promise<ReferralRecord> {
      const rows = await db.all(
        `INSERT INTO referrals (advisor_id, token_hash, token_prefix, source_program_id, clicked_at, converted_at, conversion_value_yen, commission_yen, commission_paid_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
        [
          input.advisorId, input.tokenHash, input.tokenPrefix, input.sourceProgramId, input.clickedAt, input.convertedAt,
          input.conversionValueYen, input.commissionYen, input.commissionPaidAt,
        ],
      );
      return toReferral(rows[0]);
    },

    async findByTokenHash(tokenHash: string): Promise<ReferralRecord | null> {
      return first(await db.all(`SELECT ${COLUMNS} FROM referrals WHERE token_hash = ?`, [tokenHash]), toReferral);
    },

    /** Convert once (one conditional UPDATE): the converted referral, or null when absent or already converted. */
    async convert(tokenHash: string, conversionValueYen: number | null, commissionYen: number): Promise<ReferralRecord | null> {
      const rows = await db.all(
        `UPDATE referrals SET converted_at = ?, conversion_value_yen = ?, commission_yen = ?
         WHERE token_hash = ? AND converted_at IS NULL RETURNING ${COLUMNS}`,
        [now(), conversionValueYen, commissionYen, tokenHash],
      );
      return first(rows, toReferral);
    },

    async listForAdvisor(advisorId: number): Promise<ReferralRecord[]> {
      return (await db.all(`SELECT ${COLUMNS} FROM referrals WHERE advisor_id = ? ORDER BY id`, [advisorId])).map(toReferral);
    },
  };
}
