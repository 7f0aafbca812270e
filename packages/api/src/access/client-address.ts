// The client's address as the anonymous limit sees it. Fastify's `request.ip`
// is the socket address, or with TRUST_PROXY the first untrusted hop of
// X-Forwarded-For: text a proxy (or, misconfigured, a client) wrote. It is
// normalised here before it is hashed: a port (`192.0.2.1:5678`,
// `[2001:db8::1]:443`) and an IPv6 zone are dropped, and anything that is
// still not an IP address is refused, so junk never becomes a bucket of its
// own (a fresh anonymous allowance per forged value).
import { isIP } from 'node:net';

/** The bare IP address in `raw`, or null when it holds none. */
export function normaliseAddress(raw: string | undefined | null): string | null {
  if (!raw) return null;
  let text = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  text = text.replace(/%[\w.-]+$/, '');
  return isIP(text) ? text.toLowerCase() : null;
}
