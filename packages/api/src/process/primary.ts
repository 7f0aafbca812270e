// The cluster primary (WEB_CONCURRENCY > 1): it has the one-time work done
// (prepare.ts, in a child process: prepare-child.ts), then forks WEB_CONCURRENCY workers that each run serve.ts on
// the shared port (node:cluster hands connections out round robin), and
// serves the sum of their metrics (cluster-metrics.ts). It handles no
// requests itself and holds no catalogue or store handle.
// - A worker that exits unexpectedly is replaced after a backoff
//   (respawn.ts), so a crash loop does not spin. A worker that dies before
//   the first start completed means the service cannot start (port taken,
//   store unreachable): the primary stops the others and exits 1.
// - On the first SIGTERM or SIGINT the primary stops replacing workers,
//   sends each SIGTERM (each shuts down gracefully: shutdown.ts), waits for
//   them all and exits 0 (1 if a worker did not exit 0). Should a worker
//   hang past its own bounds, it is killed after 2×SHUTDOWN_TIMEOUT + 5 s.
import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:http';
import type { Config } from '../config.ts';
import { servePrimaryMetrics } from './cluster-metrics.ts';
import { prepareInChild } from './prepare-child.ts';
import { RespawnBackoff } from './respawn.ts';
import { signalsDuringStart } from './shutdown.ts';
import { workerEnv, workerExecArgv } from './worker-heap.ts';
import { flushCompileCache, warmInChild } from './compile-cache.ts';

export async function runPrimary(config: Readonly<Config>): Promise<void> {
  const say = (line: string) => {
    if (config.logLevel !== 'silent') console.error(`cluster primary ${process.pid}: ${line}`);
  };
  // A signal during the one-time work (a catalogue build can take minutes) ends the start cleanly once the work is consistent.
  const early = signalsDuringStart();
  // Workers run with bounded V8 heaps (worker-heap.ts, decision 0424), unless the operator chose otherwise,
  // and their C heap tuned (decision 0427): added to the environment each worker inherits.
  const execArgv = workerExecArgv(process.execArgv, process.env.NODE_OPTIONS);
  const env = workerEnv(process.env);
  // Meanwhile, the compile cache filled for the workers' flags (decision 0426): they start without the type stripper.
  const warmed = process.env.NODE_COMPILE_CACHE ? warmInChild(execArgv, { ...process.env, ...env }) : Promise.resolve();
  await prepareInChild();
  await warmed;
  const stoppedEarly = early.take();
  if (stoppedEarly) {
    say(`${stoppedEarly} during the preparation: not starting workers`);
    process.exit(0);
  }
  // With DATABASE_URL: the primary pulls new dataset versions; its workers swap them in.
  const follower = config.databaseUrl ? await (await import('./follow.ts')).followDatasetVersions(config, say) : { stop: async () => {} };
  const metrics: Server | null = await servePrimaryMetrics(config);
  const metricsAddress = metrics?.address();
  if (metricsAddress && typeof metricsAddress === 'object') say(`metrics of all workers at http://${config.metricsHost}:${metricsAddress.port}/metrics`);
  cluster.setupPrimary({ execArgv });
  const backoff = new RespawnBackoff();
  let stopping = false;
  let started = false;
  const exitCodes: number[] = [];

  const fork = (): Worker => {
    const worker = cluster.fork(env);
    let listening = false;
    worker.once('listening', () => (listening = true));
    worker.once('exit', (code, signal) => {
      if (stopping) {
        // A worker our SIGTERM met before it could listen ended as asked.
        exitCodes.push(!listening && signal === 'SIGTERM' ? 0 : (code ?? 1));
        return;
      }
      if (!started) {
        say(`worker ${worker.process.pid} exited (${signal ?? code}) before the service started; stopping`);
        void stop('a worker failed to start', 1);
        return;
      }
      const delay = backoff.delayAfterCrash(Date.now());
      say(`worker ${worker.process.pid} exited (${signal ?? code}); starting a replacement in ${delay} ms`);
      setTimeout(() => {
        if (!stopping) fork();
      }, delay);
    });
    return worker;
  };

  const stop = async (reason: string, forcedCode?: number) => {
    if (stopping) return;
    stopping = true;
    say(`${reason}: stopping ${Object.keys(cluster.workers ?? {}).length} workers`);
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const killer = setTimeout(
      () => {
        say('workers still running after the shutdown bound; killing them');
        for (const w of workers) if (!w.isDead()) w.process.kill('SIGKILL');
      },
      2 * config.shutdownTimeoutSeconds * 1000 + 5000,
    );
    killer.unref();
    await Promise.all(workers.map((w) => (w.isDead() ? undefined : new Promise((resolve) => w.once('exit', resolve)))));
    clearTimeout(killer);
    await follower.stop().catch(() => undefined);
    await new Promise<void>((resolve) => (metrics ? metrics.close(() => resolve()) : resolve()));
    const failed = exitCodes.some((c) => c !== 0);
    say(`all workers stopped${failed ? ' (not all cleanly)' : ''}`);
    process.exit(forcedCode ?? (failed ? 1 : 0));
  };
  // Workers get the signal from us (and, from a terminal or a process-group
  // kill, directly too: their shutdown is idempotent).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      for (const w of Object.values(cluster.workers ?? {})) if (w && !w.isDead()) w.process.kill('SIGTERM');
      void stop(signal);
    });
  }

  const first = Array.from({ length: config.webConcurrency }, fork);
  await Promise.all(first.map((w) => new Promise((resolve) => w.once('listening', resolve))));
  if (stopping) return;
  started = true;
  flushCompileCache();
  say(`${first.length} workers serving on ${config.host}:${config.port}`);
}
