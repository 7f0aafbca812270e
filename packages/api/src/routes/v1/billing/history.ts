// GET /v1/me/billing_history: the key's invoices from the payment provider,
// cached in the state store for BILLING_HISTORY_CACHE_SECONDS. Key required;
// a key without a customer (free) gets an empty list and customer_id null.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../schemas/common.ts';
import { BillingHistoryResponse } from '../../../schemas/billing.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { billingCall } from './index.ts';

const billingHistoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/me/billing_history', {
    schema: {
      operationId: 'getBillingHistory',
      tags: ['account'],
      summary: 'Invoices of the key’s customer',
      description: 'Read from the payment provider and cached for a few minutes (`cached_at`). Never billed.',
      security: [{ apiKeyHeader: [] }, { bearer: [] }],
      response: { 200: BillingHistoryResponse, ...errorResponses(401, 503) },
    },
  }, async (request) => {
    const identity = request.identity;
    if (identity?.kind !== 'key') throw new HttpError(401, 'An API key is required (X-API-Key or Authorization: Bearer)');
    return billingCall(() => app.billing.billingHistory(identity.key.customerId));
  });
};

export default billingHistoryRoutes;
