// list_law_revisions: the revisions of a statute the e-Gov sync has seen
// (GET /v1/laws/{id}/revisions): promulgation and enforcement dates, status
// (in force, previous, announced), and whether the text of each is held, so
// that get_law_article_am's `effective_on` can read an article as it stood.
// The catalogue records no supersession links between laws, so max_hops has
// nothing to follow.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { o } from '../lib/fields.ts';
import { LAW_ID } from '../lib/ids.ts';

export const listLawRevisions = defineTool({
  name: 'list_law_revisions',
  title: 'Revisions of a law',
  description:
    'Revisions of a statute known from e-Gov, newest first: promulgation, entry into force, status, whether the text is held (read it with get_law_article_am effective_on).',
  input: {
    unified_id: LAW_ID.describe('Law id, LAW- followed by 10 hex digits'),
    max_hops: z.number().int().min(1).max(20).default(10).describe('Most links to other laws to follow in each direction (1 to 20)'),
  },
  output: { law: o.record(), results: o.rows() },
  annotations: READ_ONLY,
  empty: { law: null, results: [] },
  notApplied: { max_hops: 'the catalogue records no supersession links between laws' },
  async run(call, a) {
    const law: Row = await call.api.laws.get(a.unified_id);
    const { results } = await call.api.laws.revisions(a.unified_id);
    const inForce = results.find((r) => r.status === 'CurrentEnforced');
    return {
      law,
      results,
      result_count: results.length,
      explanation:
        results.length === 0
          ? `No revision of this law is known (it is not among the laws the e-Gov sync follows); status: ${String(law.status ?? 'unknown')}, last amended ${String(law.last_amended_on ?? 'unknown')}.`
          : `${results.length} revision(s) known; in force: ${inForce ? `${inForce.law_revision_id} since ${inForce.enforced_on ?? 'unknown'}` : 'unknown'}. ${results.filter((r) => r.article_count > 0).length} with article text.`,
    };
  },
});
