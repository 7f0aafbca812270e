// One serving process: the single process, or one cluster worker. Opens its
// own read-only catalogue — live: swapped in this process when a sync
// publishes a new one (catalog/live.ts) — and state-store handle (the
// one-time work is done: prepare.ts), builds the app, closes it gracefully
// on SIGTERM/SIGINT (shutdown.ts) and listens (a cluster worker shares the
// primary's port).
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { LiveCatalog, type LiveCatalogOptions } from '../catalog/live.ts';
import { buildApp } from '../app.ts';
import { loggerOptions } from '../http/logger.ts';
import { closeOnSignals, signalsDuringStart } from './shutdown.ts';

export async function serve(config: Readonly<Config>, catalogPath: string): Promise<FastifyInstance> {
  const early = signalsDuringStart();
  // Swaps are logged through the app's logger, which exists only once the app is built.
  let logCatalog: NonNullable<LiveCatalogOptions['log']> = () => {};
  const live = new LiveCatalog(catalogPath, { pollMs: config.catalogPollSeconds * 1000, log: (e) => logCatalog(e) });
  const app = await buildApp({ config, catalog: live.catalog, live, ownsCatalog: true, logger: loggerOptions(config.logLevel) });
  logCatalog = (e) =>
    e.type === 'open-failed' ? app.log.error({ catalog: e }, 'new catalogue not opened') : app.log.info({ catalog: e }, `catalogue ${e.type}`);
  const shutdown = closeOnSignals(app, config.shutdownTimeoutSeconds * 1000);
  const signal = early.take();
  // Stopped while starting: close what was opened, exit 0, never listen.
  if (signal) void shutdown(signal);
  else await app.listen({ port: config.port, host: config.host });
  return app;
}
