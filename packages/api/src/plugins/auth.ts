// Who is calling, and whether the route lets them (its declared `access`,
// plugins/route-policy.ts). Sets `request.identity` for every request: an API
// key (`X-API-Key` or `Authorization: Bearer`; on routes declaring `session`,
// the developer portal's session cookie when no key is sent, see session.ts)
// or an anonymous client address.
// An unknown or revoked key answers 401 on every path except admin ones,
// which read only the operator key. Raw keys and addresses never leave this
// hook: the identity carries only hashes. Keys presented in headers are
// looked up through the process's key cache (state/key-cache.ts: no store
// read per call; a revocation is seen at once here, within its poll bound in
// other processes).
import fp from 'fastify-plugin';
import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AdvisorRecord } from '../state/repositories/advisors.ts';
import type { ApiKeyRecord } from '../state/repositories/keys.ts';
import { hashApiKey, looksLikeApiKey } from '../access/keys.ts';
import { hashesEqual, sha256Hex } from '../lib/hash.ts';
import { fromOwnOrigin, fromOwnPages, hashSessionId, sessionIdOf } from '../access/session.ts';
import type { StateStore } from '../state/store.ts';
import { KeyCache } from '../state/key-cache.ts';
import { HttpError, notFoundDetail } from './errors.ts';
import { normaliseAddress } from '../access/client-address.ts';
import { addPreHandlers, policyOf, type Access, type PreHandler } from './route-policy.ts';
import { guarded } from './guessing.ts';

/** The one answer to an anonymous call on a route that needs a key. */
export const KEY_REQUIRED = 'An API key is required: send it in X-API-Key or Authorization: Bearer';
/** The answer on a `key` route to a session cookie whose session has expired or ended. */
export const SESSION_ENDED = 'Your session has expired or ended: log in again with your API key';
/** The answer to a cookie-borne (or cookie-setting) POST from another origin. */
export const CROSS_ORIGIN = "This request must come from this server's own pages (or send an API key)";

export type Identity =
  | { kind: 'anonymous'; addressHash: string }
  | {
      kind: 'key';
      key: ApiKeyRecord;
      keyHash: string;
      /** Set when the key came from the portal's session cookie: when that session expires. */
      sessionExpiresAt?: string;
    };

declare module 'fastify' {
  interface FastifyInstance {
    /** Key records by key hash, without a store read per call. */
    keyCache: KeyCache;
  }
  interface FastifyRequest {
    identity: Identity;
    /** On `advisor` routes: the advisor of the route's `:id`, bound to the presented key. */
    advisor: AdvisorRecord;
  }
}

/** The 8 groups of an IPv6 address as numbers, or null. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip;
  // Embedded IPv4 tail (e.g. ::ffff:192.0.2.1) -> two hex groups.
  const v4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const o = v4[2].split('.').map(Number);
    text = `${v4[1]}${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array(Math.max(0, fill)).fill('0'), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * The unit the anonymous limit applies to: an IPv4 address (/32) or an IPv6
 * /64 prefix; IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
export function addressUnit(ip: string): string {
  const bare = ip.replace(/%.*$/, '').trim();
  if (isIPv4(bare)) return `v4:${bare}`;
  if (isIPv6(bare)) {
    const groups = ipv6Groups(bare);
    if (groups) {
      const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
      if (mapped) return `v4:${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
      return `v6:${groups
        .slice(0, 4)
        .map((g) => g.toString(16))
        .join(':')}::/64`;
    }
  }
  return `other:${bare}`;
}

/** HMAC-SHA256 hex of the address unit under the salt: the only form an address is kept in. */
export function hashAddress(ip: string, salt: string): string {
  return createHmac('sha256', salt).update(addressUnit(ip)).digest('hex');
}

/**
 * The key identity of a request to a route whose access requires a key
 * (`key`, `advisor`): this hook has already answered 401 without one, so a
 * handler only reads it. Throws (a 500) on a route declared otherwise.
 */
export function callerKey(request: FastifyRequest): Extract<Identity, { kind: 'key' }> {
  const identity = request.identity;
  if (identity?.kind !== 'key') throw new Error(`${request.routeOptions.url}: callerKey() on a route that does not require a key`);
  return identity;
}

/** The bearer of a header value `Bearer <token>`, if that is its form. */
function bearerToken(request: FastifyRequest): string | null {
  const auth = request.headers.authorization;
  const match = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  return match ? match[1] : null;
}

/** The presented key, if any: `X-API-Key` first, else `Authorization: Bearer`. */
export function presentedKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  const direct = (Array.isArray(header) ? header[0] : header)?.trim();
  return direct || bearerToken(request);
}

/** Keys hashed in this process (tests: a keep-alive connection hashes its key once). */
export const keyHashStats = { computed: 0 };

/**
 * The hash of the key last presented on each connection. A client on a
 * keep-alive connection sends the same key with every request, so its
 * SHA-256 is computed once per connection rather than per request (issue 25:
 * about 2.5 % of a paid detail's CPU). The key is held only as long as the
 * connection (a WeakMap keyed by its socket), as it is in each request's
 * headers; a different key on the same connection is hashed and replaces it.
 */
const presentedOnConnection = new WeakMap<object, { key: string; hash: string }>();

function hashOncePerConnection(connection: object, key: string): string {
  const seen = presentedOnConnection.get(connection);
  if (seen !== undefined && seen.key === key) return seen.hash;
  keyHashStats.computed++;
  const hash = hashApiKey(key);
  presentedOnConnection.set(connection, { key, hash });
  return hash;
}

/**
 * The key identity of a raw key: 401 unless it has our shape, is known and is
 * active. The one check for a key, whether it came in a header or in the
 * body of POST /v1/session.
 */
export async function verifyApiKey(state: StateStore | KeyCache, key: string, connection?: object): Promise<Extract<Identity, { kind: 'key' }>> {
  if (!looksLikeApiKey(key)) throw new HttpError(401, 'Invalid API key');
  const keyHash = connection === undefined ? hashApiKey(key) : hashOncePerConnection(connection, key);
  const record = state instanceof KeyCache ? await state.find(keyHash) : await state.keys.findByHash(keyHash);
  if (!record || !hashesEqual(record.keyHash, keyHash)) throw new HttpError(401, 'Invalid API key');
  if (record.status !== 'active') throw new HttpError(401, 'API key has been revoked');
  return { kind: 'key', key: record, keyHash };
}

/**
 * The caller's address hash under today's salt whatever the identity (a keyed
 * call too), for records that keep who did something (portal sessions);
 * null when the address cannot be determined.
 */
export function addressHashOf(request: FastifyRequest): string | null {
  if (request.identity?.kind === 'anonymous') return request.identity.addressHash;
  const ip = normaliseAddress(request.ip);
  return ip ? hashAddress(ip, request.server.addressSalt()) : null;
}

/** `admin` access: ADMIN_API_KEY in `X-Admin-Key` or Bearer; unset -> 404 (the routes do not exist), wrong -> 403. */
function checkAdminKey(request: FastifyRequest, configured: string | null): void {
  if (!configured) throw new HttpError(404, notFoundDetail(request));
  const header = request.headers['x-admin-key'];
  const presented = (Array.isArray(header) ? header[0] : header) ?? bearerToken(request);
  if (!presented || !hashesEqual(sha256Hex(presented), sha256Hex(configured))) throw new HttpError(403, 'Admin key required');
}

export default fp(
  async function auth(app: FastifyInstance) {
    app.decorateRequest('identity', null as never);
    app.decorateRequest('advisor', null as never);
    const keyCache = new KeyCache(app.state);
    await keyCache.start();
    app.decorate('keyCache', keyCache);
    app.addHook('onClose', async () => keyCache.close());
    const anonymous = (request: FastifyRequest): Identity => {
      const ip = normaliseAddress(request.ip);
      if (!ip) throw new HttpError(400, 'The client address could not be determined: X-Forwarded-For must hold IP addresses');
      return { kind: 'anonymous', addressHash: hashAddress(ip, app.addressSalt()) };
    };

    /** On a `session` route without a key: the key of the live session the cookie names, if any. */
    async function sessionIdentity(request: FastifyRequest, access: Access): Promise<Identity | null> {
      const id = sessionIdOf(request);
      if (id === null) return null;
      const session = await app.state.sessions.findLive(hashSessionId(id), new Date().toISOString());
      const record = session && (await app.state.keys.findById(session.keyId));
      if (!session || !record) {
        // A dead cookie on a route that needs a key says why, rather than "send a key".
        if (access === 'key') throw new HttpError(401, SESSION_ENDED);
        return null;
      }
      if (record.status !== 'active') throw new HttpError(401, 'API key has been revoked');
      return { kind: 'key', key: record, keyHash: record.keyHash, sessionExpiresAt: session.expiresAt };
    }

    async function identify(request: FastifyRequest): Promise<Identity> {
      const key = presentedKey(request);
      if (key !== null) return verifyApiKey(keyCache, key, request.raw.socket);
      const { access, session } = policyOf(request);
      if (session === 'pages') {
        // A data route the portal's pages call: the cookie spends the key's allowance only from those pages.
        const fromCookie = fromOwnPages(request) ? await sessionIdentity(request, access) : null;
        if (fromCookie) return fromCookie;
      } else if (session) {
        // Without a key, a browser session route's POST relies on the cookie
        // (or sets it): it must come from this origin (session.ts, CSRF).
        if (!fromOwnOrigin(request)) throw new HttpError(403, CROSS_ORIGIN);
        const fromCookie = await sessionIdentity(request, access);
        if (fromCookie) return fromCookie;
      }
      return anonymous(request);
    }

    app.addHook('onRequest', async (request) => {
      const { access } = policyOf(request);
      if (access === 'admin') {
        // Wrong admin keys are counted per address: past AUTH_FAILURE_LIMIT an hour, 429 (plugins/guessing.ts).
        if (app.config.adminApiKey) await guarded(app, addressHashOf(request), () => checkAdminKey(request, app.config.adminApiKey));
        else checkAdminKey(request, null);
        request.identity = anonymous(request);
        return;
      }
      request.identity = await identify(request);
    });

    // `key` and `advisor` access are checked once the request is parsed and
    // validated: a malformed request answers 400 before a missing key's 401,
    // and a call on a counted route is counted first, as it always was.
    async function requireKey(request: FastifyRequest): Promise<void> {
      if (request.identity.kind !== 'key') throw new HttpError(401, KEY_REQUIRED);
    }
    // `advisor`, second half: the advisor of the (validated) `:id` must be
    // bound to the presented key. Another key gets the same 404 as an unknown
    // id, so the answer never confirms that an advisor exists.
    async function ownAdvisor(request: FastifyRequest): Promise<void> {
      const { id } = request.params as { id: number };
      const advisor = await app.state.advisors.get(id);
      if (!advisor?.ownerKeyHash || !hashesEqual(advisor.ownerKeyHash, callerKey(request).keyHash)) {
        throw new HttpError(404, `Advisor not found: ${id}`);
      }
      request.advisor = advisor;
    }
    // `advisorKey`: the advisor the presented key is bound to acts for itself.
    async function keyAdvisor(request: FastifyRequest): Promise<void> {
      const advisor = await app.state.advisors.findByOwnerKeyHash(callerKey(request).keyHash);
      if (!advisor) throw new HttpError(403, 'This API key is not bound to an advisor');
      request.advisor = advisor;
    }
    const checks: Partial<Record<Access, PreHandler[]>> = {
      key: [requireKey],
      advisor: [requireKey, ownAdvisor],
      advisorKey: [requireKey, keyAdvisor],
    };
    // Answers of routes that need a key vary by key (/v1/me*, webhooks, saved searches, advisors):
    // no cache may store them, shared or private (issue 24, L8). A route that sets its own keeps it.
    const privateAnswer = async (_request: FastifyRequest, reply: FastifyReply) => {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-store');
    };
    app.addHook('onRoute', (route) => {
      const own = checks[route.config?.policy?.access ?? 'public'];
      if (own) {
        addPreHandlers(route, 'first', own);
        route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), privateAnswer];
      }
    });
  },
  { name: 'auth', dependencies: ['state', 'route-policy'] },
);
