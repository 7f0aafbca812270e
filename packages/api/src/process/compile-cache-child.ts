// The cluster primary's child that fills the compile cache for its workers
// (compile-cache.ts#warmInChild, decision 0426): it imports what a worker
// imports, at start and on first use (the MCP SDK's server side, decision
// 0431), strips the portal's page scripts, writes the cache and exits. A
// role of its own (server.ts imports it only in that child), so the cache's
// helpers never import the serving process they are used by.
import { flushCompileCache } from './compile-cache.ts';

export async function warmAndExit(): Promise<void> {
  await import('./serve.ts');
  await import('../ingest/ingest.ts');
  await (await import('@jp-support/mcp/http')).loadSdkPath();
  const { loadAssets } = await import('../portal/assets.ts');
  loadAssets();
  flushCompileCache();
  process.exit(0);
}
