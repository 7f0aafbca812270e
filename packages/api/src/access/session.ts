// Browser sessions of the developer portal (POST /v1/session). The cookie
// holds an opaque random id (256 bits, base64url), never the key; the state
// store keeps only the id's SHA-256 with the key's row id and an expiry.
//
// The cookie is HttpOnly (page scripts never see it), SameSite=Strict (a
// browser never sends it on a request started by another site), Path=/v1
// (only API calls carry it), Secure when the request came over TLS (or
// through a trusted proxy saying https), and expires with the session.
//
// CSRF: SameSite=Strict already keeps cross-site requests cookie-less. Pages
// on the same site but another origin (another port or subdomain) are
// same-site, so a request that relies on the cookie or sets it, with an
// unsafe method, must also come from this origin: `Sec-Fetch-Site:
// same-origin` when the browser sends Fetch Metadata, else an `Origin` equal
// to this server's. Bodies are JSON only (other content types answer 415), so
// a cross-origin form cannot post them, and a cross-origin script cannot send
// a JSON POST with credentials: the CORS preflight never allows credentials.
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sha256Hex } from '../lib/hash.ts';

export const SESSION_COOKIE = 'jpsp_session';
const COOKIE_PATH = '/v1';
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new session id (shown only to the browser, in the cookie) and the hash that is stored. */
export function newSessionId(): { id: string; idHash: string } {
  const id = randomBytes(32).toString('base64url');
  return { id, idHash: sha256Hex(id) };
}

/** The stored form of a session id. */
export const hashSessionId = (id: string): string => sha256Hex(id);

/** The session id the request's Cookie header carries, if it has the right shape. */
export function sessionIdOf(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return ID_PATTERN.test(value) ? value : null;
    }
  }
  return null;
}

/** The Set-Cookie value for a session id living `maxAgeSeconds`, or, with `null`, the one that removes it. */
export function sessionCookie(request: FastifyRequest, id: string | null, maxAgeSeconds = 0): string {
  const attributes = [
    `${SESSION_COOKIE}=${id ?? ''}`,
    `Path=${COOKIE_PATH}`,
    `Max-Age=${id ? maxAgeSeconds : 0}`,
    `Expires=${new Date(id ? Date.now() + maxAgeSeconds * 1000 : 0).toUTCString()}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (request.protocol === 'https') attributes.push('Secure');
  return attributes.join('; ');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request of any method came from a page of this origin, for the
 * routes where the cookie may spend the key's allowance (session 'pages'):
 * `Sec-Fetch-Site: same-origin`, else an `Origin` equal to this server's. A
 * request with neither (a browser without Fetch Metadata, on a GET) does not
 * get the cookie's key: it stays anonymous.
 */
export function fromOwnPages(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin';
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin === `${request.protocol}://${request.host}`;
}

/**
 * Whether an unsafe request came from a page of this origin (see the CSRF
 * note above). A request with neither header is not a browser's cross-origin
 * request (browsers send `Origin` on every cross-origin POST), so it passes.
 */
export function fromOwnOrigin(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin';
  const origin = request.headers.origin;
  if (typeof origin === 'string') return origin === `${request.protocol}://${request.host}`;
  return true;
}
