// One serving process: the single process, or one cluster worker. Opens its
// own read-only catalogue and state-store handle (the one-time work is done:
// prepare.ts), builds the app, closes it gracefully on SIGTERM/SIGINT
// (shutdown.ts) and listens (a cluster worker shares the primary's port).
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { Catalog } from '../catalog/catalog.ts';
import { buildApp } from '../app.ts';
import { loggerOptions } from '../logger.ts';
import { closeOnSignals, signalsDuringStart } from './shutdown.ts';

export async function serve(config: Readonly<Config>, catalogPath: string): Promise<FastifyInstance> {
  const early = signalsDuringStart();
  const app = await buildApp({ config, catalog: new Catalog(catalogPath), ownsCatalog: true, logger: loggerOptions(config.logLevel) });
  const shutdown = closeOnSignals(app, config.shutdownTimeoutSeconds * 1000);
  const signal = early.take();
  // Stopped while starting: close what was opened, exit 0, never listen.
  if (signal) void shutdown(signal);
  else await app.listen({ port: config.port, host: config.host });
  return app;
}
