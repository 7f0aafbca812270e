// /v1/me/webhooks: a key's webhook endpoints. Events: program.created,
// program.amended, program.removed (every change of a dataset version) and
// saved_search.matched (the key's saved searches). Each delivery is a signed
// JSON POST (JPSP-Signature, outbound/signature.ts) with a stable id,
// retried with backoff from the outbox; an endpoint that keeps failing is
// disabled, with the reason shown here. Key required; never counted.
import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../schemas/common.ts';
import { IdParam, WebhookCreate, WebhookCreated, WebhookDeliveries, WebhookList, WebhookTestQueued } from '../../../schemas/alerts.ts';
import { callerKey } from '../../../plugins/auth.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { checkResolvedTarget, parseTarget, TargetError } from '../../../outbound/target.ts';
import { newEndpointId, type WebhookDelivery, type WebhookEndpoint } from '../../../state/repositories/webhook-endpoints.ts';
import { webhookBody } from '../../../changes/fan-out.ts';
import { OutboundSecrets } from '../../../outbound/secrets.ts';
import { KEY_ROUTE, operations } from '../../operation.ts';

const alertsOperation = operations(KEY_ROUTE, 'alerts');

export const WEBHOOKS_PER_KEY = 10;

const webhookOut = (w: WebhookEndpoint) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  description: w.description,
  status: w.status,
  disabled_reason: w.disabledReason,
  consecutive_failures: w.consecutiveFailures,
  created_at: w.createdAt,
  disabled_at: w.disabledAt,
});

const deliveryOut = (d: WebhookDelivery) => ({
  id: d.id,
  event_type: d.eventType,
  status: d.status,
  attempts: d.attempts,
  last_status: d.lastStatus,
  last_error: d.lastError,
  next_attempt_at: d.status === 'pending' ? d.nextAttemptAt : null,
  created_at: d.createdAt,
  delivered_at: d.deliveredAt,
});

const notFound = (id: string): never => {
  throw new HttpError(404, `Webhook not found: ${id}`);
};

const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const allowPrivate = app.config.outboundAllowPrivate;

  app.post(
    '/me/webhooks',
    alertsOperation(
      'createWebhook',
      'Register a webhook endpoint; the answer shows its signing secret once',
      { body: WebhookCreate, response: { 201: WebhookCreated } },
      [400, 401, 409],
    ),
    async (request, reply) => {
      const { key } = callerKey(request);
      let url: URL;
      try {
        url = parseTarget(request.body.url, allowPrivate);
        await checkResolvedTarget(url, allowPrivate);
      } catch (err) {
        if (err instanceof TargetError) throw new HttpError(400, `Invalid body: ${err.message}`);
        throw err;
      }
      const id = newEndpointId();
      const secret = OutboundSecrets.newWebhookSecret();
      const endpoint = await app.state.webhookEndpoints.create(
        {
          id,
          keyId: key.id,
          url: url.toString(),
          events: request.body.events,
          description: request.body.description ?? null,
          sealedSecret: app.outbound.secrets.sealWebhookSecret(id, secret),
        },
        WEBHOOKS_PER_KEY,
      );
      if (!endpoint) throw new HttpError(409, `A key keeps at most ${WEBHOOKS_PER_KEY} webhooks; delete one first.`);
      reply.code(201);
      return { ...webhookOut(endpoint), secret };
    },
  );

  app.get(
    '/me/webhooks',
    alertsOperation(
      'listWebhooks',
      'The webhook endpoints of the presented key, with their status (and why one was disabled)',
      { response: { 200: WebhookList } },
      [401],
    ),
    async (request) => ({ results: (await app.state.webhookEndpoints.listForKey(callerKey(request).key.id)).map(webhookOut) }),
  );

  app.delete(
    '/me/webhooks/:id',
    alertsOperation(
      'deleteWebhook',
      'Delete a webhook endpoint (its pending deliveries go with it)',
      { params: IdParam, response: { 204: { type: 'null', description: 'Deleted' } } },
      [401, 404],
    ),
    async (request, reply) => {
      if (!(await app.state.webhookEndpoints.delete(request.params.id, callerKey(request).key.id))) notFound(request.params.id);
      reply.code(204);
      return null;
    },
  );

  app.post(
    '/me/webhooks/:id/test',
    {
      // A test costs an outbound request: one pending per endpoint, and a daily number per key (issue 24, M1).
      config: { access: 'key', extraLimit: 'webhookTests' },
      schema: {
        operationId: 'testWebhook',
        tags: ['alerts'],
        summary: 'Queue a signed `webhook.test` delivery to the endpoint',
        description: 'One test at a time per endpoint: while one is pending, another answers 409.',
        params: IdParam,
        response: { 202: WebhookTestQueued, ...errorResponses(401, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const endpoint = (await app.state.webhookEndpoints.get(request.params.id, callerKey(request).key.id)) ?? notFound(request.params.id);
      if (endpoint.status !== 'active') throw new HttpError(409, `Webhook ${endpoint.id} is disabled: ${endpoint.disabledReason ?? ''}`.trim());
      const createdAt = new Date().toISOString();
      const deliveryId = await app.state.webhookEndpoints.queueTest(endpoint.id, `test:${randomUUID()}`, (id) =>
        webhookBody(id, 'webhook.test', createdAt, {
          webhook_id: endpoint.id,
          message: 'A test delivery: your endpoint is reachable and can verify the signature.',
        }),
      );
      if (deliveryId === null) throw new HttpError(409, `A test delivery to webhook ${endpoint.id} is still pending; see its deliveries.`);
      reply.code(202);
      return { delivery_id: deliveryId, status: 'queued' as const };
    },
  );

  app.get(
    '/me/webhooks/:id/deliveries',
    alertsOperation(
      'listWebhookDeliveries',
      'The newest deliveries of an endpoint: status, attempts, last answer',
      {
        params: IdParam,
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })) }, { additionalProperties: false }),
        response: { 200: WebhookDeliveries },
      },
      [400, 401, 404],
    ),
    async (request) => {
      const endpoint = (await app.state.webhookEndpoints.get(request.params.id, callerKey(request).key.id)) ?? notFound(request.params.id);
      return { results: (await app.state.webhookEndpoints.deliveries(endpoint.id, request.query.limit ?? 50)).map(deliveryOut) };
    },
  );
};

export default webhookRoutes;
