// The event-loop delay of our server's workers during one scenario: the
// server's /metrics (on METRICS_PORT, served by the cluster primary as the
// worst worker's figures) reports the delay since its previous scrape
// (packages/api/src/plugins/event-loop-delay.ts), so one scrape before the
// load starts the window and one after reads it.

export interface EventLoopDelay {
  /** Milliseconds. */
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

async function scrape(metricsUrl: string): Promise<string> {
  const res = await fetch(metricsUrl);
  if (!res.ok) throw new Error(`${metricsUrl} answered ${res.status}`);
  return await res.text();
}

/** The figures of one scrape's window. */
export async function readEventLoopDelay(metricsUrl: string): Promise<EventLoopDelay> {
  const text = await scrape(metricsUrl);
  const value = (pattern: RegExp): number => Number(pattern.exec(text)?.[1] ?? Number.NaN);
  const quantile = (q: string) => 1000 * value(new RegExp(`^jpsp_event_loop_delay_seconds\\{quantile="${q.replace('.', '\\.')}"\\} (\\S+)$`, 'm'));
  return { p50: quantile('0.5'), p99: quantile('0.99'), max: quantile('1'), samples: value(/^jpsp_event_loop_delay_samples (\S+)$/m) };
}

/** Runs `load` in a window of its own and returns its result and the event-loop delay during it. */
export async function withEventLoopDelay<T>(metricsUrl: string, load: () => Promise<T>): Promise<{ result: T; delay: EventLoopDelay }> {
  await scrape(metricsUrl);
  const result = await load();
  return { result, delay: await readEventLoopDelay(metricsUrl) };
}

export const describeDelay = (d: EventLoopDelay): string =>
  `p50 ${d.p50.toFixed(2)} ms, p99 ${d.p99.toFixed(2)} ms, max ${d.max.toFixed(1)} ms (${d.samples} samples, worst worker)`;
