// What the CPU-per-call measures share (bench/cpu-per-call.ts, bench/cpu-per-tool.ts):
// the app of a checkout built as a worker builds it, in process, over the
// bench catalogue (var/bench/catalog.sqlite of this checkout), SQLite state,
// billing off (the meter flusher's HTTP is left out), limits out of the way;
// a counter of the passes through the app (the in-process ones included);
// and the least CPU time per call of several rounds, since other processes
// on the machine only ever add to it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { REPO_ROOT } from './processes.ts';
import type { BenchRequest } from './recording.ts';

export const BENCH_CATALOG = path.join(REPO_ROOT, 'var', 'bench', 'catalog.sqlite');

export interface MeasuredApp {
  app: FastifyInstance;
  /** A paid and a free key. */
  keys: { paid: string; free: string };
  /** The app's own inject, around the pass counter: the driver's requests. */
  inject: FastifyInstance['inject'];
  /** Passes through the app so far that the driver did not make (a tool's calls sent to a route). */
  passes(): number;
  close(): Promise<void>;
}

/** The app of the checkout at `root` (this one by default), over the catalogue file `catalog` (the bench's by default). */
export async function measuredApp(root = REPO_ROOT, catalog = BENCH_CATALOG): Promise<MeasuredApp> {
  const src = (p: string) => pathToFileURL(path.join(root, 'packages', 'api', 'src', p)).href;
  const { buildApp } = (await import(src('app.ts'))) as typeof import('../../packages/api/src/app.ts');
  const { loadConfig } = (await import(src('config.ts'))) as typeof import('../../packages/api/src/config.ts');
  const { Catalog } = (await import(src('catalog/catalog.ts'))) as typeof import('../../packages/api/src/catalog/catalog.ts');
  const { generateApiKey } = (await import(src('access/keys.ts'))) as typeof import('../../packages/api/src/access/keys.ts');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jpsp-cpu-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ANON_DAILY_LIMIT: '1000000000', FREE_DAILY_LIMIT: '1000000000' });
  const app = await buildApp({ config, catalog: new Catalog(catalog) });
  const issue = async (tier: 'paid' | 'free') => {
    const k = generateApiKey();
    await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier, customerId: tier === 'paid' ? 'cus_cpu' : null });
    return k.key;
  };
  const keys = { paid: await issue('paid'), free: await issue('free') };
  let passes = 0;
  const inject = app.inject.bind(app) as FastifyInstance['inject'];
  (app as unknown as { inject: unknown }).inject = (...args: Parameters<typeof inject>) => {
    passes++;
    return inject(...args);
  };
  return {
    app,
    keys,
    inject,
    passes: () => passes,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `run(calls)` once to warm up (JIT, caches), then `rounds` times: the least
 * CPU µs per call (process.cpuUsage, user + system, of this one process: the
 * server and the driver) and the passes per call (the driver's one plus the
 * app's others), with the failures `run` counted.
 */
export async function leastCpuPerCall(
  measured: MeasuredApp,
  run: (calls: number) => Promise<number>,
  calls: number,
  rounds: number,
  warmUp = Math.min(calls, 500),
): Promise<{ cpuMicros: number; passesPerCall: number; failures: number }> {
  await run(warmUp);
  let best = Number.POSITIVE_INFINITY;
  let failures = 0;
  let passesPerCall = 0;
  for (let round = 0; round < rounds; round++) {
    const p0 = measured.passes();
    const c0 = process.cpuUsage();
    failures += await run(calls);
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / calls);
    passesPerCall = (measured.passes() - p0 + calls) / calls;
  }
  return { cpuMicros: best, passesPerCall, failures };
}

/** The scenario's requests in turn as injections: call i sends request i modulo the list. */
export function cycledInjections(requests: readonly BenchRequest[]): (i: number) => InjectOptions {
  return (i) => {
    const r = requests[i % requests.length];
    return { method: r.method, url: r.path, headers: r.headers, ...(r.body ? { payload: r.body } : {}) } as InjectOptions;
  };
}

/** Send `next(i)` `calls` times through the driver's inject, `concurrency` at a time; the number of answers `failed` calls failures. */
export function concurrentRun(
  measured: MeasuredApp,
  next: (i: number) => InjectOptions,
  concurrency: number,
  failed: (res: { statusCode: number; body: string }) => boolean = (res) => res.statusCode !== 200,
): (calls: number) => Promise<number> {
  return async (calls) => {
    let sent = 0;
    let failures = 0;
    const worker = async () => {
      while (sent < calls) {
        const res = await measured.inject(next(sent++));
        if (failed(res)) failures++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return failures;
  };
}
