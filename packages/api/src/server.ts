// The process (`npm start`): configuration, then either one serving process
// (WEB_CONCURRENCY=1) or a node:cluster primary with WEB_CONCURRENCY workers
// (default: the available cores). process/ holds the parts: prepare.ts (the
// one-time work before serving), serve.ts (a serving process), shutdown.ts,
// primary.ts (forking, restarting and stopping workers).
import cluster from 'node:cluster';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { catalogPath } from './catalog/ingest.ts';
import { prepareToServe } from './process/prepare.ts';
import { serve } from './process/serve.ts';
import { runPrimary } from './process/primary.ts';

function configOrExit(): Readonly<Config> {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  if (config.webConcurrency === 1) await serve(config, await prepareToServe(config));
  else if (cluster.isPrimary) await runPrimary(config);
  // A worker: the primary has built the catalogue and migrated the store.
  else await serve(config, catalogPath(config.dataDir));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
