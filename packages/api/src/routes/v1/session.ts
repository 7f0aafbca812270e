// The developer portal's browser session (session.ts): POST /v1/session logs
// in with an API key and sets the session cookie; GET /v1/session tells the
// page who it is logged in as; POST /v1/session/logout ends it. Declared `session` (the cookie and the same-origin rule apply),
// never counted, never billed. The key travels once, in the login body, and
// is neither stored nor echoed: the session row holds the id's hash and the
// key's row id.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Nullable } from '../../schemas/common.ts';
import { addressHashOf, callerKey, verifyApiKey } from '../../plugins/auth.ts';
import { guarded } from '../../plugins/guessing.ts';

/** Live sessions one key keeps at most: a new login ends the oldest beyond it (issue 24, L4). */
export const SESSIONS_PER_KEY = 20;
import { hashSessionId, newSessionId, sessionCookie, sessionIdOf } from '../../access/session.ts';
import { ACCOUNT_ROUTE, operation, operations } from '../operation.ts';

const accountOperation = operations({ access: 'public', session: true }, 'account');

const LoginRequest = Type.Object(
  { api_key: Type.String({ minLength: 1, maxLength: 200, description: 'the API key to act as; sent once, never stored' }) },
  { $id: 'SessionLoginRequest', additionalProperties: false },
);

const SessionResponse = Type.Object(
  {
    key_prefix: Type.String({ description: 'visible prefix of the key the session acts for' }),
    tier: Type.String({ description: '`free` or `paid`' }),
    expires_at: Nullable(
      Type.String({ description: 'when the session and its cookie expire (UTC); null when the call was authenticated by a key header, not a session' }),
    ),
  },
  { $id: 'Session' },
);

const LogoutResponse = Type.Object(
  { ended: Type.Boolean({ description: 'true when a live session was ended; false when there was none' }) },
  { $id: 'SessionLogout' },
);

const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/session',
    accountOperation(
      'createSession',
      'Log in to the developer portal with an API key',
      {
        description:
          'Sets the `jpsp_session` cookie: an opaque random id (never the key), HttpOnly, SameSite=Strict, Path=/v1, ' +
          'Secure over TLS, expiring with the session (SESSION_TTL_SECONDS); a key keeps at most 20 live sessions (the oldest end first). ' +
          'Wrong keys are counted per client address: past AUTH_FAILURE_LIMIT an hour, 429. ' +
          'The cookie then stands in for the key on ' +
          "the /v1/me* calls of the account page. A POST without a key header must come from this server's own pages.",
        body: LoginRequest,
        response: { 200: SessionResponse },
      },
      [400, 401, 403, 429],
    ),
    async (request, reply) => {
      // Through the key cache, as a key header is; wrong keys count against the address (plugins/guessing.ts).
      const { key } = await guarded(app, addressHashOf(request), () => verifyApiKey(app.keyCache, request.body.api_key));
      const ttl = app.config.sessionTtlSeconds;
      const createdAt = new Date();
      const expiresAt = new Date(createdAt.getTime() + ttl * 1000).toISOString();
      const { id, idHash } = newSessionId();
      // Expired rows are cleared at each login: the table only ever holds live sessions and the last few dead ones.
      await app.state.sessions.deleteExpired(createdAt.toISOString());
      await app.state.sessions.create({ idHash, keyId: key.id, createdAt: createdAt.toISOString(), expiresAt }, SESSIONS_PER_KEY);
      reply.header('set-cookie', sessionCookie(request, id, ttl)).header('cache-control', 'no-store');
      return { key_prefix: key.prefix, tier: key.tier, expires_at: expiresAt };
    },
  );

  app.get(
    '/session',
    operation(
      ACCOUNT_ROUTE,
      'account',
      'getSession',
      'The developer portal session of this browser',
      { description: 'The key the session cookie acts for and when the session expires (401 without a live session).', response: { 200: SessionResponse } },
      [401],
    ),
    async (request, reply) => {
      const { key, sessionExpiresAt } = callerKey(request);
      reply.header('cache-control', 'no-store');
      return { key_prefix: key.prefix, tier: key.tier, expires_at: sessionExpiresAt ?? null };
    },
  );

  app.post(
    '/session/logout',
    accountOperation(
      'endSession',
      'Log out of the developer portal',
      { description: 'Ends the session the cookie names and removes the cookie. Answers 200 with or without a session.', response: { 200: LogoutResponse } },
      [403],
    ),
    async (request, reply) => {
      const id = sessionIdOf(request);
      const ended = id !== null && (await app.state.sessions.delete(hashSessionId(id)));
      reply.header('set-cookie', sessionCookie(request, null)).header('cache-control', 'no-store');
      return { ended };
    },
  );
};

export default sessionRoutes;
