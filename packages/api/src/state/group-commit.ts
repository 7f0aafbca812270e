// Group commit: the writes of many requests in ONE transaction.
//
// Why: a paid call writes its usage event, spend and meter-outbox row before
// its answer is sent (so nothing answered is ever lost). One transaction per
// call costs one fsync (SQLite WAL commit) or one commit round trip
// (PostgreSQL) per call, and on SQLite every call also queues for the single
// writer. Committing the writes of every request that arrives while the
// previous commit runs (or within `windowMs`) in one transaction pays that
// cost once per batch instead of once per call.
//
// The guarantee is unchanged: `submit` resolves only after the transaction
// holding its write has committed, and the caller sends its answer only then.
// A crash loses only writes whose requests were not yet answered.
//
// Writes of one kind can also be merged (`submitMerged`): the batch hands all
// of them to one `writeAll` call, so that e.g. 30 usage events become one
// multi-row insert rather than 30 statements (one round trip each on PostgreSQL).
//
// How: writes queue; a batch starts when the queue reaches `maxBatch`, or
// `windowMs` after the first write of an idle queue, and never while another
// batch of this process is committing (writes arriving meanwhile form the
// next batch, so batches grow with load by themselves). A batch whose
// transaction fails is retried one write per transaction, so one bad write
// cannot fail the others; each caller gets its own write's outcome. When the
// store is unreachable (StateUnavailableError) every caller of the batch gets
// that error at once (callers answer 503 or degrade as they decided).
// `drain()` (the app's onClose) commits everything queued.
import type { Repositories } from './store.ts';
import { StateUnavailableError } from './sql.ts';

export type Write<R> = (tx: Repositories) => Promise<R>;

/** Writes of one kind that a batch performs together: `writeAll` returns one result per item, in order. */
export interface Mergeable<D, R> {
  writeAll(tx: Repositories, items: readonly D[]): Promise<R[]>;
}

/**
 * Measured (docs/performance.md, "Profiles"): the first write of an
 * idle queue waits 1 ms for company; a batch commits at once when it holds 64
 * writes; under load, batches form by themselves while the previous one commits.
 */
export const GROUP_COMMIT_DEFAULTS: GroupCommitOptions = { windowMs: 1, maxBatch: 64 };

export interface GroupCommitOptions {
  /** How long the first write of an idle queue waits for others (0: until the current tick's I/O is done). */
  windowMs: number;
  /** A batch commits as soon as it holds this many writes. */
  maxBatch: number;
}

interface Pending {
  /** A write of its own … */
  write: Write<unknown> | null;
  /** … or an item of a mergeable kind. */
  merge: { kind: Mergeable<unknown, unknown>; item: unknown } | null;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** Perform a batch in one transaction: writes of their own in order, then each mergeable kind in one call. */
async function perform(tx: Repositories, batch: readonly Pending[]): Promise<unknown[]> {
  const results: unknown[] = new Array(batch.length);
  const kinds = new Map<Mergeable<unknown, unknown>, number[]>();
  for (const [i, p] of batch.entries()) {
    if (p.write) results[i] = await p.write(tx);
    else {
      const at = kinds.get(p.merge!.kind) ?? [];
      at.push(i);
      kinds.set(p.merge!.kind, at);
    }
  }
  for (const [kind, at] of kinds) {
    const out = await kind.writeAll(
      tx,
      at.map((i) => batch[i].merge!.item),
    );
    at.forEach((i, j) => (results[i] = out[j]));
  }
  return results;
}

/** What runs a batch: `atomically` of the state store. */
type Atomically = <T>(fn: (tx: Repositories) => Promise<T>) => Promise<T>;

export class GroupCommit {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  private committing: Promise<void> | null = null;
  /** Batches committed and writes in them since start (for tests and metrics). */
  readonly stats = { batches: 0, writes: 0, largestBatch: 0 };

  private readonly atomically: Atomically;
  private readonly options: GroupCommitOptions;

  constructor(atomically: Atomically, options: GroupCommitOptions) {
    this.atomically = atomically;
    this.options = options;
  }

  /** Queue `write`; resolves with its result once the transaction holding it has committed. */
  submit<R>(write: Write<R>): Promise<R> {
    return this.enqueue<R>(write, null);
  }

  /** Queue `item` of a mergeable kind; resolves with its result once committed. */
  submitMerged<D, R>(kind: Mergeable<D, R>, item: D): Promise<R> {
    return this.enqueue<R>(null, { kind: kind as Mergeable<unknown, unknown>, item });
  }

  private enqueue<R>(write: Write<unknown> | null, merge: Pending['merge']): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ write, merge, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Writes queued and not yet committing. */
  get backlog(): number {
    return this.queue.length;
  }

  /** Commit everything queued (and wait for the batch committing now). */
  async drain(): Promise<void> {
    while (this.committing || this.queue.length) {
      if (this.committing) await this.committing;
      else this.flush();
    }
  }

  private schedule(): void {
    if (this.committing) return; // the batch that follows it takes this write
    if (this.queue.length >= this.options.maxBatch) {
      this.flush();
      return;
    }
    if (this.timer) return;
    const fire = () => {
      this.timer = null;
      this.flush();
    };
    this.timer = this.options.windowMs > 0 ? setTimeout(fire, this.options.windowMs) : setImmediate(fire);
  }

  private flush(): void {
    if (this.timer) {
      clearTimeout(this.timer as NodeJS.Timeout);
      clearImmediate(this.timer as NodeJS.Immediate);
      this.timer = null;
    }
    if (this.committing || !this.queue.length) return;
    const batch = this.queue.splice(0, this.options.maxBatch);
    this.committing = this.commit(batch).finally(() => {
      this.committing = null;
      // Writes that queued during that commit have waited long enough: commit them now.
      if (this.queue.length) this.flush();
    });
  }

  private async commit(batch: Pending[]): Promise<void> {
    this.stats.batches++;
    this.stats.writes += batch.length;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
    let results: unknown[];
    try {
      results = await this.atomically((tx) => perform(tx, batch));
    } catch (err) {
      // The store is unreachable (or one write alone failed): every caller gets the error now;
      // retrying each write would only wait for the store again, once per write.
      if (batch.length === 1 || err instanceof StateUnavailableError) {
        for (const p of batch) p.reject(err);
        return;
      }
      // One write failed and took its batch with it: give each its own transaction.
      for (const p of batch) await this.atomically(async (tx) => (await perform(tx, [p]))[0]).then(p.resolve, p.reject);
      return;
    }
    batch.forEach((p, i) => p.resolve(results[i]));
  }
}
