// The process: configuration, catalogue, listen, graceful shutdown.
import { loadConfig, ConfigError } from './config.ts';
import { ensureCatalog } from './catalog/ensure.ts';
import { CATALOG_PLAN } from './catalog-plan.ts';
import { LiveCatalog, type LiveCatalogOptions } from './catalog/live.ts';
import { buildApp } from './app.ts';
import { loggerOptions } from './logger.ts';
import { openStateStore } from './state/index.ts';
import { describeOutcome, recordDatasetVersion } from './changes/record.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const { path, built } = await ensureCatalog(CATALOG_PLAN, config.dataDir, config.datasetDir, (e) => {
    if (e.type === 'file-start') process.stderr.write(`building catalogue: ${e.loader}\n`);
  });
  if (built) console.error(`catalogue built at ${path}`);
  let logCatalog: NonNullable<LiveCatalogOptions['log']> = () => {};
  // The catalogue this process serves, swapped when a sync publishes a new one (catalog/live.ts).
  const live = new LiveCatalog(path, { pollMs: config.catalogPollSeconds * 1000, log: (e) => logCatalog(e) });
  const catalog = live.catalog;
  const state = await openStateStore(config);
  // The first start that builds the catalogue (or meets a store without a
  // version) records its dataset version; `cli ingest` does it otherwise.
  if (built || (await state.changes.latestVersion()) === null) console.error(describeOutcome(await recordDatasetVersion(catalog, state)));
  const app = await buildApp({ config, catalog, live, ownsCatalog: true, state, ownsState: true, logger: loggerOptions(config.logLevel) });

  logCatalog = (e) => (e.type === 'open-failed' ? app.log.error({ catalog: e }, 'new catalogue not opened') : app.log.info({ catalog: e }, `catalogue ${e.type}`));

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
