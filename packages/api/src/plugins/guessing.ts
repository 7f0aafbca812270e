// Guessing a key does not pay (issue 24, L4 and L5): a wrong API key at
// POST /v1/session and a wrong admin key count against the caller's address
// (its hash, as for the anonymous limit) for the current UTC hour, in the
// state store's atomic counters (exact across workers and replicas). Past
// AUTH_FAILURE_LIMIT that address gets 429 until the hour ends, whatever key
// it sends, a right one included: a guesser learns nothing more. Other
// addresses are not affected; a right key is never a failure.
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';
import { secondsUntil } from '../lib/time.ts';

const SCOPE = 'auth-failures';

/** A take that always succeeds: failures are counted past the limit too (within PostgreSQL's INTEGER). */
const UNCAPPED = 2_000_000_000;

/** Answers that say the key was wrong. */
const WRONG = new Set([401, 403]);

/**
 * Run `attempt` (a check of a presented key) unless the caller's address
 * (`addressHash`, plugins/auth.ts `addressHashOf`) is past its failures this
 * hour (429); count it when the key is refused.
 */
export async function guarded<T>(app: FastifyInstance, addressHash: string | null, attempt: () => T | Promise<T>): Promise<T> {
  const subject = addressHash ?? 'unknown';
  const now = new Date();
  const hour = now.toISOString().slice(0, 13);
  const limit = app.config.authFailureLimit;
  if ((await app.state.counters.peek(SCOPE, subject, hour)) >= limit) {
    const resetsAt = new Date(`${hour}:00:00.000Z`);
    resetsAt.setUTCHours(resetsAt.getUTCHours() + 1);
    throw new HttpError(
      429,
      `Too many wrong keys from this address (${limit} an hour); try again after ${resetsAt.toISOString().slice(11, 16)} UTC.`,
      { limit },
      { 'Retry-After': String(secondsUntil(resetsAt, now)) },
    );
  }
  try {
    return await attempt();
  } catch (err) {
    if (err instanceof HttpError && WRONG.has(err.statusCode)) await app.state.counters.take(SCOPE, subject, hour, UNCAPPED);
    throw err;
  }
}
