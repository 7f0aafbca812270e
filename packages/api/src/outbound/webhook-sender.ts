// One webhook delivery attempt: POST the stored body, signed, to the
// endpoint, through the address guard (target.ts), with no redirects. 2xx is
// delivered; anything else (status, refusal, deadline, connection error) is a
// failure the worker retries.
//
// What a receiver can hold is bounded (issue 24, M1):
// - a hard deadline per attempt (`timeoutMs`), however the receiver trickles
//   its answer (a byte of header every few seconds resets an idle timeout, not
//   this): at the deadline the request is destroyed;
// - the answer's body is never read: once the status is known the response
//   and its socket are destroyed, so a receiver streaming a body forever
//   holds nothing; sockets are never pooled (no agent);
// - `signal` aborts the attempt at once (the worker's shutdown or the end of
//   its pass): the result says `aborted`, which is not the receiver's failure.
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
  /** True when `signal` ended the attempt (shutdown, end of the pass): not an attempt of the receiver's. */
  aborted?: boolean;
  /** True when the deadline ended the attempt. */
  timedOut?: boolean;
}

export interface SendOptions {
  allowPrivate: boolean;
  /** Hard deadline of the whole attempt: connection, request and the answer's status line and headers. */
  timeoutMs: number;
  userAgent: string;
  now?: Date;
  signal?: AbortSignal;
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
  if (options.signal?.aborted) return Promise.resolve({ ok: false, status: null, error: 'aborted', aborted: true });
  const timestamp = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const body = Buffer.from(delivery.payload, 'utf8');
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let req: http.ClientRequest | null = null;
    const onAbort = () => finish({ ok: false, status: null, error: 'aborted', aborted: true });
    const deadline = setTimeout(
      () => finish({ ok: false, status: null, error: `no answer within ${options.timeoutMs} ms`, timedOut: true }),
      options.timeoutMs,
    );
    function finish(r: SendResult): void {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onAbort);
      // Whatever the receiver still sends or holds open is dropped with the socket.
      req?.destroy();
      resolve(r);
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req = client.request(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: guardedLookup(options.allowPrivate) as never,
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': options.userAgent,
          connection: 'close',
          [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(secret, delivery.payload, timestamp),
          'jpsp-delivery-id': delivery.id,
          'jpsp-event': delivery.eventType,
        },
      },
      (res) => {
        // Only the status counts: the body is not read, the response is destroyed now.
        const status = res.statusCode ?? 0;
        res.on('error', () => undefined);
        res.destroy();
        finish(status >= 200 && status < 300 ? { ok: true, status, error: null } : { ok: false, status, error: `HTTP ${status}` });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      finish({ ok: false, status: null, error: err.message.startsWith('refused:') ? err.message : `connection failed (${err.code ?? 'error'})` });
    });
    req.end(body);
  });
}
