// The process (`npm start`): configuration, then either one serving process
// (WEB_CONCURRENCY=1) or a node:cluster primary with WEB_CONCURRENCY workers
// (default: the available cores). process/ holds the parts: prepare.ts (the
// one-time work before serving), serve.ts (a serving process), shutdown.ts,
// primary.ts (forking, restarting and stopping workers), follow.ts (with
// DATABASE_URL, following the dataset version published on any machine).
// Each role imports only its own part: the primary never loads the app
// (routes, plugins), which keeps the process that serves nothing small.
import cluster from 'node:cluster';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { PREPARE_ONLY, WARM_COMPILE_CACHE_ONLY, WARM_OWN_MODULES_ONLY } from './process/roles.ts';
import { enableCompileCache } from './process/compile-cache.ts';

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
  // Before the role's modules are imported; children inherit it (decision 0426).
  enableCompileCache();
  // The cluster primary's child that fills the compile cache for its workers.
  if (process.argv.includes(WARM_COMPILE_CACHE_ONLY)) {
    const { warmAndExit } = await import('./process/compile-cache-child.ts');
    return await warmAndExit();
  }
  const config = configOrExit();
  // start.js's child that fills the compile cache for the modules of the process it then starts (decision 0432).
  if (process.argv.includes(WARM_OWN_MODULES_ONLY)) {
    const { warmOwnAndExit } = await import('./process/compile-cache-child.ts');
    return await warmOwnAndExit(config);
  }
  // The cluster primary's one-time work, in a child process of it (process/prepare-child.ts).
  if (process.argv.includes(PREPARE_ONLY)) {
    const { prepareAndExit } = await import('./process/prepare-child.ts');
    await prepareAndExit(config);
    return;
  }
  if (config.webConcurrency > 1 && cluster.isPrimary) {
    const { runPrimary } = await import('./process/primary.ts');
    await runPrimary(config);
    return;
  }
  const { serve } = await import('./process/serve.ts');
  if (config.webConcurrency === 1) {
    const { prepareToServe } = await import('./process/prepare.ts');
    // The one process owns DATA_DIR: it also follows new dataset versions (process/follow.ts).
    await serve(config, await prepareToServe(config), { follow: true });
  } else {
    // A worker: the primary has built the catalogue and migrated the store.
    const { catalogPath } = await import('./ingest/ingest.ts');
    await serve(config, catalogPath(config.dataDir));
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
