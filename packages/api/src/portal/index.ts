// The developer portal: four pages served by the API server itself, each in
// Japanese or in English (`?lang=`, then Accept-Language: language.ts), with
// their assets (assets.ts). Registered with one
// line in app.ts. Every route here is declared `public` and not counted:
// loading a page never takes a caller's API allowance (the API calls the
// pages then make are counted as any call is). Hidden from the OpenAPI
// document: these are not part of the JSON API.
//
//   GET /         landing page: what the service is, counts, examples  (pages/landing.ts)
//   GET /docs     API reference with try-it requests (Swagger UI)      (pages/docs.ts)
//   GET /explore  programme search, details, exclusion check           (pages/explore.ts)
//   GET /account  session login, usage, spend cap, invoices            (pages/account.ts)
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadAssets } from './assets.ts';
import { etagFor } from '../lib/hash.ts';
import { landingPage } from './pages/landing.ts';
import { docsPage } from './pages/docs.ts';
import { explorePage } from './pages/explore.ts';
import { accountPage } from './pages/account.ts';

/**
 * What a page may load and where it may send requests: this server only. No
 * inline script (page data rides in `<script type="application/json">`
 * blocks, which are not executed), no framing, forms post here only.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

type PageRenderer = (app: FastifyInstance, request: FastifyRequest) => string;

const PAGES: [path: string, render: PageRenderer, cacheControl: string][] = [
  ['/', landingPage, 'no-cache'],
  ['/docs', docsPage, 'no-cache'],
  ['/explore', explorePage, 'no-cache'],
  // The account page holds nothing private (its data comes from /v1/me*), but it is never worth caching.
  ['/account', accountPage, 'no-store'],
];

/** Whether an Accept-Encoding header takes br (with a q above 0). */
export function acceptsBrotli(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [coding, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return coding === 'br' && (!q || Number(q.slice(2)) > 0);
  });
}

const PORTAL_ROUTE = { config: { access: 'public' }, schema: { hide: true } } as const;

export default async function portal(app: FastifyInstance): Promise<void> {
  for (const [url, asset] of loadAssets()) {
    const tag = asset.brotli ? etagFor(asset.body) : null;
    app.get(url, PORTAL_ROUTE, async (request, reply: FastifyReply) => {
      reply.headers(SECURITY_HEADERS).type(asset.type).header('cache-control', asset.cacheControl);
      const brotli = asset.brotli && acceptsBrotli(request.headers['accept-encoding']) ? asset.brotli.get(asset.body) : null;
      // Already compressed: the compression plugin passes it on; the tag is the identity body's, as for any answer.
      if (brotli && tag) return reply.header('content-encoding', 'br').header('vary', 'accept-encoding').header('etag', tag).send(brotli);
      return reply.send(asset.body);
    });
  }
  for (const [url, render, cacheControl] of PAGES) {
    app.get(url, PORTAL_ROUTE, async (request, reply) =>
      reply
        .headers(SECURITY_HEADERS)
        .type('text/html; charset=utf-8')
        .header('cache-control', cacheControl)
        // Without `?lang=` the language comes from this header.
        .header('vary', 'Accept-Language')
        .send(render(app, request)),
    );
  }
}
