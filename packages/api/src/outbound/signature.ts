// Webhook signatures, in the scheme of the payment provider that signs the
// webhooks we receive: header `JPSP-Signature: t=<unix seconds>,v1=<hex>`
// where v1 = HMAC-SHA256(secret, `${t}.${body}`). A receiver recomputes v1
// over the raw body, compares in constant time and rejects an old `t`.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'JPSP-Signature';

export function signatureHeader(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** Receiver side (for our tests and the README): true when `header` signs `body` with `secret` within `toleranceSeconds` of `now`. */
export function verifySignature(secret: string, body: string, header: string, toleranceSeconds = 300, now = Date.now()): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(now / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureHeader(secret, body, t).split('v1=')[1]);
  const given = Buffer.from(parts.v1);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
