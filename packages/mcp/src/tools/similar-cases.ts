// similar_cases: case studies similar to a seed case or a description.
import { z } from 'zod';
import { industryArg, industryInput } from '../lib/industry.ts';
import { defineTool, READ_ONLY, ToolInputError, type Row } from '../lib/define.ts';
import { f, o } from '../lib/fields.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { compact, rowsOf } from '../lib/search.ts';
import { explainEmpty } from '../lib/coverage.ts';

export const similarCases = defineTool({
  name: 'similar_cases',
  title: 'Similar case studies',
  description: 'Case studies like a seed case or a description (same industry, region or themes). Use for comparable examples.',
  input: {
    case_id: z.string().max(200).optional().describe('Seed case id'),
    description: z.string().max(500).optional().describe('What the business did, in plain words'),
    industry_jsic: industryInput(),
    prefecture: f.prefecture(),
    limit: f.limit(20, 10, 'cases'),
  },
  output: { seed: o.record(), results: o.rows() },
  annotations: READ_ONLY,
  rows: ['seed', 'results'],
  empty: { seed: null, results: [] },
  async run(call, a) {
    if (!a.case_id && !a.description && !a.industry_jsic) throw new ToolInputError('empty_input', 'Pass case_id, description or industry_jsic');
    const seed: Row | null = a.case_id ? await call.api.caseStudies.get(a.case_id) : null;
    const jsic = industryArg(call, a.industry_jsic) ?? (typeof seed?.jsic_code === 'string' ? seed.jsic_code : undefined);
    const prefecture = prefectureArg(call, a.prefecture) ?? (typeof seed?.prefecture === 'string' ? seed.prefecture : undefined);
    let words = a.description;
    const search = (withPrefecture: boolean) =>
      call.api.caseStudies.search(compact({ q: words, jsic_code: jsic, prefecture: withPrefecture ? prefecture : undefined, limit: a.limit + 1 })).then(rowsOf);
    let found = await search(true);
    let widened = false;
    if (found.length <= 1 && prefecture) {
      found = await search(false);
      widened = true;
    }
    // The search matches words in titles and tags: a sentence of plain words often matches none. Then the cases of
    // the same industry (and place) are listed, saying the words matched nothing.
    const wordsUnmatched = found.length === 0 && !!a.description && !!(jsic || prefecture);
    if (wordsUnmatched) {
      words = undefined;
      widened = false;
      found = await search(true);
      if (found.length <= 1 && prefecture) {
        found = await search(false);
        widened = true;
      }
    }
    // Why each case is listed: what it shares with the seed or the description.
    const why = (r: Row): string =>
      [
        jsic && String(r.jsic_code ?? '').startsWith(jsic) ? `same industry (JSIC ${jsic})` : '',
        prefecture && !widened && r.prefecture === prefecture ? `in ${prefecture}` : '',
        words ? `matches "${words}"` : '',
      ]
        .filter(Boolean)
        .join('; ');
    const results = found
      .filter((r) => !seed || r.case_id !== seed.case_id)
      .slice(0, a.limit)
      .map((r) => ({ ...r, why: why(r) }));
    const out = { seed, results, total: results.length };
    if (results.length === 0) return await explainEmpty(call.api, 'case_studies', 'case studies', out);
    return {
      ...out,
      ...(wordsUnmatched ? { coverage: { description_matched: 0 } } : {}),
      explanation: `Case studies sharing ${[jsic ? 'the industry' : '', prefecture && !widened ? 'the prefecture' : '', words ? 'the words' : ''].filter(Boolean).join(', ')}${widened ? ` (too few in ${prefecture}: all prefectures)` : ''}.${wordsUnmatched ? ' No case matched the description as worded (the search matches words in titles and tags: try a few keywords).' : ''}`,
    };
  },
});
