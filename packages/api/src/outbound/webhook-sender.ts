// One webhook delivery attempt: POST the stored body, signed, to the
// endpoint, through the address guard (target.ts), with a time limit and no
// redirects. 2xx is delivered; anything else (status, refusal, timeout,
// connection error) is a failure the worker retries.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { SIGNATURE_HEADER, signatureHeader } from './signature.ts';
import { guardedLookup, isSpecialAddress } from './target.ts';

export interface SendResult {
  ok: boolean;
  status: number | null;
  /** What went wrong, in words fit for the endpoint's owner (no secret, no body). */
  error: string | null;
}

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  userAgent: string;
  now?: Date;
}

export function sendWebhook(
  target: string,
  delivery: { id: string; eventType: string; payload: string },
  secret: string,
  options: SendOptions,
): Promise<SendResult> {
  const url = new URL(target);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && (url.protocol !== 'https:' || (isIP(host) && isSpecialAddress(host)))) {
    return Promise.resolve({ ok: false, status: null, error: 'refused: the target is not a public https address' });
  }
  const timestamp = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const body = Buffer.from(delivery.payload, 'utf8');
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: SendResult) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup: guardedLookup(options.allowPrivate) as never,
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': options.userAgent,
          [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(secret, delivery.payload, timestamp),
          'jpsp-delivery-id': delivery.id,
          'jpsp-event': delivery.eventType,
        },
        timeout: options.timeoutMs,
      },
      (res) => {
        res.resume(); // the answer's body is not read: only its status counts
        res.on('end', () => undefined);
        const status = res.statusCode ?? 0;
        done(status >= 200 && status < 300 ? { ok: true, status, error: null } : { ok: false, status, error: `HTTP ${status}` });
      },
    );
    req.on('timeout', () => {
      req.destroy();
      done({ ok: false, status: null, error: `no answer within ${options.timeoutMs} ms` });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      done({ ok: false, status: null, error: err.message.startsWith('refused:') ? err.message : `connection failed (${err.code ?? 'error'})` });
    });
    req.end(body);
  });
}
