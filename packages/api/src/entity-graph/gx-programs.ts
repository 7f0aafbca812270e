// /v1/am/gx_programs: green-transformation programs by theme (a keyword set
// per theme matched against the name and facts).
import type { CatalogDatabase } from '../catalog/db.ts';
import { applicantFilters, applicantNote } from './applicant-filters.ts';
import { amError, entitySummary, type AmError } from './envelope.ts';
import { prefectureParam, queryTerms } from './params.ts';
import { searchEntities } from './queries/entities.ts';

export const GX_THEMES: Record<string, string[]> = {
  ghg_reduction: ['省エネ', '脱炭素', '温室効果ガス', 'co2', '二酸化炭素', 'カーボンニュートラル', '排出削減', 'gx', '省エネルギー'],
  ev: ['電気自動車', '充電設備', '充電インフラ', '燃料電池', '次世代自動車', 'クリーンエネルギー自動車', '電動車', 'ev充電', 'evトラック', '水素ステーション'],
  renewable: ['再生可能エネルギー', '再エネ', '太陽光', '風力', 'バイオマス', '地熱', '小水力', '蓄電池', '蓄電システム'],
  zeb_zeh: ['zeb', 'zeh', 'ネット・ゼロ', 'ネットゼロ', '断熱', '省エネ住宅', '高断熱', '長期優良住宅', '省エネ改修'],
  carbon_credit: ['j-クレジット', 'jクレジット', 'カーボン・オフセット', 'カーボンオフセット', '排出量取引', '森林吸収', 'クレジット'],
};

export interface GxParams {
  theme?: string;
  region?: string;
  query?: string;
  industry?: string;
  size?: string;
  target?: string;
  limit: number;
}

export function gxPrograms(
  db: CatalogDatabase,
  p: GxParams,
): { total: number; results: Record<string, unknown>[]; error: AmError | null; theme: string; keywords: string[]; retrieval_note?: string } {
  const theme = p.theme ?? 'ghg_reduction';
  const keywords = GX_THEMES[theme];
  if (!keywords) {
    return {
      total: 0,
      results: [],
      error: amError('invalid_enum', 'unknown theme', `theme is one of ${Object.keys(GX_THEMES).join(', ')}`),
      theme,
      keywords: [],
    };
  }
  const pref = prefectureParam(p.region);
  const applicant = applicantFilters(db, p);
  const error = pref.error ?? applicant.error;
  if (error) return { total: 0, results: [], error, theme, keywords };
  const { total, rows } = searchEntities(db, {
    kinds: ['program', 'certification'],
    termGroups: [keywords, ...queryTerms(p.query)],
    prefecture: pref.prefecture,
    includeNationwide: true,
    excludeTierX: true,
    factsAnyOf: applicant.filters,
    order: 'tier',
    limit: p.limit,
    offset: 0,
  });
  return {
    total,
    results: rows.map((e) => ({ ...entitySummary(e), amount_max_man_yen: e.facts.amount_max_man_yen ?? null, program_kind: e.facts.program_kind ?? null })),
    error: null,
    theme,
    keywords,
    ...(applicant.filters.length > 0 ? { retrieval_note: `theme keywords matched against name and facts${applicantNote(applicant.filters)}` } : {}),
  };
}
