// The catalogue's codes shown in the reader's language: programme kinds,
// who can apply, what for. A code not in these tables, and every value the
// sources wrote in Japanese, is shown as published (never translated or
// guessed). Used by the explore page's detail and result rows.
import type { Lang } from './labels.ts';

type Table = Readonly<Record<string, readonly [ja: string, en: string]>>;

/** `program_kind` codes. */
export const PROGRAM_KINDS: Table = {
  subsidy: ['補助金', 'Subsidy'],
  grant: ['助成金', 'Grant'],
  loan: ['融資', 'Loan'],
  support: ['支援事業', 'Support programme'],
  research_grant: ['研究助成', 'Research grant'],
  private_grant: ['民間助成', 'Private grant'],
  incentive: ['奨励金', 'Incentive'],
  regulation: ['規制・制度', 'Regulation'],
  certification: ['認定', 'Certification'],
  tax_deduction: ['所得控除', 'Tax deduction'],
  tax_credit: ['税額控除', 'Tax credit'],
  tax: ['税制', 'Tax measure'],
  tax_incentive: ['税制優遇', 'Tax incentive'],
  training: ['研修', 'Training'],
  consulting: ['相談・専門家派遣', 'Consulting'],
  consulting_support: ['相談・専門家派遣', 'Consulting'],
  consultation: ['相談', 'Consultation'],
  insurance: ['保険・共済', 'Insurance'],
  fellowship: ['フェローシップ', 'Fellowship'],
  guideline: ['指針', 'Guideline'],
  equipment: ['設備導入', 'Equipment'],
  qualification: ['資格', 'Qualification'],
  examination: ['試験', 'Examination'],
  equity: ['出資', 'Equity investment'],
  fee_reduction: ['手数料減免', 'Fee reduction'],
  subsidy_fund: ['基金', 'Fund'],
  directory: ['一覧ページ', 'Directory page'],
  portal_information: ['案内ページ', 'Information page'],
};

/** `target_types` codes (who can apply). */
export const AUDIENCES: Table = {
  any: ['どなたでも', 'Anyone'],
  sole_proprietor: ['個人事業主', 'Sole proprietors'],
  individual: ['個人', 'Individuals'],
  corporation: ['法人', 'Corporations'],
  small_business: ['小規模事業者', 'Small businesses'],
  sme: ['中小企業', 'SMEs'],
  startup: ['スタートアップ', 'Start-ups'],
  nonprofit: ['非営利団体', 'Non-profits'],
  group: ['団体', 'Groups'],
  municipality: ['自治体', 'Local governments'],
  farmer: ['農業者', 'Farmers'],
  individual_farmer: ['個人農業者', 'Individual farmers'],
  certified_farmer: ['認定農業者', 'Certified farmers'],
  new_farmer: ['新規就農者', 'New farmers'],
  certified_new_farmer: ['認定新規就農者', 'Certified new farmers'],
  aspiring_farmer: ['就農希望者', 'Aspiring farmers'],
  agri_corporation: ['農業法人', 'Agricultural corporations'],
  succession: ['事業承継する方', 'Business successors'],
  employees_any: ['従業員数の制限なし', 'Any number of employees'],
};

/** `funding_purpose` codes (what the money is for). */
export const PURPOSES: Table = {
  equipment: ['設備投資', 'Equipment'],
  facility: ['施設整備', 'Facilities'],
  operating: ['運転資金', 'Working capital'],
  labor: ['人件費', 'Labour costs'],
  training: ['研修', 'Training'],
  marketing: ['販売促進', 'Marketing'],
  sales_channel_development: ['販路開拓', 'New sales channels'],
  livestock_intro: ['家畜導入', 'Livestock'],
  seedling: ['種苗', 'Seedlings'],
  other: ['その他', 'Other'],
};

/** A code in the reader's language, or the value as published when the table does not know it. */
export function valueLabel(table: Table, value: string, lang: Lang): string {
  const known = Object.hasOwn(table, value) ? table[value] : undefined;
  if (known) return known[lang === 'en' ? 1 : 0];
  // `employees_le_50`: a jGrants employee band.
  const band = /^employees_le_(\d+)$/.exec(value);
  if (band) return lang === 'en' ? `Up to ${band[1]} employees` : `従業員 ${band[1]} 人以下`;
  return value;
}
