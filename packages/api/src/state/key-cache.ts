// A bounded cache of API key records by key hash, so that a call with a key
// needs no store read (issue 9 §3).
//
// Freshness, the rule that matters: a revoked key answers 401
// - at once in the process that revoked it: the store announces every
//   committed change to a key with the keys' hashes (StateStore.onKeysChanged)
//   and the cache drops those keys;
// - within `pollMs` (+ two poll queries) in every other process or replica:
//   every change to a key stamps the key with the next 'keys' generation and
//   moves the generation row to it, in the same transaction; each cache reads
//   that one row every `pollMs` and, when it moved, the hashes of the keys
//   changed since it last looked, and drops those. One mechanism for SQLite
//   and PostgreSQL, no extra connection, works behind a transaction-pooling
//   proxy (docs/decisions/0107-key-cache.md);
// - and, should polling fail (the store unreachable), no entry is used after
//   `ttlMs`: it is read again.
// Only the changed keys are dropped (issue 24, L6): a key whose owner toggles
// its cap a thousand times costs every other cached key nothing.
// Money never depends on this bound: the monthly cap is read from the store
// where the spend is reserved (plugins/limits.ts), not from the cached record.
// Unknown keys are cached too (a client retrying a wrong key costs no read),
// in a separate, smaller LRU for `negativeTtlMs`: a key issued later is a
// change to its hash, so it is never refused for longer than the poll.
// Both maps are LRUs of fixed size: memory is bounded whatever callers send.
import type { ApiKeyRecord } from './repositories/keys.ts';
import type { StateStore } from './store.ts';
import { Lru } from '../lib/lru.ts';

export interface KeyCacheOptions {
  /** Most key records kept. */
  maxEntries: number;
  /** Most unknown key hashes kept. */
  maxNegative: number;
  /** Poll interval of the store's key generation: the bound on cross-process staleness. */
  pollMs: number;
  /** No entry is used longer than this, polled or not. */
  ttlMs: number;
  /** How long an unknown key is remembered. */
  negativeTtlMs: number;
}

export const KEY_CACHE_DEFAULTS: KeyCacheOptions = { maxEntries: 10_000, maxNegative: 1_000, pollMs: 250, ttlMs: 30_000, negativeTtlMs: 5_000 };

/** An entry of the key cache: the value and when it was read. */
interface Stamped<V> {
  value: V;
  at: number;
}

/** The entry of `key` in `lru` when it is at most `maxAgeMs` old; an older one is dropped. */
function unexpired<V>(lru: Lru<string, Stamped<V>>, key: string, maxAgeMs: number, now: number): V | undefined {
  const hit = lru.get(key);
  if (!hit) return undefined;
  if (now - hit.at > maxAgeMs) {
    lru.delete(key);
    return undefined;
  }
  return hit.value;
}

export class KeyCache {
  private readonly known: Lru<string, Stamped<ApiKeyRecord>>;
  private readonly unknown: Lru<string, Stamped<true>>;
  /**
   * Bumped by every drop: a read that started before a drop of its key (or
   * of everything) must not fill the cache with what it read.
   */
  private epoch = 0;
  /** The epoch of the last drop of everything. */
  private clearedAt = 0;
  /** The epoch at which each recently dropped key was dropped (bounded: past maxEntries it becomes a drop of everything). */
  private readonly droppedAt = new Map<string, number>();
  /** Reads in progress: when none is, no drop needs remembering. */
  private reading = 0;
  private generation: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private readonly unsubscribe: () => void;
  readonly stats = { hits: 0, misses: 0, clears: 0, drops: 0 };

  private readonly store: StateStore;
  private readonly options: KeyCacheOptions;

  constructor(store: StateStore, options: KeyCacheOptions = KEY_CACHE_DEFAULTS) {
    this.store = store;
    this.options = options;
    this.known = new Lru(options.maxEntries);
    this.unknown = new Lru(options.maxNegative);
    this.unsubscribe = store.onKeysChanged((hashes) => this.forget(hashes));
  }

  /** Start polling the store's key generation (until `close`). */
  async start(): Promise<void> {
    this.generation = await this.store.keys.generation();
    this.timer = setInterval(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe();
    this.clear();
  }

  /** The key record of `keyHash` (any status), or null when no key has it. */
  async find(keyHash: string): Promise<ApiKeyRecord | null> {
    const now = Date.now();
    const hit = unexpired(this.known, keyHash, this.options.ttlMs, now);
    if (hit) {
      this.stats.hits++;
      return hit;
    }
    if (unexpired(this.unknown, keyHash, this.options.negativeTtlMs, now)) {
      this.stats.hits++;
      return null;
    }
    this.stats.misses++;
    const epoch = this.epoch;
    this.reading++;
    let record: ApiKeyRecord | null;
    try {
      record = await this.store.keys.findByHash(keyHash);
    } catch (err) {
      if (--this.reading === 0) this.droppedAt.clear();
      throw err;
    }
    // Dropped (or everything cleared) while this read was on its way: what it read may be stale.
    const dropped = this.droppedAt.get(keyHash);
    const fresh = this.clearedAt <= epoch && (dropped === undefined || dropped <= epoch);
    if (--this.reading === 0) this.droppedAt.clear();
    if (fresh) {
      if (record) this.known.set(keyHash, { value: record, at: now });
      else this.unknown.set(keyHash, { value: true, at: now });
    }
    return record;
  }

  /** Forget these keys (they changed). */
  forget(keyHashes: readonly string[]): void {
    this.epoch++;
    this.stats.drops++;
    for (const hash of keyHashes) {
      this.known.delete(hash);
      this.unknown.delete(hash);
      if (this.reading > 0) this.droppedAt.set(hash, this.epoch);
    }
    if (this.droppedAt.size > this.options.maxEntries) this.clear();
  }

  /** Forget everything. */
  clear(): void {
    this.epoch++;
    this.clearedAt = this.epoch;
    this.droppedAt.clear();
    this.stats.clears++;
    this.known.clear();
    this.unknown.clear();
  }

  get size(): number {
    return this.known.size + this.unknown.size;
  }

  /**
   * Read the generation; when another process changed keys, forget those
   * keys. A call while a poll is running waits for that one. Failures keep
   * the cache (ttlMs bounds it).
   */
  poll(): Promise<void> {
    this.polling ??= this.readGeneration().finally(() => (this.polling = null));
    return this.polling;
  }

  private async readGeneration(): Promise<void> {
    try {
      const generation = await this.store.keys.generation();
      if (generation === this.generation) return;
      const seen = this.generation;
      // Changes are stamped with their generation: those after the last one seen are the keys to forget.
      const changed = seen === null ? null : await this.store.keys.changedSince(seen, this.options.maxEntries);
      if (changed === null) this.clear();
      else this.forget(changed);
      this.generation = generation;
    } catch {
      // The store is unreachable: entries still expire after ttlMs.
    }
  }
}
