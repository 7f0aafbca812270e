// regulatory_prep_pack: laws, certifications, tax rulesets and enforcement
// examples for an industry and region.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { SIZE4 } from '../lib/company-size.ts';
import { todayJst } from '../lib/dates.ts';
import { f, o } from '../lib/fields.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { rowsOf } from '../lib/search.ts';

export const regulatoryPrepPack = defineTool({
  name: 'regulatory_prep_pack',
  title: 'Regulatory prep pack',
  description: 'For an industry and region: laws, certifications, tax rulesets and enforcement examples. Use to prepare a regulatory briefing.',
  input: {
    industry: z.string().min(1).max(100).describe('Industry keywords, e.g. 建設, 農業, 運送'),
    prefecture: f.prefecture(),
    company_size: SIZE4.optional().describe('Company size'),
    include_expired: z.boolean().default(false).describe('Include repealed and expired'),
    limit_per_section: f.limit(20, 5, 'records per section'),
  },
  output: { laws: o.rows(), certifications: o.rows(), tax_rulesets: o.rows(), enforcement_examples: o.rows() },
  annotations: READ_ONLY,
  rows: ['laws', 'certifications', 'tax_rulesets', 'enforcement_examples'],
  empty: { laws: [], certifications: [], tax_rulesets: [], enforcement_examples: [] },
  notApplied: { company_size: 'laws, certifications, tax rulesets and findings carry no company-size field' },
  async run(call, a) {
    const n = a.limit_per_section;
    const prefecture = prefectureArg(call, a.prefecture);
    // Every section is searched by the industry words: a section with no match stays empty and says so,
    // rather than listing records unrelated to the industry (decision 0392).
    const [laws, certs, tax, enforcement] = await Promise.all([
      call.api.laws.search({ q: a.industry, in_force: a.include_expired ? undefined : 'true', limit: n }).then(rowsOf),
      call.api.certifications.search({ q: a.industry, limit: n }).then(rowsOf),
      call.api.taxRulesets.search({ q: a.industry, effective_on: a.include_expired ? undefined : todayJst(), limit: n }).then(rowsOf),
      call.api.enforcement.search({ q: a.industry, prefecture, limit: n }).then(rowsOf),
    ]);
    const why = `matches "${a.industry}"`;
    const sections = Object.fromEntries(
      Object.entries({ laws, certifications: certs, tax_rulesets: tax, enforcement_examples: enforcement }).map(([section, rows]) => [
        section,
        rows.map((r) => ({ ...r, why })),
      ]),
    );
    const empty = Object.entries(sections)
      .filter(([, rows]) => rows.length === 0)
      .map(([section]) => section);
    return {
      ...sections,
      result_count: Object.values(sections).reduce((n, rows) => n + rows.length, 0),
      coverage: { matched_by: a.industry, sections_without_a_match: empty },
      explanation:
        empty.length > 0
          ? `Every item matches "${a.industry}"; nothing held matches it in: ${empty.join(', ')}.`
          : `Every item matches "${a.industry}"; check each on its source.`,
    };
  },
});
