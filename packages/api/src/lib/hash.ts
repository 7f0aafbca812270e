// SHA-256 as lowercase hex, the one form in which secrets (API keys, device
// codes, referral tokens) are stored and content is fingerprinted, and the
// constant-time comparison of two such hashes.
import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 of the UTF-8 bytes of `text`, as 64 lowercase hex characters. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Constant-time equality of two hex hashes. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The ETag of a response body: weak (RFC 9110: the representations differ only
 * by content coding, compression runs after it), a SHA-1 of the identity body.
 * Not a secret, only a fingerprint; computed once per cached body where the
 * read path caches bodies (http/answers.ts), else per response.
 */
export function etagFor(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
}
