// Answers kept whole: a catalogue answer is a function of the catalogue file
// and the request, so its bytes, its ETag and its compressed forms are made
// once and sent many times. This is the read path's one HTTP layer: the
// catalogue hands out JSON text (catalog/programs/search.ts), and this keeps
// it as UTF-8 bytes with an ETag, compresses it once per coding, and sends it.
//
// The caches belong to one catalogue (a WeakMap keyed by the Catalog): a new
// catalogue (ingest, a hot swap) starts with empty caches, never a stale answer.
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Catalog } from '../catalog/catalog.ts';
import { Lru } from '../lib/lru.ts';
import { etagFor } from '../lib/hash.ts';
import { sendJsonText } from './serialization.ts';

/**
 * A cached answer: its body as UTF-8 bytes (encoded once: turning a long
 * Japanese string into bytes on every write was a visible share of a detail's
 * cost) and its ETag (hashed once, not per request).
 */
export interface CachedBody {
  body: Buffer;
  etag: string;
  /** The body compressed, per content coding, made on first need (encodedBody). */
  encoded?: Partial<Record<BodyEncoding, Buffer>>;
}

/** The content codings a cached body is kept in besides identity. */
export type BodyEncoding = 'br' | 'gzip';

/** Bodies smaller than this are sent as they are (@fastify/compress's threshold, app.ts, and the cached bodies'). */
export const COMPRESS_THRESHOLD = 1024;

/** The content codings the server offers, in its order of preference (app.ts). */
export const ENCODINGS = ['br', 'gzip', 'deflate'] as const;

/** Bytes of whole answers kept per catalogue (search pages; details). */
export const PAGE_CACHE_BYTES = 16_000_000;
export const DETAIL_CACHE_BYTES = 24_000_000;

export function cachedBody(text: string): CachedBody {
  const body = Buffer.from(text, 'utf8');
  return { body, etag: etagFor(body) };
}

/** Cache weight of an answer: its bytes, plus room for its compressed forms (a fifth to a third of it for JSON text). */
const answerWeight = (body: Buffer): number => Math.ceil(body.length * 1.5);

/** Bodies compressed so far in this process (tests: a repeat compresses nothing). */
export const compressionStats = { compressed: 0 };

/**
 * The body in `encoding`, compressed once and kept beside it: with the
 * settings @fastify/compress uses (brotli quality 4 in text mode, gzip's
 * default level), so a client that asks for br or gzip gets what it got before,
 * without the compression per response.
 */
export function encodedBody(cached: CachedBody, encoding: BodyEncoding): Buffer {
  cached.encoded ??= {};
  if (cached.encoded[encoding] === undefined) compressionStats.compressed++;
  cached.encoded[encoding] ??=
    encoding === 'br'
      ? brotliCompressSync(cached.body, { params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: 4 } })
      : gzipSync(cached.body);
  return cached.encoded[encoding];
}

/** The whole answers of one catalogue: search pages by a canonical key of the request, records by view and pid. */
export class AnswerCache {
  private readonly pages = new Lru<string, CachedBody>(PAGE_CACHE_BYTES);
  private readonly details = new Lru<string, CachedBody>(DETAIL_CACHE_BYTES);
  /** Work done (tests and the profile notes): pages built. */
  readonly stats = { pagesBuilt: 0 };

  /** The answer cached under `key`, else `build()`'s, kept (a build that throws keeps nothing). */
  page(key: string, build: () => string): CachedBody {
    let hit = this.pages.get(key);
    if (!hit) {
      hit = cachedBody(build());
      this.stats.pagesBuilt++;
      this.pages.set(key, hit, answerWeight(hit.body) + key.length);
    }
    return hit;
  }

  /** Records as whole answers by pid, each under `view`; `build` gives the JSON of the missing ones. */
  records(view: string, pids: readonly number[], build: (missing: number[]) => Map<number, string>): Map<number, CachedBody> {
    const out = new Map<number, CachedBody>();
    const missing: number[] = [];
    for (const pid of pids) {
      const hit = this.details.get(`${view}:${pid}`);
      if (hit) out.set(pid, hit);
      else missing.push(pid);
    }
    if (missing.length > 0) {
      for (const [pid, json] of build(missing)) {
        const hit = cachedBody(json);
        this.details.set(`${view}:${pid}`, hit, answerWeight(hit.body));
        out.set(pid, hit);
      }
    }
    return out;
  }
}

const caches = new WeakMap<Catalog, AnswerCache>();

/** The answer cache of a catalogue (made on first use; it goes with the catalogue). */
export function answersOf(catalog: Catalog): AnswerCache {
  let cache = caches.get(catalog);
  if (!cache) {
    cache = new AnswerCache();
    caches.set(catalog, cache);
  }
  return cache;
}

/**
 * The coding to answer in for an Accept-Encoding header: the offered one with
 * the highest q (ties in ENCODINGS order; `*` stands for any, x-gzip for gzip),
 * or null for none (identity).
 */
export function negotiateEncoding(header: string | undefined): (typeof ENCODINGS)[number] | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((x) => x.trim());
    const weight = params.find((p) => p.startsWith('q='));
    const value = weight === undefined ? 1 : Number(weight.slice(2));
    q.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(value) ? value : 0);
  }
  let best: (typeof ENCODINGS)[number] | null = null;
  let bestQ = 0;
  for (const e of ENCODINGS) {
    const weight = q.get(e) ?? q.get('*') ?? 0;
    if (weight > bestQ) {
      best = e;
      bestQ = weight;
    }
  }
  return best;
}

/**
 * Send a cached answer with its ETag, compressed once and kept when the client
 * asks for br or gzip (what @fastify/compress would have done per response;
 * it leaves a body that already has a Content-Encoding alone, and still
 * handles every other answer and deflate).
 */
export function sendCachedBody<
  R extends { type(t: string): unknown; header(k: string, v: string): unknown; getHeader(k: string): unknown; send(body: never): unknown },
>(request: { headers: Record<string, string | string[] | undefined> }, reply: R, cached: CachedBody): R {
  const accept = request.headers['accept-encoding'];
  const encoding =
    cached.body.length >= COMPRESS_THRESHOLD && request.headers['x-no-compression'] === undefined
      ? negotiateEncoding(typeof accept === 'string' ? accept : undefined)
      : null;
  if (encoding === 'br' || encoding === 'gzip') {
    const vary = reply.getHeader('vary');
    if (typeof vary !== 'string' || vary === '') reply.header('vary', 'accept-encoding');
    else if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) reply.header('vary', `${vary}, accept-encoding`);
    reply.header('content-encoding', encoding);
    return sendJsonText(reply, encodedBody(cached, encoding), cached.etag);
  }
  return sendJsonText(reply, cached.body, cached.etag);
}
