// The salt client addresses are hashed with changes every Japan-time day: it
// is derived from the master secret (IP_HASH_SALT) and the day, so every
// replica and worker agrees on it without talking to the others, and the
// anonymous limit, which is per Japan-time day anyway, keeps working. A hash
// stored on one day cannot be linked to the same address on another day, nor
// recomputed from the store alone (the master is not in it in production).
import { createHmac } from 'node:crypto';
import { jstDate } from '../lib/time.ts';

/** The salt of Japan-time day `day` (YYYY-MM-DD) under `master`. */
export function daySalt(master: string, day: string): string {
  return createHmac('sha256', master).update(`address-salt:v1:${day}`).digest('hex');
}

/** `saltFor(now)`: the salt of the Japan-time day of `now`, computed once per day. */
export function dailySalts(master: string): (now?: Date) => string {
  let cached = { day: '', salt: '' };
  return (now = new Date()) => {
    const day = jstDate(now);
    if (cached.day !== day) cached = { day, salt: daySalt(master, day) };
    return cached.salt;
  };
}
