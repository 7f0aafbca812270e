// Device authorisation (RFC 8628): POST /v1/device/authorize and
// POST /v1/device/token. Bodies may be JSON or form-encoded, as the RFC's
// clients send. Approval is an operator step (`npm run cli -- device approve`).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Nullable } from '../../../schemas/common.ts';
import { DEFAULT_CLIENT_ID, DEFAULT_SCOPE, DEVICE_GRANT_TYPE, pollDeviceToken, startDeviceAuthorization } from '../../../access/device.ts';
import { operation } from '../../operation.ts';

const AuthorizeRequest = Type.Object(
  {
    client_id: Type.String({ minLength: 1, maxLength: 200, default: DEFAULT_CLIENT_ID }),
    scope: Type.Optional(Nullable(Type.String({ maxLength: 500, description: `space-delimited; default \`${DEFAULT_SCOPE}\`` }))),
  },
  { additionalProperties: false },
);

const AuthorizeResponse = Type.Object(
  {
    device_code: Type.String(),
    user_code: Type.String(),
    verification_uri: Type.String(),
    verification_uri_complete: Type.String(),
    expires_in: Type.Integer(),
    interval: Type.Integer(),
  },
  { $id: 'DeviceAuthorization' },
);

const TokenRequest = Type.Object({
  grant_type: Type.String({ description: `\`${DEVICE_GRANT_TYPE}\`` }),
  device_code: Type.String({ minLength: 1, maxLength: 200 }),
  client_id: Type.Optional(Type.String({ maxLength: 200 })),
});

const TokenResponse = Type.Object(
  { access_token: Type.String({ description: 'the API key' }), token_type: Type.String(), scope: Type.String() },
  { $id: 'DeviceToken' },
);

const TokenError = Type.Object(
  {
    error: Type.Optional(
      Type.String({
        description:
          '`authorization_pending`, `slow_down`, `expired_token`, `access_denied`, `invalid_grant`, `unsupported_grant_type`; absent when the body itself is invalid',
      }),
    ),
    detail: Type.String(),
  },
  { $id: 'DeviceTokenError', additionalProperties: true },
);

const deviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post(
    '/authorize',
    operation(
      { access: 'public', extraLimit: 'writes' },
      'account',
      'deviceAuthorize',
      'Start a device authorisation (RFC 8628)',
      { body: AuthorizeRequest, response: { 200: AuthorizeResponse } },
      [400, 429],
    ),
    async (request) => {
      const scope = request.body.scope?.trim() || DEFAULT_SCOPE;
      const started = await startDeviceAuthorization(app.state, request.body.client_id, scope);
      // From the configured public origin, never from Host or X-Forwarded-Host (a caller could point users elsewhere).
      const verificationUri = `${app.config.publicBaseUrl}/device`;
      return {
        device_code: started.deviceCode,
        user_code: started.userCode,
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?user_code=${encodeURIComponent(started.userCode)}`,
        expires_in: started.expiresIn,
        interval: started.interval,
      };
    },
  );

  app.post(
    '/token',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'deviceToken',
        tags: ['account'],
        summary: 'Poll for the key of an approved device authorisation',
        body: TokenRequest,
        response: { 200: TokenResponse, 400: TokenError },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      if (request.body.grant_type !== DEVICE_GRANT_TYPE) {
        return reply.code(400).send({ error: 'unsupported_grant_type', detail: `grant_type must be ${DEVICE_GRANT_TYPE}` });
      }
      const result = await pollDeviceToken(app.state, app.config, request.body.device_code);
      if (!result.ok) return reply.code(400).send({ error: result.error, detail: result.detail });
      return { access_token: result.accessToken, token_type: 'Bearer', scope: result.scope };
    },
  );
};

export default deviceRoutes;
