// search_programs: keyword and filter search over the program catalogue.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { AUTHORITY_LEVEL, PROGRAM_SHAPE, TIER } from '../lib/enums.ts';
import { f, SEARCH_EMPTY, searchOutput } from '../lib/fields.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { asSearch, compact } from '../lib/search.ts';

export const searchPrograms = defineTool({
  name: 'search_programs',
  title: 'Search support programs',
  description:
    'Search the catalogue of Japanese public support programs (subsidies, grants, loans, tax measures, certifications) by keywords and filters. Free text is understood (width/kana folding, Japanese word segmentation, synonyms and abbreviations; a prefecture named in q ranks that prefecture first). Ordered by relevance with q (explain=true shows the score parts), else by tier (S best) then name; sort by amount, deadline or name; one row per programme (duplicates listed in also_listed_as); facet counts on request; offset or cursor paging.',
  input: {
    q: f.q('program names and aliases (3+ characters use the full-text index)'),
    tier: z.array(TIER).max(5).optional().describe('Quality tiers to include (OR-ed); X = quarantined, only with include_excluded'),
    prefecture: f.prefecture(),
    authority_level: AUTHORITY_LEVEL.optional().describe('Level of the issuing authority'),
    funding_purpose: z
      .array(z.string().max(100))
      .max(20)
      .optional()
      .describe('Funding purposes (OR-ed), values as listed by enum_values(field=funding_purpose)'),
    target_type: z
      .array(z.string().max(100))
      .max(20)
      .optional()
      .describe('Eligible applicant types (OR-ed), values as listed by enum_values(field=target_type)'),
    amount_min_man_yen: z.number().min(0).optional().describe('Lowest acceptable maximum grant amount, in 10,000 yen'),
    amount_max_man_yen: z.number().min(0).optional().describe('Highest acceptable maximum grant amount, in 10,000 yen'),
    include_excluded: z.boolean().default(false).describe('Also return tier X (quarantined) programs'),
    limit: f.limit(100, 20, 'programs'),
    offset: f.offset(),
    fields: PROGRAM_SHAPE.default('minimal').describe(
      'Row shape: minimal (7 keys), default (all program fields, plus also_listed_as) or full (plus enrichment and lineage)',
    ),
    sort: z
      .enum(['relevance', 'amount', 'deadline', 'name'])
      .optional()
      .describe('Order: relevance (default), amount (largest first), deadline (open windows closing soonest first), name'),
    facets: z
      .array(z.enum(['tier', 'prefecture', 'authority_level', 'funding_purpose', 'target_type', 'program_kind']))
      .max(6)
      .optional()
      .describe('Also count the whole result set by these fields (facets in the answer)'),
    cursor: z
      .string()
      .max(500)
      .optional()
      .describe('next_cursor of the previous answer of the same search: the next page (use instead of offset for deep pages)'),
    explain: z.boolean().optional().describe("Add each row's relevance score parts (score)"),
    as_of: f.asOf(),
  },
  output: searchOutput(),
  annotations: READ_ONLY,
  empty: SEARCH_EMPTY,
  notApplied: { as_of: 'the catalogue holds the current programs only, no past snapshots' },
  async run(call, a) {
    const body = await call.api.programs.search(
      compact({
        q: a.q,
        tier: a.tier,
        prefecture: prefectureArg(call, a.prefecture),
        authority_level: a.authority_level,
        funding_purpose: a.funding_purpose,
        target_type: a.target_type,
        amount_min: a.amount_min_man_yen,
        amount_max: a.amount_max_man_yen,
        include_excluded: a.include_excluded,
        limit: a.limit,
        offset: a.offset,
        fields: a.fields,
        sort: a.sort,
        facets: a.facets,
        cursor: a.cursor,
        explain: a.explain,
      }),
    );
    const out = asSearch(body);
    if ((out.results as unknown[]).length === 0) {
      out.explanation = 'No program matched; loosen the filters or try other keywords.';
      out.suggested_actions = ['enum_values(field=prefecture)', 'search_programs without tier/amount filters'];
    }
    return out;
  },
});
