// A polite JSON client for public source APIs (jGrants, e-Gov): at most
// `rate` requests per second, retries with exponential backoff on 429, 5xx
// and network errors (a Retry-After in seconds or as an HTTP date is
// honoured), and a per-request timeout. Other 4xx are not retried: they are
// the caller's mistake or a record that does not exist.

export interface PoliteClientOptions {
  /** Requests per second at most (0: no pacing). */
  rate: number;
  /** Retries of one request after the first attempt. */
  maxRetries: number;
  /** First backoff in ms, doubled per retry (capped at maxBackoffMs). */
  backoffMs?: number;
  maxBackoffMs?: number;
  timeoutMs?: number;
  /** Hears every retry (the CLI prints it). */
  onRetry?: (info: { url: string; attempt: number; waitMs: number; reason: string }) => void;
  /** Injected for tests of the pacing; defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

export class SourceHttpError extends Error {
  readonly status: number | null;
  readonly url: string;
  constructor(message: string, url: string, status: number | null) {
    super(message);
    this.url = url;
    this.status = status;
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export class PoliteClient {
  private readonly options: Required<Omit<PoliteClientOptions, 'onRetry'>> & Pick<PoliteClientOptions, 'onRetry'>;
  private nextSlot = 0;
  /** Requests sent (attempts, retries included). */
  requests = 0;

  constructor(options: PoliteClientOptions) {
    // `??`, not a spread: an option passed as undefined (the CLI's backoffMs) keeps its default.
    this.options = {
      rate: options.rate,
      maxRetries: options.maxRetries,
      backoffMs: options.backoffMs ?? 500,
      maxBackoffMs: options.maxBackoffMs ?? 60_000,
      timeoutMs: options.timeoutMs ?? 30_000,
      sleep: options.sleep ?? defaultSleep,
      onRetry: options.onRetry,
    };
  }

  /** Waits for the next free slot of the rate. */
  private async pace(): Promise<void> {
    if (this.options.rate <= 0) return;
    const interval = 1000 / this.options.rate;
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + interval;
    if (slot > now) await this.options.sleep(slot - now);
  }

  /** GET a JSON document; throws SourceHttpError when retries are exhausted or the answer is a non-retryable error. */
  async getJson(url: string): Promise<unknown> {
    const { maxRetries, backoffMs, maxBackoffMs, timeoutMs } = this.options;
    for (let attempt = 0; ; attempt++) {
      await this.pace();
      this.requests++;
      let reason: string;
      let waitMs: number | null = null;
      try {
        const res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
        if (res.ok) {
          const text = await res.text();
          try {
            return JSON.parse(text);
          } catch {
            throw new SourceHttpError(`${url}: answer is not JSON`, url, res.status);
          }
        }
        await res.body?.cancel();
        if (res.status !== 429 && res.status < 500) throw new SourceHttpError(`${url}: HTTP ${res.status}`, url, res.status);
        reason = `HTTP ${res.status}`;
        waitMs = retryAfterMs(res.headers.get('retry-after'));
      } catch (err) {
        if (err instanceof SourceHttpError) throw err;
        reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      }
      if (attempt >= maxRetries) throw new SourceHttpError(`${url}: gave up after ${attempt + 1} attempts (${reason})`, url, null);
      const wait = Math.min(maxBackoffMs, waitMs ?? backoffMs * 2 ** attempt);
      this.options.onRetry?.({ url, attempt: attempt + 1, waitMs: wait, reason });
      await this.options.sleep(wait);
    }
  }
}
