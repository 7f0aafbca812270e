// search_certifications: certification and accreditation schemes, by keywords
// and certifying body. Certifications publish no applicant sizes or industries
// (1 and 3 of 166), so those reference filters are declared not applied.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { SIZE5 } from '../lib/company-size.ts';
import { AM_EMPTY, amRows, f } from '../lib/fields.ts';
import { asSearch, compact } from '../lib/search.ts';
import { explainEmpty } from '../lib/coverage.ts';

const NO_FIELD = 'certifications carry no such field';

export const searchCertifications = defineTool({
  name: 'search_certifications',
  title: 'Search certifications',
  description: 'Certification and accreditation schemes (経営革新計画, 認定農業者, …) by keywords and authority. Use for a prerequisite a programme names.',
  input: {
    query: f.q('certification names'),
    authority: z.string().max(40).optional().describe('Certifying body (substring)'),
    size: SIZE5.optional().describe('Company size'),
    industry: z.string().max(100).optional().describe('Industry name or JSIC code'),
    as_of: f.asOf(),
    limit: f.limit(100, 20, 'certifications'),
    offset: f.offset(),
  },
  output: amRows(),
  annotations: READ_ONLY,
  rows: ['results'],
  empty: AM_EMPTY,
  notApplied: {
    size: NO_FIELD,
    industry: NO_FIELD,
    as_of: 'certifications carry no validity dates',
  },
  async run(call, a) {
    const out = asSearch(await call.api.certifications.search(compact({ q: a.query, provider: a.authority, limit: a.limit, offset: a.offset })));
    return (out.results as unknown[]).length > 0 ? out : await explainEmpty(call.api, 'certifications', 'certifications', out);
  },
});
