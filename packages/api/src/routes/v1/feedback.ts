// POST /v1/feedback: a short message about the service. Authenticated calls
// link key hash, customer and tier; anonymous ones keep only the address
// HMAC. FEEDBACK_DAILY_LIMIT per key (or address hash) per Japan-time day.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../schemas/common.ts';
import { HttpError } from '../../plugins/errors.ts';
import { isoJst, jstDate, nextJstMidnight, secondsUntil } from '../../time.ts';

const FeedbackRequest = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: 4000, description: '1 to 4000 characters' }),
    rating: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
    endpoint: Type.Optional(Type.String({ maxLength: 500, description: 'the endpoint the feedback is about' })),
    request_id: Type.Optional(Type.String({ maxLength: 200, description: 'e.g. the X-Request-ID of the call' })),
  },
  { $id: 'FeedbackRequest', additionalProperties: false },
);

const FeedbackResponse = Type.Object(
  { received: Type.Boolean(), feedback_id: Type.Integer() },
  { $id: 'FeedbackResponse' },
);

const feedbackRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/feedback', {
    schema: {
      operationId: 'sendFeedback',
      tags: ['meta'],
      summary: 'Send feedback',
      body: FeedbackRequest,
      response: { 200: FeedbackResponse, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const body = request.body;
    if (body.message.trim() === '') throw new HttpError(400, 'message: must not be blank');
    const identity = request.identity;
    const subject = identity.kind === 'key' ? `key:${identity.keyHash}` : `addr:${identity.addressHash}`;
    const limit = app.config.feedbackDailyLimit;
    const now = new Date();
    const taken = await app.state.takeCounter('feedback', subject, jstDate(now), limit);
    if (!taken.allowed) {
      const resetsAt = nextJstMidnight(now);
      throw new HttpError(
        429,
        `Feedback limit of ${limit} messages per day reached; it resets at Japan-time midnight.`,
        { limit, resets_at: isoJst(resetsAt) },
        { 'Retry-After': String(secondsUntil(resetsAt, now)) },
      );
    }
    const feedbackId = await app.state.insertFeedback({
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
  });
};

export default feedbackRoutes;
