// The orders a search can ask for, computed once per catalogue, so that no
// request sorts the whole catalogue with a comparator (issue 25 item 5: a
// browse of every programme by amount took ~60 ms of one event-loop turn).
//
// Each order is a permutation of the programmes (pids, in that order) and
// each programme's position in it. Then:
// - every programme in an order: the permutation itself, filtered;
// - some programmes (a text query's matches) in an order: their positions
//   sorted as integers (a typed array's native sort, no comparator call)
//   and read back through the permutation;
// - by relevance: by score, highest first, ties in browse order, placed
//   with one native sort of the scores and a binary search per programme.
// Every order ends with the browse rank (excluded, tier, primary_name, pid),
// the contract's order without q, so each is total (cursors resume exactly).
import type { SearchIndex } from './index.ts';

/** A permutation of the programmes and the position of each pid in it (-1: not a programme). */
export interface Order {
  readonly pids: Int32Array;
  readonly position: Int32Array;
}

function orderOf(index: SearchIndex, pids: Int32Array): Order {
  const position = new Int32Array(index.rows.length).fill(-1);
  pids.forEach((pid, i) => {
    position[pid] = i;
  });
  return { pids, position };
}

/**
 * Deadline order for `today`: open windows (end on or after today) soonest
 * first, then no deadline, then past windows latest first; browse order
 * within equal ends.
 */
function deadlineOrder(index: SearchIndex, byEnd: Int32Array, undated: Int32Array, today: string): Int32Array {
  const rows = index.rows;
  // byEnd: dated programmes by end ascending, browse order within one end.
  let split = 0;
  let hi = byEnd.length;
  while (split < hi) {
    const mid = (split + hi) >> 1;
    if ((rows[byEnd[mid]].windowEnd as string) < today) split = mid + 1;
    else hi = mid;
  }
  const out = new Int32Array(byEnd.length + undated.length);
  out.set(byEnd.subarray(split), 0);
  out.set(undated, byEnd.length - split);
  // Past ends latest first, each end's programmes still in browse order.
  let at = byEnd.length - split + undated.length;
  for (let end = split; end > 0; ) {
    let start = end - 1;
    while (start > 0 && rows[byEnd[start - 1]].windowEnd === rows[byEnd[end - 1]].windowEnd) start--;
    out.set(byEnd.subarray(start, end), at);
    at += end - start;
    end = start;
  }
  return out;
}

/** A programme's day in the deadline calendar: its window's last day, else its first, else null. */
export function eventDay(index: SearchIndex, pid: number): string | null {
  const r = index.rows[pid];
  return r.windowEnd ?? r.windowStart;
}

export class CatalogueOrders {
  readonly browse: Order;
  readonly name: Order;
  readonly amount: Order;
  /**
   * The deadline calendar's order (calendar/deadlines.ts): programmes with a
   * window day, by that day (the last, else the first), then unified_id.
   */
  readonly events: Order;
  private readonly byEnd: Int32Array;
  private readonly undated: Int32Array;
  private readonly index: SearchIndex;
  /** The deadline order of the last day asked for (it changes once a day). */
  private deadlineCache: { today: string; order: Order } | null = null;
  /** Work done: orders of the whole catalogue built (once each, and once a day for deadlines). */
  readonly work = { ordersBuilt: 0 };

  constructor(index: SearchIndex) {
    this.index = index;
    const rows = index.rows;
    const browse = index.browseOrder;
    this.browse = orderOf(index, browse);
    // Sorted once here, with comparators; never per request.
    const byBrowse = (a: number, b: number) => rows[a].browseRank - rows[b].browseRank;
    this.name = orderOf(
      index,
      Int32Array.from(browse).sort((a, b) => rows[a].nameRank - rows[b].nameRank),
    );
    // Largest upper amount first; unknown amounts last.
    this.amount = orderOf(
      index,
      Int32Array.from(browse).sort((a, b) => (rows[b].amountMax ?? -1) - (rows[a].amountMax ?? -1) || byBrowse(a, b)),
    );
    this.byEnd = Int32Array.from(browse.filter((pid) => rows[pid].windowEnd !== null)).sort((a, b) => {
      const x = rows[a].windowEnd as string;
      const y = rows[b].windowEnd as string;
      return x < y ? -1 : x > y ? 1 : byBrowse(a, b);
    });
    this.undated = browse.filter((pid) => rows[pid].windowEnd === null);
    this.events = orderOf(
      index,
      Int32Array.from(browse.filter((pid) => eventDay(index, pid) !== null)).sort((a, b) => {
        const x = eventDay(index, a) as string;
        const y = eventDay(index, b) as string;
        const [u, v] = [rows[a].unifiedId, rows[b].unifiedId];
        return x < y ? -1 : x > y ? 1 : u < v ? -1 : u > v ? 1 : 0;
      }),
    );
    this.work.ordersBuilt += 4;
  }

  deadline(today: string): Order {
    if (this.deadlineCache?.today !== today) {
      this.deadlineCache = { today, order: orderOf(this.index, deadlineOrder(this.index, this.byEnd, this.undated, today)) };
      this.work.ordersBuilt++;
    }
    return this.deadlineCache.order;
  }
}

/** `pids` (programmes of `order`) in that order: their positions sorted as integers, read back through the permutation. */
export function inOrder(order: Order, pids: ArrayLike<number>): Int32Array {
  const positions = new Int32Array(pids.length);
  for (let i = 0; i < pids.length; i++) positions[i] = order.position[pids[i]];
  positions.sort();
  for (let i = 0; i < positions.length; i++) positions[i] = order.pids[positions[i]];
  return positions;
}

/** 2^21: above any programme's position or a list's length (a catalogue of two million programmes). */
const SLOT = 2 ** 21;

/**
 * `pids` by `scores` (same positions), highest first, ties in browse order:
 * the pids put in browse order (browse position and list index packed in
 * one number, sorted natively), then each placed, in that order, at the
 * first free slot of its score's run in the scores sorted descending.
 */
export function byScore(browse: Order, pids: ArrayLike<number>, scores: Float64Array): { pids: Int32Array; scores: Float64Array } {
  const n = pids.length;
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) packed[i] = browse.position[pids[i]] * SLOT + i;
  packed.sort();
  const ascending = Float64Array.from(scores).sort();
  const outPids = new Int32Array(n);
  const outScores = new Float64Array(n);
  // filled[start]: how many of the run of one score, starting at `start`, are placed.
  const filled = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const i = packed[k] % SLOT;
    const score = scores[i];
    // The run of `score` starts after every higher score: n - (first index above `score` in ascending order).
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ascending[mid] <= score) lo = mid + 1;
      else hi = mid;
    }
    const start = n - lo;
    const slot = start + filled[start]++;
    outPids[slot] = pids[i];
    outScores[slot] = score;
  }
  return { pids: outPids, scores: outScores };
}
