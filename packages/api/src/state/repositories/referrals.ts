// Referrals from a programme to an advisor. The referral token is stored only
// as a hash with a short visible prefix; a referral converts at most once.
import { columns, first, now, num, numOrNull, strOrNull, type SqlDatabase } from '../sql.ts';

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

const REFERRAL = columns<ReferralRecord>({
  id: ['id', num],
  advisorId: ['advisor_id', num],
  tokenHash: ['token_hash', String],
  tokenPrefix: ['token_prefix', String],
  sourceProgramId: ['source_program_id', strOrNull],
  clickedAt: ['clicked_at', strOrNull],
  convertedAt: ['converted_at', strOrNull],
  conversionValueYen: ['conversion_value_yen', numOrNull],
  commissionYen: ['commission_yen', numOrNull],
  commissionPaidAt: ['commission_paid_at', strOrNull],
});

export type ReferralsRepository = ReturnType<typeof referralsRepository>;

export function referralsRepository(db: SqlDatabase) {
  return {
    async create(input: Omit<ReferralRecord, 'id'>): Promise<ReferralRecord> {
      const rows = await db.all(
        `INSERT INTO referrals (advisor_id, token_hash, token_prefix, source_program_id, clicked_at, converted_at, conversion_value_yen, commission_yen, commission_paid_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${REFERRAL.list}`,
        [
          input.advisorId,
          input.tokenHash,
          input.tokenPrefix,
          input.sourceProgramId,
          input.clickedAt,
          input.convertedAt,
          input.conversionValueYen,
          input.commissionYen,
          input.commissionPaidAt,
        ],
      );
      return REFERRAL.read(rows[0]);
    },

    async findByTokenHash(tokenHash: string): Promise<ReferralRecord | null> {
      return first(await db.all(`SELECT ${REFERRAL.list} FROM referrals WHERE token_hash = ?`, [tokenHash]), REFERRAL.read);
    },

    /** Convert once (one conditional UPDATE): the converted referral, or null when absent or already converted. */
    async convert(tokenHash: string, conversionValueYen: number | null, commissionYen: number): Promise<ReferralRecord | null> {
      const rows = await db.all(
        `UPDATE referrals SET converted_at = ?, conversion_value_yen = ?, commission_yen = ?
         WHERE token_hash = ? AND converted_at IS NULL RETURNING ${REFERRAL.list}`,
        [now(), conversionValueYen, commissionYen, tokenHash],
      );
      return first(rows, REFERRAL.read);
    },

    async listForAdvisor(advisorId: number): Promise<ReferralRecord[]> {
      return (await db.all(`SELECT ${REFERRAL.list} FROM referrals WHERE advisor_id = ? ORDER BY id`, [advisorId])).map(REFERRAL.read);
    },
  };
}
