// GET /v1/me/billing_history: the key's invoices from the payment provider,
// cached in the state store for BILLING_HISTORY_CACHE_SECONDS. Declared
// `access: 'key'` and `session` (the account page reads it with its
// session cookie); a key without a customer (free) gets an empty list and
// customer_id null.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BillingHistoryResponse } from '../../../schemas/billing.ts';
import { callerKey } from '../../../plugins/auth.ts';
import { billingCall } from './index.ts';
import { ACCOUNT_ROUTE, operation } from '../../operation.ts';

const billingHistoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/me/billing_history',
    operation(
      ACCOUNT_ROUTE,
      'account',
      'getBillingHistory',
      'Invoices of the key’s customer',
      {
        description: 'Read from the payment provider and cached for a few minutes (`cached_at`). Never billed.',
        security: [{ apiKeyHeader: [] }, { bearer: [] }, { session: [] }],
        response: { 200: BillingHistoryResponse },
      },
      [401, 503],
    ),
    async (request) => {
      const { key } = callerKey(request);
      return billingCall(() => app.billing.billingHistory(key.customerId));
    },
  );
};

export default billingHistoryRoutes;
