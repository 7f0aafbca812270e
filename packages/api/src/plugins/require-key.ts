// Route-level guard for the account paths: the caller must have presented a
// valid key (the auth hook already answered 401 for a bad one).
import type { FastifyRequest } from 'fastify';
import type { Identity } from './auth.ts';
import { HttpError } from './errors.ts';

export type KeyIdentity = Extract<Identity, { kind: 'key' }>;

export function requireKey(request: FastifyRequest): KeyIdentity {
  const identity = request.identity;
  if (identity?.kind !== 'key') {
    throw new HttpError(401, 'An API key is required: send it in X-API-Key or Authorization: Bearer');
  }
  return identity;
}
