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
  output: { laws: o.rows(), certifications: o.rows(), tax_rulesets: o.rows(), enforcement_examples: o.rows(), results: o.rows() },
  annotations: READ_ONLY,
  empty: { laws: [], certifications: [], tax_rulesets: [], enforcement_examples: [], results: [] },
  notApplied: { company_size: 'laws, certifications, tax rulesets and findings carry no company-size field' },
  async run(call, a) {
    const n = a.limit_per_section;
    const prefecture = prefectureArg(call, a.prefecture);
    const [laws, certs, tax, enforcement] = await Promise.all([
      call.api.laws.search({ q: a.industry, status: a.include_expired ? undefined : 'active', limit: n }).then(rowsOf),
      call.api.certifications.search({ q: a.industry, limit: n }).then(rowsOf),
      call.api.taxRulesets.search({ effective_on: a.include_expired ? undefined : todayJst(), limit: n }).then(rowsOf),
      call.api.enforcement.search({ q: a.industry, prefecture, limit: n }).then(rowsOf),
    ]);
    const results = [
      ...laws.map((r) => ({ section: 'laws', ...r })),
      ...certs.map((r) => ({ section: 'certifications', ...r })),
      ...tax.map((r) => ({ section: 'tax_rulesets', ...r })),
      ...enforcement.map((r) => ({ section: 'enforcement_examples', ...r })),
    ];
    return { laws, certifications: certs, tax_rulesets: tax, enforcement_examples: enforcement, results };
  },
});
