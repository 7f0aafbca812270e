// subsidy_roadmap_3yr: application windows over the coming years, bucketed
// by Japanese fiscal quarter, for an industry, region, size and purpose.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { candidatePrograms } from '../lib/candidates.ts';
import { admitsSize, SIZE4, sizeArg } from '../lib/company-size.ts';
import { addDays, fiscalQuarter, todayJst } from '../lib/dates.ts';
import { deadlineOf } from '../lib/deadlines.ts';
import { f, o } from '../lib/fields.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { windowCoverage, windowSentence } from '../lib/window-coverage.ts';

/** The catalogue's funding_purpose values (Japanese and English spellings) behind each purpose of the reference surface. */
const PURPOSE_VALUES: Record<string, readonly string[]> = {
  equipment: ['設備投資', 'equipment', '施設建設', 'facility'],
  rd: ['研究開発', '医療研究', 'rd', 'research'],
  export: ['販路開拓', 'sales_channel_development', 'marketing', '海外展開', 'export'],
  staffing: ['人件費', 'labor', 'training', '研修費', '人材育成'],
  digital: ['IT/DX', 'DX', 'デジタル化', '業務効率化', 'digital'],
  green: ['環境対応', 'green', '省エネ'],
};

/** A program that states no funding purposes may serve any; one that states some must state the asked one. */
function servesPurpose(program: Row, purpose: string | undefined): boolean {
  const values = purpose ? PURPOSE_VALUES[purpose] : undefined;
  const stated = Array.isArray(program.funding_purpose) ? (program.funding_purpose as unknown[]) : [];
  return !values || stated.length === 0 || stated.some((v) => typeof v === 'string' && values.includes(v));
}

export const subsidyRoadmap3yr = defineTool({
  name: 'subsidy_roadmap_3yr',
  title: 'Multi-year application roadmap',
  description:
    'Application windows over the coming years for an industry, region, size and purpose, by Japanese fiscal quarter; programmes without a known window are listed apart. Use for multi-year planning.',
  input: {
    industry: z.string().min(1).max(100).describe('Industry or theme keywords, e.g. 製造業, 農業'),
    prefecture: f.prefecture(),
    company_size: SIZE4.optional().describe('Company size (medium = SME)'),
    funding_purpose: z.enum(['equipment', 'rd', 'export', 'staffing', 'digital', 'green', 'general']).optional().describe('Funding purpose (general: any)'),
    from_date: f.date('Start of the roadmap (default today)'),
    horizon_months: z.number().int().min(1).max(60).default(36).describe('Months covered, 1 to 60'),
    limit: f.limit(100, 20, 'programs'),
  },
  output: {
    quarters: z.array(z.object({ fiscal_quarter: z.string(), programs: o.rows() })).describe('Windows per fiscal quarter'),
    undated: o.rows(),
    results: o.rows(),
  },
  annotations: READ_ONLY,
  empty: { quarters: [], undated: [], results: [] },
  async run(call, a) {
    const from = a.from_date ?? todayJst();
    const until = addDays(from, Math.round(a.horizon_months * 30.44));
    const prefecture = prefectureArg(call, a.prefecture);
    const size = sizeArg(a.company_size);
    let found = await candidatePrograms(call.api, prefecture, { q: a.industry });
    if (found.length === 0) found = await candidatePrograms(call.api, prefecture);
    const fitting = found.filter((r) => (!size || admitsSize(r, size)) && servesPurpose(r, a.funding_purpose));
    const dated: Row[] = [];
    const undated: Row[] = [];
    for (const r of fitting) {
      const end = deadlineOf(r);
      if (end && end >= from && end <= until) dated.push({ ...r, deadline: end, fiscal_quarter: fiscalQuarter(end) });
      else if (!end) undated.push(r);
    }
    dated.sort((x, y) => String(x.deadline).localeCompare(String(y.deadline)));
    const byQuarter = new Map<string, Row[]>();
    for (const r of dated.slice(0, a.limit)) byQuarter.set(String(r.fiscal_quarter), [...(byQuarter.get(String(r.fiscal_quarter)) ?? []), r]);
    const coverage = await windowCoverage(call.api);
    return {
      quarters: [...byQuarter].map(([fiscal_quarter, programs]) => ({ fiscal_quarter, programs })),
      undated: undated.slice(0, a.limit),
      results: dated.slice(0, a.limit),
      result_count: Math.min(dated.length, a.limit) + Math.min(undated.length, a.limit),
      coverage,
      explanation: `${dated.length} program(s) with a window closing ${from}..${until}; ${undated.length} related program(s) without a recorded window. ${windowSentence(coverage)}`,
    };
  },
});
