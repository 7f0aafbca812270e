// Company sizes: one vocabulary for every tool and endpoint that takes a
// size. The reference tools spell sizes three ways (sole/small/medium/large,
// sole/small/sme/mid/large, sme/midsize/large/individual); each spelling, and
// the Japanese terms, maps onto one of the five sizes below.
export const COMPANY_SIZES = ['sole', 'small', 'sme', 'midsize', 'large'] as const;
export type CompanySize = (typeof COMPANY_SIZES)[number];

/** What each size means. */
export const COMPANY_SIZE_LABELS: Readonly<Record<CompanySize, string>> = {
  sole: '個人事業主: sole proprietor',
  small: '小規模事業者: small business (up to 20 employees; 5 in commerce and services)',
  sme: '中小企業: SME within the SME Basic Act limits',
  midsize: '中堅企業: mid-size company above the SME limits (up to 2,000 employees)',
  large: '大企業: large company',
};

// `medium` (the four-size spelling, between small and large) is an SME;
// `mid` (the spelling that also has `sme`) is the size above it.
const ALIASES: ReadonlyMap<string, CompanySize> = new Map([
  ['sole', 'sole'],
  ['sole_proprietor', 'sole'],
  ['individual', 'sole'],
  ['個人事業主', 'sole'],
  ['個人事業者', 'sole'],
  ['個人', 'sole'],
  ['small', 'small'],
  ['small_business', 'small'],
  ['小規模事業者', 'small'],
  ['小規模', 'small'],
  ['sme', 'sme'],
  ['medium', 'sme'],
  ['中小企業', 'sme'],
  ['中小', 'sme'],
  ['mid', 'midsize'],
  ['midsize', 'midsize'],
  ['mid_size', 'midsize'],
  ['中堅企業', 'midsize'],
  ['中堅', 'midsize'],
  ['large', 'large'],
  ['大企業', 'large'],
]);

/** The size for any accepted spelling ('medium' -> 'sme', 'mid' -> 'midsize', '個人事業主' -> 'sole'), or null. */
export function normalizeCompanySize(value: string): CompanySize | null {
  return ALIASES.get(value.normalize('NFKC').trim().toLowerCase()) ?? null;
}

/** A rough size from a headcount (the manufacturing limits: 20 small, 300 SME, 2,000 mid-size). */
export function companySizeFromEmployees(employees: number): CompanySize {
  if (employees <= 20) return 'small';
  if (employees <= 300) return 'sme';
  if (employees <= 2000) return 'midsize';
  return 'large';
}

// Program `target_types` audiences (the programme vocabulary's terms,
// programme-vocabulary.json) that admit an applicant of each size. 法人
// (corporations of any size) admits every company size; a sole proprietor is
// admitted only by 個人事業主.
const COMPANIES = ['法人'];
const STARTUPS = ['スタートアップ', '創業予定者'];
export const COMPANY_SIZE_TARGET_TYPES: Readonly<Record<CompanySize, readonly string[]>> = {
  sole: ['個人事業主'],
  small: [...COMPANIES, ...STARTUPS, '中小企業', '小規模事業者'],
  sme: [...COMPANIES, ...STARTUPS, '中小企業'],
  midsize: [...COMPANIES, '中堅企業'],
  large: [...COMPANIES],
};
