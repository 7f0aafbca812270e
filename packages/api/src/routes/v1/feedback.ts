// POST /v1/feedback: a short message about the service. Authenticated calls
// link key hash, customer and tier; anonymous ones keep only the address
// HMAC. Counted like any call, never billed, and declared with its own
// `feedback` limit: FEEDBACK_DAILY_LIMIT per key (or address hash) per
// Japan-time day (plugins/limits.ts).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../schemas/common.ts';
import { HttpError } from '../../plugins/errors.ts';

const FeedbackRequest = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: 4000, description: '1 to 4000 characters' }),
    rating: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
    endpoint: Type.Optional(Type.String({ maxLength: 500, description: 'the endpoint the feedback is about' })),
    request_id: Type.Optional(Type.String({ maxLength: 200, description: 'e.g. the X-Request-ID of the call' })),
  },
  { $id: 'FeedbackRequest', additionalProperties: false },
);

const FeedbackResponse = Type.Object({ received: Type.Boolean(), feedback_id: Type.Integer() }, { $id: 'FeedbackResponse' });

const feedbackRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/feedback',
    {
      config: { access: 'public', counter: 'daily', extraLimit: 'feedback' },
      schema: {
        operationId: 'sendFeedback',
        tags: ['meta'],
        summary: 'Send feedback',
        body: FeedbackRequest,
        response: { 200: FeedbackResponse, ...errorResponses(400, 401, 429) },
      },
      // What the schema cannot say; before the declared limit, so a refused message never takes one.
      preHandler: async (request) => {
        if (request.body.message.trim() === '') throw new HttpError(400, 'message: must not be blank');
      },
    },
    async (request) => {
      const body = request.body;
      const identity = request.identity;
      const feedbackId = await app.state.feedback.insert({
        message: body.message,
        rating: body.rating ?? null,
        endpoint: body.endpoint ?? null,
        requestId: body.request_id ?? null,
        keyHash: identity.kind === 'key' ? identity.keyHash : null,
        customerId: identity.kind === 'key' ? identity.key.customerId : null,
        tier: identity.kind === 'key' ? identity.key.tier : null,
        addressHash: identity.kind === 'anonymous' ? identity.addressHash : null,
      });
      return { received: true, feedback_id: feedbackId };
    },
  );
};

export default feedbackRoutes;
