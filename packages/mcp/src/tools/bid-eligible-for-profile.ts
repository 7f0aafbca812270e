// bid_eligible_for_profile: a rough check of a profile against a
// procurement notice's stated conditions.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Profile, type Row } from '../lib/define.ts';
import { f, o } from '../lib/fields.ts';
import { BID_ID } from '../lib/ids.ts';

export const bidEligibleForProfile = defineTool({
  name: 'bid_eligible_for_profile',
  title: 'Rough bid eligibility check',
  description:
    "Rough check of a business profile against one procurement notice's conditions (region, unified qualification, exclusions in force). Use before bidding on a notice found with search_bids.",
  input: {
    bid_unified_id: BID_ID.describe('Bid id, BID- followed by 10 hex digits'),
    business_profile: f.profile(),
  },
  output: { bid: o.record(), verdict: z.enum(['likely_eligible', 'likely_ineligible', 'unknown']).describe('Rough verdict'), checks: o.rows() },
  annotations: READ_ONLY,
  empty: { bid: null, verdict: 'unknown', checks: [] },
  async run(call, a) {
    const bid: Row = await call.api.bids.get(a.bid_unified_id);
    const p = a.business_profile as Profile;
    const checks: Row[] = [];
    const conditions = String(bid.eligibility_conditions ?? '');
    if (bid.prefecture && typeof p.prefecture === 'string')
      checks.push({ check: 'region', ok: p.prefecture === bid.prefecture, detail: `bid region ${String(bid.prefecture)}, profile ${p.prefecture}` });
    if (/全省庁統一資格|競争参加資格/.test(conditions))
      checks.push({
        check: 'unified_qualification',
        ok: typeof p.has_unified_qualification === 'boolean' ? p.has_unified_qualification : null,
        detail: 'the notice requires a competitive-participation qualification',
      });
    if (typeof p.houjin_bangou === 'string') {
      const enf = await call.api.am.enforcement({ houjin_bangou: p.houjin_bangou });
      checks.push({
        check: 'no_exclusion_in_force',
        ok: !enf.currently_excluded,
        detail: enf.currently_excluded ? 'an exclusion is in force' : 'no exclusion in force on record',
      });
    }
    const verdict = checks.some((c) => c.ok === false)
      ? 'likely_ineligible'
      : checks.length > 0 && checks.every((c) => c.ok === true)
        ? 'likely_eligible'
        : 'unknown';
    return {
      bid,
      verdict,
      checks,
      result_count: 1,
      explanation: conditions
        ? `Stated conditions: ${conditions.slice(0, 200)}`
        : 'The notice states no conditions in the catalogue; verify on its source_url.',
    };
  },
});
