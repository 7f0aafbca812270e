// One-time secrets at rest: a key issued by a webhook waits, encrypted, for its
// single reveal through POST /v1/billing/keys/from-checkout. AES-256-GCM under
// a key derived (HKDF-SHA256) from SERVER_SECRET, or from a random secret
// persisted in the state store on first use so every replica shares it. The
// associated data binds a sealed value to its purpose and subject (e.g. the
// subscription id), so a stash cannot be replayed under another row.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { StateStore } from '../state/store.ts';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SealError extends Error {}

/** A 32-byte AES key for `purpose`, derived from the server secret. */
export function deriveKey(serverSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(serverSecret, 'utf8'), Buffer.alloc(0), `jpsp:${purpose}`, 32));
}

/** The server secret: SERVER_SECRET, else a random one persisted in the state store (first writer wins). */
export async function serverSecret(configured: string | null, store: Pick<StateStore, 'settings'>): Promise<string> {
  return configured ?? (await store.settings.getOrCreate('server_secret', () => randomBytes(32).toString('base64url')));
}

/** `v1.<iv>.<ciphertext>.<tag>` (base64url parts). */
export function seal(key: Buffer, plaintext: string, associatedData: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** Inverse of `seal`; throws SealError when the value was altered, sealed under another key or for other data. */
export function unseal(key: Buffer, sealed: string, associatedData: string): string {
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SealError('unrecognised sealed value');
  const [, ivText, ctText, tagText] = parts;
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SealError('unrecognised sealed value');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(ctText, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SealError('sealed value failed authentication');
  }
}
