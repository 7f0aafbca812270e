// One serving process: the single process, or one cluster worker. Opens its
// own read-only catalogue — live: swapped in this process when a sync
// publishes a new one (catalog/live.ts) — and state-store handle (the
// one-time work is done: prepare.ts), builds the app, reports the dataset
// version it serves (plugins/served-version.ts), closes it gracefully on
// SIGTERM/SIGINT (shutdown.ts) and listens (a cluster worker shares the
// primary's port).
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { LiveCatalog, type LiveCatalogOptions } from '../catalog/live.ts';
import { buildApp } from '../app.ts';
import { loggerOptions } from '../http/logger.ts';
import { closeOnSignals, signalsDuringStart } from './shutdown.ts';
import { followDatasetVersions } from './follow.ts';
import { flushCompileCache } from './compile-cache.ts';

export async function serve(config: Readonly<Config>, catalogPath: string, options: { follow?: boolean } = {}): Promise<FastifyInstance> {
  const early = signalsDuringStart();
  // Swaps are logged through the app's logger, which exists only once the app is built.
  let logCatalog: NonNullable<LiveCatalogOptions['log']> = () => {};
  const live = new LiveCatalog(catalogPath, { pollMs: config.catalogPollSeconds * 1000, log: (e) => logCatalog(e) });
  // With DATABASE_URL, the process owning DATA_DIR follows dataset versions published on any machine (follow.ts).
  let followLog = (_line: string) => {};
  const follower = options.follow ? await followDatasetVersions(config, (line) => followLog(line)) : null;
  const app = await buildApp({
    config,
    catalog: live.catalog,
    live,
    ownsCatalog: true,
    logger: loggerOptions(config.logLevel),
    closeWith: follower ? [() => follower.stop()] : [],
  });
  followLog = (line) => app.log.info({ follow: line }, 'dataset versions');
  logCatalog = (e) => {
    if (e.type === 'open-failed') app.log.error({ catalog: e }, 'new catalogue not opened');
    else app.log.info({ catalog: e, dataset_version: live.catalog.datasetVersion }, `catalogue ${e.type}`);
    if (e.type === 'swapped') void app.servedVersion.report();
  };
  const shutdown = closeOnSignals(app, config.shutdownTimeoutSeconds * 1000);
  const signal = early.take();
  // Stopped while starting: close what was opened, exit 0, never listen.
  if (signal) void shutdown(signal);
  else {
    await app.listen({ port: config.port, host: config.host });
    // What start loaded, kept for the next start even if this process is killed (decision 0426).
    flushCompileCache();
  }
  return app;
}
