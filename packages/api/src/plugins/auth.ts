// Who is calling: an API key (`X-API-Key` or `Authorization: Bearer`) or an
// anonymous client address. Sets `request.identity` for every request; an
// unknown or revoked key answers 401 on every path (admin paths use their own
// key and are skipped). Raw keys and addresses never leave this hook: the
// identity carries only hashes.
import fp from 'fastify-plugin';
import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyRecord } from '../state/store.ts';
import { hashApiKey, hashesEqual, looksLikeApiKey } from '../keys.ts';
import { HttpError } from './errors.ts';

export type Identity =
  | { kind: 'anonymous'; addressHash: string }
  | { kind: 'key'; key: ApiKeyRecord; keyHash: string };

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity;
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
      return `v6:${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
    }
  }
  return `other:${bare}`;
}

/** HMAC-SHA256 hex of the address unit under the salt: the only form an address is kept in. */
export function hashAddress(ip: string, salt: string): string {
  return createHmac('sha256', salt).update(addressUnit(ip)).digest('hex');
}

/** The presented key, if any: `X-API-Key` first, else `Authorization: Bearer`. */
export function presentedKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  const direct = (Array.isArray(header) ? header[0] : header)?.trim();
  if (direct) return direct;
  const auth = request.headers.authorization;
  const match = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  return match ? match[1] : null;
}

export default fp(
  async function auth(app: FastifyInstance) {
    app.decorateRequest('identity', null as never);
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.url?.startsWith('/v1/admin')) {
        request.identity = { kind: 'anonymous', addressHash: hashAddress(request.ip, app.ipHashSalt) };
        return;
      }
      const key = presentedKey(request);
      if (key === null) {
        request.identity = { kind: 'anonymous', addressHash: hashAddress(request.ip, app.ipHashSalt) };
        return;
      }
      if (!looksLikeApiKey(key)) throw new HttpError(401, 'Invalid API key');
      const keyHash = hashApiKey(key);
      const record = await app.state.findKeyByHash(keyHash);
      if (!record || !hashesEqual(record.keyHash, keyHash)) throw new HttpError(401, 'Invalid API key');
      if (record.status !== 'active') throw new HttpError(401, 'API key has been revoked');
      request.identity = { kind: 'key', key: record, keyHash };
    });
  },
  { name: 'auth', dependencies: ['state'] },
);
