// Answers kept whole: a catalogue answer is a function of the catalogue file
// and the request, so its bytes, its ETag and its compressed forms are made
// once and sent many times. This is the read path's one HTTP layer: the
// catalogue hands out JSON text (catalog/programs/search.ts), and this keeps
// it as UTF-8 bytes with an ETag (a CachedBody, http/serialization.ts, which
// the route's handler sends); compression is the plugin's, which compresses
// the same Buffer once per coding (http/compression.ts).
//
// The caches belong to one catalogue (a WeakMap keyed by the Catalog): a new
// catalogue (ingest, a hot swap) starts with empty caches, never a stale answer.
import type { Catalog } from '../catalog/catalog.ts';
import { Lru } from '../lib/lru.ts';
import { etagFor } from '../lib/hash.ts';
import { DETAIL_CACHE_BYTES, PAGE_CACHE_BYTES } from '../lib/cache-budget.ts';
import { CachedBody } from './serialization.ts';

export { CachedBody };

export function cachedBody(text: string): CachedBody {
  const body = Buffer.from(text, 'utf8');
  return new CachedBody(body, etagFor(body));
}

/** Cache weight of an answer: its bytes, plus room for its compressed forms (a fifth to a third of it for JSON text). */
const answerWeight = (body: Buffer): number => Math.ceil(body.length * 1.5);

/** The whole answers of one catalogue: search pages by a canonical key of the request, records by view and pid. */
export class AnswerCache {
  private readonly pages = new Lru<string, CachedBody>(PAGE_CACHE_BYTES);
  private readonly details = new Lru<string, CachedBody>(DETAIL_CACHE_BYTES);
  /** Work done (tests and the profile notes): pages built. */
  readonly stats = { pagesBuilt: 0 };

  /** Bytes held (with room for the compressed forms), for /metrics. */
  get bytes(): { pages: number; details: number } {
    return { pages: this.pages.weight, details: this.details.weight };
  }

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
