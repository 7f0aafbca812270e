// search_programs: keyword and filter search over the program catalogue.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { f, SEARCH_EMPTY, searchOutput } from '../lib/fields.ts';
import { PAGE_KINDS, programSearchInput, programSearchQuery } from '../lib/program-search.ts';
import { asSearch } from '../lib/search.ts';
import { recordsHeld } from '../lib/coverage.ts';

export const searchPrograms = defineTool({
  name: 'search_programs',
  title: 'Search support programs',
  description:
    "Find support programmes (subsidies, grants, loans, tax measures, certifications) by keywords and filters; free text is understood (synonyms, kana, abbreviations; a prefecture in q ranks it first). Use to find programmes by topic or place. Not for a company's eligibility (prescreen_programs) or deadlines (upcoming_deadlines).",
  // The search's parameters (the API's parameter table), and the reference surface's as_of;
  // fields: REST's three shapes, and the tools' compact row (lib/rows.ts) made from REST's default.
  input: {
    ...programSearchInput(PAGE_KINDS),
    fields: z.enum(['compact', 'minimal', 'default', 'full']).default('compact').describe("Row shape: compact (default), or REST's minimal, default, full"),
    as_of: f.asOf(),
  },
  output: searchOutput(),
  annotations: READ_ONLY,
  rows: ['results'],
  empty: SEARCH_EMPTY,
  notApplied: { as_of: 'the catalogue holds the current programs only, no past snapshots' },
  async run(call, a) {
    const body = await call.api.programs.search(programSearchQuery(call, { ...a, fields: a.fields === 'compact' ? 'default' : a.fields }, PAGE_KINDS));
    const out = asSearch(body);
    if ((out.results as unknown[]).length === 0) {
      const held = await recordsHeld(call.api, 'programs');
      out.coverage = { records_held: held ?? null };
      out.explanation = `No program matched among the ${held ?? '?'} held; loosen the filters or try other keywords.`;
      out.suggested_actions = ['enum_values(field=prefecture)', 'search_programs without tier/amount filters'];
    }
    // No place given: rows local to some prefecture are for businesses there only. Said, with the filter that keeps
    // what an applicant of one place can use, so a local programme is not proposed to a business elsewhere.
    const rows = out.results as Record<string, unknown>[];
    const local = rows.filter((r) => typeof r.prefecture === 'string');
    const args = a as Record<string, unknown>;
    if (!args.prefecture && !args.applicable_in && local.length > 0 && rows.length > 0) {
      const places = [...new Set(local.map((r) => String(r.prefecture)))];
      out.explanation = `${local.length} of these ${rows.length} rows are local (${places.slice(0, 4).join(', ')}${places.length > 4 ? ', …' : ''}): open only to businesses there.`;
      out.suggested_actions = ["applicable_in=<the applicant's prefecture or city> keeps its own, its prefecture's and the nationwide programmes"];
    }
    return out;
  },
});
