// /v1/advisors: the verified advisor listing, signup (pending until an
// operator verifies it: `npm run cli -- advisors verify <id>`), referral
// tracking and conversion reports, and the advisor's own dashboard (declared
// `access: 'advisor'`: the auth hook admits only the key bound to it).
// Advisors are mutable, so they live in the StateStore, not the catalogue.
// Responses are serialised by their schemas (AdvisorOut forbids additional
// properties): internal columns (payment account, disabled reason, owner key
// hash) cannot leak.
import { randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../schemas/common.ts';
import {
  AdvisorDashboardResponse,
  AdvisorListQuery,
  AdvisorListResponse,
  AdvisorSignup,
  AdvisorSignupResponse,
  ConversionRequest,
  ConversionResponse,
  TrackRequest,
  TrackResponse,
} from '../../../schemas/advisors.ts';
import type { AdvisorRecord } from '../../../state/repositories/advisors.ts';
import type { ReferralRecord } from '../../../state/repositories/referrals.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { sha256Hex } from '../../../lib/hash.ts';
import { DATA_READ, operation, operations } from '../../operation.ts';

const advisorsOperation = operations({ access: 'public', extraLimit: 'writes' }, 'advisors');

const OPTIONAL_TEXT = ['address', 'city', 'contact_email', 'contact_phone', 'contact_url', 'firm_name_kana', 'intro_blurb'] as const;

/** The public shape of an advisor (AdvisorOut); contract defaults fill unset commission fields. */
export function advisorOut(a: AdvisorRecord) {
  const f = a.fields;
  return {
    id: a.id,
    firm_name: a.firmName,
    firm_type: a.firmType,
    specialties: a.specialties,
    prefecture: a.prefecture,
    ...Object.fromEntries(OPTIONAL_TEXT.map((k) => [k, (f[k] as string | undefined) ?? null])),
    verified_at: a.verifiedAt,
    industries: (f.industries as string[] | undefined) ?? null,
    commission_model: (f.commission_model as string | undefined) ?? 'flat',
    commission_rate_pct: (f.commission_rate_pct as number | undefined) ?? 5,
    commission_yen_per_intro: f.commission_yen_per_intro === undefined ? 3000 : (f.commission_yen_per_intro as number | null),
    success_count: (f.success_count as number | undefined) ?? 0,
  };
}

/** Commission of one conversion under the advisor's model: flat yen per introduction, or a percentage of the value. */
export function commissionFor(a: ReturnType<typeof advisorOut>, conversionValueYen: number): number {
  if (a.commission_model === 'percent') return Math.floor((conversionValueYen * a.commission_rate_pct) / 100);
  return a.commission_yen_per_intro ?? 3000;
}

const referralOut = (r: ReferralRecord) => ({
  id: r.id,
  token_prefix: r.tokenPrefix,
  clicked_at: r.clickedAt,
  converted_at: r.convertedAt,
  commission_paid_at: r.commissionPaidAt,
  source_program_id: r.sourceProgramId,
  commission_yen: r.commissionYen,
  conversion_value_yen: r.conversionValueYen,
});

const advisorsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    operation(
      DATA_READ,
      'advisors',
      'listAdvisors',
      'Verified advisors, filtered by prefecture, specialty and firm type',
      { querystring: AdvisorListQuery, response: { 200: AdvisorListResponse } },
      [400, 401, 429],
    ),
    async (request) => {
      const q = request.query;
      const limit = q.limit ?? 20;
      const offset = q.offset ?? 0;
      const { total, rows } = await app.state.advisors.list({
        prefecture: q.prefecture,
        specialty: q.specialty,
        firmType: q.firm_type,
        verifiedOnly: true,
        limit,
        offset,
      });
      return { total, limit, offset, results: rows.map(advisorOut) };
    },
  );

  app.post(
    '/signup',
    advisorsOperation(
      'advisorSignup',
      'Apply to be listed; the advisor stays pending until an operator verifies it',
      { body: AdvisorSignup, response: { 201: AdvisorSignupResponse } },
      [400, 401, 429],
    ),
    async (request, reply) => {
      const b = request.body;
      const fields: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(b)) {
        if (!['firm_name', 'firm_type', 'specialties', 'prefecture'].includes(k) && v !== undefined) fields[k] = v;
      }
      const advisor = await app.state.advisors.create({
        firmName: b.firm_name.trim(),
        firmType: b.firm_type,
        specialties: b.specialties,
        prefecture: b.prefecture,
        fields,
        ownerKeyHash: null,
        stripeAccountId: null,
        disabledReason: null,
        verifiedAt: null,
      });
      reply.code(201);
      return { id: advisor.id, status: 'pending' as const, detail: 'Received; the listing appears once an operator has verified it.' };
    },
  );

  app.post(
    '/track',
    advisorsOperation(
      'trackAdvisorReferral',
      'Record a click to a verified advisor and issue its referral token (shown once)',
      { body: TrackRequest, response: { 201: TrackResponse } },
      [400, 401, 404, 429],
    ),
    async (request, reply) => {
      const advisor = await app.state.advisors.get(request.body.advisor_id);
      if (!advisor?.verifiedAt || advisor.disabledReason) throw new HttpError(404, `Advisor not found: ${request.body.advisor_id}`);
      const token = `ref_${randomBytes(24).toString('base64url')}`;
      const referral = await app.state.referrals.create({
        advisorId: advisor.id,
        tokenHash: sha256Hex(token),
        tokenPrefix: token.slice(0, 12),
        sourceProgramId: request.body.source_program_id ?? null,
        clickedAt: new Date().toISOString(),
        convertedAt: null,
        conversionValueYen: null,
        commissionYen: null,
        commissionPaidAt: null,
      });
      reply.code(201);
      return { referral_id: referral.id, advisor_id: advisor.id, token, token_prefix: referral.tokenPrefix };
    },
  );

  app.post(
    '/report-conversion',
    {
      // The advisor reports its own conversions with its own key; anyone else cannot record one.
      config: { access: 'advisorKey' },
      schema: {
        operationId: 'reportAdvisorConversion',
        tags: ['advisors'],
        summary: 'Report the conversion of a referral token; the commission follows the advisor’s model',
        description:
          "Only with the API key bound to the token's advisor (401 without a key, 403 for a key bound to no advisor; another advisor's token answers 404 like an unknown one).",
        body: ConversionRequest,
        response: { 200: ConversionResponse, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const tokenHash = sha256Hex(request.body.token);
      const referral = await app.state.referrals.findByTokenHash(tokenHash);
      // Another advisor's token is answered like an unknown one: the answer never confirms it exists.
      if (!referral || referral.advisorId !== request.advisor.id) throw new HttpError(404, 'Unknown referral token');
      if (referral.convertedAt) throw new HttpError(409, 'This referral was already converted');
      const commission = commissionFor(advisorOut(request.advisor), request.body.conversion_value_yen);
      const converted = await app.state.referrals.convert(tokenHash, request.body.conversion_value_yen, commission);
      if (!converted?.convertedAt) throw new HttpError(409, 'This referral was already converted');
      return {
        referral_id: converted.id,
        advisor_id: converted.advisorId,
        conversion_value_yen: request.body.conversion_value_yen,
        commission_yen: converted.commissionYen ?? commission,
        converted_at: converted.convertedAt,
      };
    },
  );

  app.get(
    '/:id/dashboard',
    operation(
      { access: 'advisor', counter: 'daily', billed: true },
      'advisors',
      'getAdvisorDashboard',
      "The advisor's referrals and commissions; only with the advisor's own API key (the key bound at verification)",
      { params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }), response: { 200: AdvisorDashboardResponse } },
      [400, 401, 404, 429],
    ),
    async (request) => {
      const advisor = request.advisor;
      const referrals = await app.state.referrals.listForAdvisor(advisor.id);
      const converted = referrals.filter((r) => r.convertedAt);
      const sum = (rows: ReferralRecord[]) => rows.reduce((n, r) => n + (r.commissionYen ?? 0), 0);
      return {
        advisor: advisorOut(advisor),
        summary: {
          clicks: referrals.filter((r) => r.clickedAt).length,
          conversions: converted.length,
          paid_yen: sum(converted.filter((r) => r.commissionPaidAt)),
          unpaid_yen: sum(converted.filter((r) => !r.commissionPaidAt)),
        },
        referrals: referrals.map(referralOut),
      };
    },
  );
};

export default advisorsRoutes;
