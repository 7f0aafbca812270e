// The children that fill the compile cache: the cluster primary's for its
// workers (compile-cache.ts#warmInChild, decision 0426: it imports what a
// worker imports, at start and on first use, strips the portal's page
// scripts, writes the cache and exits), and start.js's for the process it
// starts (decision 0432). A role of its own (server.ts imports it only in
// those children), so the cache's helpers never import the serving process
// they are used by.
import cluster from 'node:cluster';
import type { Config } from '../config.ts';
import { flushCompileCache } from './compile-cache.ts';

/** What a serving process imports, at start and on first use (the MCP SDK's server side); the portal's page scripts stripped. */
async function loadServing(): Promise<void> {
  await import('./serve.ts');
  await import('../ingest/ingest.ts');
  await (await import('@jp-support/mcp/http')).loadSdkPath();
  const { loadAssets } = await import('../portal/assets.ts');
  loadAssets();
}

export async function warmAndExit(): Promise<void> {
  await loadServing();
  flushCompileCache();
  process.exit(0);
}

/**
 * start.js's child (decision 0432): import what the process it starts will
 * import with these flags (the cluster primary's modules, or the single
 * process's app and preparation), write the cache and exit.
 */
export async function warmOwnAndExit(config: Readonly<Config>): Promise<void> {
  if (config.webConcurrency > 1 && cluster.isPrimary) await import('./primary.ts');
  else {
    await loadServing();
    await import('./prepare.ts');
  }
  if (config.databaseUrl) await import('./follow.ts');
  flushCompileCache();
  process.exit(0);
}
