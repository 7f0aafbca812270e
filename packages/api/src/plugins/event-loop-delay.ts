// How long this process's event loop was kept from turning: node's
// monitorEventLoopDelay samples it every millisecond (a libuv timer in C++,
// no JavaScript per sample), and /metrics reports, over the samples since the
// previous scrape, the median, the 99th percentile and the longest delay,
// in seconds, with the number of samples (issue 25: no request may hold the
// loop for more than 5 ms). A request that computes for 20 ms without a
// break shows as one sample of about 20 ms.
//
// Windows, not totals: each scrape reads and starts a new window, as
// prom-client's own nodejs_eventloop_lag_* gauges do (whose default 10 ms
// resolution cannot see a 5 ms block). Over a cluster's workers the gauges
// take the worst worker (aggregator max): one worker blocked is a blocked
// request. The bench scrapes once before a scenario and once after it
// (bench/lib/event-loop.ts).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/** Sampling interval of the monitor, ms (its finest). */
export const EVENT_LOOP_RESOLUTION_MS = 1;

/** A window's figures in seconds (all 0 when it holds no sample). */
export interface DelayWindow {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

/** A running monitor whose `take()` returns the window since the previous take and starts the next. */
export function eventLoopDelayMonitor(): { take(): DelayWindow; stop(): void } {
  const histogram = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
  histogram.enable();
  return {
    take() {
      const samples = histogram.count;
      // The monitor records the time between two of its timer's turns; the delay is what exceeds the interval.
      const delay = (ns: number) => Math.max(0, ns / 1e9 - EVENT_LOOP_RESOLUTION_MS / 1000);
      const window =
        samples === 0
          ? { p50: 0, p99: 0, max: 0, samples: 0 }
          : { p50: delay(histogram.percentile(50)), p99: delay(histogram.percentile(99)), max: delay(histogram.max), samples };
      histogram.reset();
      return window;
    },
    stop: () => histogram.disable(),
  };
}

/** Registers jpsp_event_loop_delay_seconds{quantile} and jpsp_event_loop_delay_samples; returns the monitor's stop. */
export function registerEventLoopDelay(registry: Registry): () => void {
  const monitor = eventLoopDelayMonitor();
  // Registered after the gauge below, whose collect sets it: prom-client
  // collects a registry's metrics in registration order, each collect running
  // before the next metric is read, so both report the same window.
  let samples: Gauge | null = null;
  new Gauge({
    name: 'jpsp_event_loop_delay_seconds',
    aggregator: 'max',
    help: 'Event-loop delay since the previous scrape: median (0.5), 99th percentile (0.99) and longest (1); over workers, the worst worker',
    labelNames: ['quantile'],
    registers: [registry],
    collect() {
      const w = monitor.take();
      this.set({ quantile: '0.5' }, w.p50);
      this.set({ quantile: '0.99' }, w.p99);
      this.set({ quantile: '1' }, w.max);
      samples?.set(w.samples);
    },
  });
  samples = new Gauge({
    name: 'jpsp_event_loop_delay_samples',
    aggregator: 'max',
    help: 'Event-loop delay samples in the window of jpsp_event_loop_delay_seconds (about one per millisecond)',
    registers: [registry],
  });
  return () => monitor.stop();
}
