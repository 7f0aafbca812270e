// subsidy_roadmap_3yr: application windows over the coming years, bucketed
// by Japanese fiscal quarter, for the programmes the matching engine finds
// for an industry, region, size and purpose.
import { z } from 'zod';
import { industriesIn } from '@jp-support/vocab';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { admitsSize, SIZE4, sizeArg } from '../lib/company-size.ts';
import { addDays, fiscalQuarter, todayJst } from '../lib/dates.ts';
import { deadlineOf } from '../lib/deadlines.ts';
import { f, o } from '../lib/fields.ts';
import { matchCoverage, matchProfile, setAsideSentence, withWhy } from '../lib/match.ts';
import { insufficientData } from '../lib/no-data.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { windowCoverage, windowSentence } from '../lib/window-coverage.ts';

/** Matched programmes without a known window listed beside the roadmap. */
const UNDATED_SHOWN = 5;

/** The purposes of the reference surface, as the programme vocabulary's terms (@jp-support/vocab). */
const PURPOSE_TERMS: Record<string, string> = {
  equipment: '設備投資',
  rd: '研究開発',
  export: '海外展開',
  staffing: '雇用・人材確保',
  digital: 'IT・DX',
  green: '省エネ・脱炭素',
};

export const subsidyRoadmap3yr = defineTool({
  name: 'subsidy_roadmap_3yr',
  title: 'Multi-year application roadmap',
  description:
    'Application windows over the coming years of the programmes the matching engine finds for an industry, region, size and purpose, by Japanese fiscal quarter; programmes without a known window are listed apart. Use for multi-year planning.',
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
  },
  annotations: READ_ONLY,
  rows: ['quarters', 'undated'],
  empty: { quarters: [], undated: [] },
  async run(call, a) {
    const from = a.from_date ?? todayJst();
    const until = addDays(from, Math.round(a.horizon_months * 30.44));
    const prefecture = prefectureArg(call, a.prefecture);
    const size = sizeArg(a.company_size);
    const purpose = a.funding_purpose ? PURPOSE_TERMS[a.funding_purpose] : undefined;
    // The industry words as the engine takes them: the JSIC major they name (if any) and the words themselves.
    const matched = await matchProfile(call.api, {
      prefecture,
      industry: industriesIn(a.industry)[0]?.code,
      need: a.industry,
      purposes: purpose ? [purpose] : undefined,
      limit: 100,
      pages: 2,
    });
    const fitting = matched.rows.filter((r) => !size || admitsSize(r, size));
    const dated: Row[] = [];
    const undated: Row[] = [];
    for (const r of fitting) {
      const end = deadlineOf(r);
      const row = withWhy(r);
      if (end && end >= from && end <= until) dated.push({ ...row, deadline: end, fiscal_quarter: fiscalQuarter(end) });
      else if (!end) undated.push(row);
    }
    dated.sort((x, y) => String(x.deadline).localeCompare(String(y.deadline)));
    const windows = await windowCoverage(call.api);
    const coverage = { ...windows, ...matchCoverage(matched), with_window_in_horizon: dated.length, without_window: undated.length };
    // A roadmap needs dates: matched programmes without any known window in the horizon cannot make one.
    if (dated.length === 0) {
      return insufficientData(
        `None of the ${fitting.length} programme(s) matched for "${a.industry}" has a known window closing ${from}..${until}, so no roadmap can be drawn. ${windowSentence(windows)}`,
        coverage,
        {},
      );
    }
    const byQuarter = new Map<string, Row[]>();
    for (const r of dated.slice(0, a.limit)) byQuarter.set(String(r.fiscal_quarter), [...(byQuarter.get(String(r.fiscal_quarter)) ?? []), r]);
    // The undated are no part of a roadmap: the first few, the rest counted in coverage.without_window.
    const apart = undated.slice(0, Math.min(a.limit, UNDATED_SHOWN));
    return {
      quarters: [...byQuarter].map(([fiscal_quarter, programs]) => ({ fiscal_quarter, programs })),
      undated: apart,
      result_count: Math.min(dated.length, a.limit) + apart.length,
      coverage,
      explanation: `${dated.length} matched programme(s) with a window closing ${from}..${until}; ${undated.length} without a recorded window (the first ${apart.length} listed apart). ${windowSentence(windows)}${setAsideSentence(matched.set_aside)}`,
    };
  },
});
