// The caller's account: GET /v1/me, GET /v1/me/dashboard (this Japan-time
// month), POST /v1/me/cap. Declared `access: 'key'`: the auth hook answers
// 401 without one, so every handler here has a key identity. Never counted.
// Declared `session`: the account page calls them with the portal's session
// cookie instead of a key (session.ts). The cap shown is read from the store,
// not from the cached key record: a cap set through another process shows at
// once, as it holds at once (plugins/limits.ts).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Nullable } from '../../../schemas/common.ts';
import { callerKey } from '../../../plugins/auth.ts';
import { jstMonth } from '../../../lib/time.ts';
import { ACCOUNT_ROUTE, operations } from '../../operation.ts';

const accountOperation = operations(ACCOUNT_ROUTE, 'account');

const Me = Type.Object(
  {
    tier: Type.String({ description: '`free` or `paid`' }),
    customer_id: Nullable(Type.String()),
    key_prefix: Type.String({ description: 'visible prefix of the key used for this call' }),
    created_at: Type.String({ description: 'when the key was issued (UTC)' }),
    monthly_cap_yen: Nullable(Type.Integer({ description: 'monthly spend cap in yen (Japan-time month); null = uncapped' })),
  },
  { $id: 'Me' },
);

const Dashboard = Type.Object(
  {
    month: Type.String({ description: 'Japan-time month, YYYY-MM' }),
    tier: Type.String(),
    requests: Type.Integer({ description: 'recorded requests this month' }),
    billable_requests: Type.Integer(),
    spend_yen: Type.Integer(),
    unit_price_yen: Type.Number(),
    cap_yen: Nullable(Type.Integer()),
    remaining_yen: Nullable(Type.Integer({ description: 'cap minus spend; null when uncapped' })),
    per_day: Type.Array(Type.Object({ date: Type.String({ description: 'Japan-time date' }), requests: Type.Integer(), billable: Type.Integer() })),
    top_endpoints: Type.Array(Type.Object({ route: Type.String(), requests: Type.Integer() })),
  },
  { $id: 'Dashboard' },
);

const CapRequest = Type.Object(
  {
    monthly_cap_yen: Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'integer yen > 0, or null to remove the cap' })),
  },
  { additionalProperties: false },
);

const CapResponse = Type.Object({ monthly_cap_yen: Nullable(Type.Integer()) }, { $id: 'CapResponse' });

const meRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/me', accountOperation('getMe', 'Account of the presented key', { response: { 200: Me } }, [401]), async (request) => {
    const { key } = callerKey(request);
    return {
      tier: key.tier,
      customer_id: key.customerId,
      key_prefix: key.prefix,
      created_at: key.createdAt,
      monthly_cap_yen: await app.state.keys.monthlyCap(key.id),
    };
  });

  app.get(
    '/me/dashboard',
    accountOperation('getDashboard', 'Usage and charges of this Japan-time month', { response: { 200: Dashboard } }, [401]),
    async (request) => {
      const { key } = callerKey(request);
      const month = jstMonth();
      const summary = await app.state.usage.summary(key.id, month);
      const cap = await app.state.keys.monthlyCap(key.id);
      return {
        month,
        tier: key.tier,
        requests: summary.requests,
        billable_requests: summary.billableRequests,
        spend_yen: summary.spendYen,
        unit_price_yen: app.config.unitPriceYen,
        cap_yen: cap,
        remaining_yen: cap === null ? null : Math.max(0, cap - summary.spendYen),
        per_day: summary.perDay,
        top_endpoints: summary.topEndpoints,
      };
    },
  );

  app.post(
    '/me/cap',
    accountOperation(
      'setCap',
      'Set or remove the monthly spend cap',
      {
        description:
          'A hard cap of N yen of billable spend per Japan-time calendar month; a billable request that would exceed it answers 402. ' +
          'null removes the cap. The unit price is unchanged.',
        body: CapRequest,
        response: { 200: CapResponse },
      },
      [400, 401],
    ),
    async (request) => {
      const { key } = callerKey(request);
      const cap = request.body.monthly_cap_yen;
      await app.state.keys.setMonthlyCap(key.id, cap);
      return { monthly_cap_yen: cap };
    },
  );
};

export default meRoutes;
