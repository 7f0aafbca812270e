// API keys: `am_` + 40 random base62 characters (≈238 bits). Only the SHA-256
// hex of a key is stored, with a short visible prefix for people and logs.
import { randomInt } from 'node:crypto';
import { sha256Hex } from '../lib/hash.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PREFIX = 'am_';
const RANDOM_LENGTH = 40;
/** Visible part: `am_` plus 8 characters. */
export const VISIBLE_PREFIX_LENGTH = KEY_PREFIX.length + 8;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{32,128}$`);

/** Uniform random string over `alphabet` (rejection-free: randomInt is unbiased). */
export function randomString(length: number, alphabet = BASE62): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

export function keyPrefix(key: string): string {
  return key.slice(0, VISIBLE_PREFIX_LENGTH);
}

/** A new key, its hash and its visible prefix. Show `key` once; store the rest. */
export function generateApiKey(): { key: string; hash: string; prefix: string } {
  const key = KEY_PREFIX + randomString(RANDOM_LENGTH);
  return { key, hash: hashApiKey(key), prefix: keyPrefix(key) };
}

/** Whether a presented string has the shape of one of our keys (cheap pre-check before any lookup). */
export function looksLikeApiKey(candidate: string): boolean {
  return KEY_PATTERN.test(candidate);
}
