// How long the cluster primary waits before it restarts a worker that
// exited: a worker that crashes now and then is back at once, one that
// crashes in a loop (a bad deploy, a store that refuses connections) is
// restarted less and less often instead of spinning. Pure: the caller
// passes the clock.

export interface RespawnOptions {
  /** Wait after the first crash in a window (default 500 ms); doubled for each further crash in it. */
  baseMs?: number;
  /** Longest wait (default 30 s). */
  maxMs?: number;
  /** Crashes older than this are forgotten (default 60 s). */
  windowMs?: number;
}

export class RespawnBackoff {
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly windowMs: number;
  private crashes: number[] = [];

  constructor(options: RespawnOptions = {}) {
    this.baseMs = options.baseMs ?? 500;
    this.maxMs = options.maxMs ?? 30_000;
    this.windowMs = options.windowMs ?? 60_000;
  }

  /** Record a worker exit at `now` (ms) and return the wait before its replacement starts. */
  delayAfterCrash(now: number): number {
    this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
    this.crashes.push(now);
    return Math.min(this.maxMs, this.baseMs * 2 ** (this.crashes.length - 1));
  }
}
