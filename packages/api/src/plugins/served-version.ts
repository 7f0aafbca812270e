// Each serving process says what it serves (registered when the app serves a
// live catalogue, i.e. in the server): a row in the state store
// (catalog_servers: host, pid, DATA_DIR, the dataset version and catalogue
// fingerprint of its live catalogue), written at start, after every swap and
// every REPORT_SECONDS, and taken away when it closes. `cli versions` lists
// which servers serve which version from these rows (those seen within
// SERVER_SEEN_SECONDS); a process killed without closing ages out.
import { hostname } from 'node:os';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { LiveCatalog } from '../catalog/live.ts';
import { REPORT_SECONDS } from '../state/repositories/catalog-versions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reports the dataset version served now (after a swap); only in a server with a live catalogue. */
    servedVersion: ServedVersionReporter;
  }
}

export interface ServedVersionReporter {
  /** Writes the row now (after a swap); never throws. */
  report(): Promise<void>;
}

export default fp(
  async function servedVersion(app: FastifyInstance, opts: { live: LiveCatalog }) {
    app.decorate('servedVersion', reporter(app, opts.live, app.config.dataDir));
  },
  { name: 'served-version', dependencies: ['state', 'catalog'] },
);

function reporter(app: FastifyInstance, live: LiveCatalog, dataDir: string): ServedVersionReporter {
  const startedAt = new Date().toISOString();
  const serverId = `${hostname()}:${process.pid}:${startedAt}`;
  let closed = false;
  const report = async () => {
    if (closed) return;
    const catalog = live.catalog;
    try {
      await app.state.catalogVersions.reportServer({
        serverId,
        host: hostname(),
        pid: process.pid,
        dataDir,
        versionId: catalog.datasetVersion,
        catalogFingerprint: catalog.version,
        startedAt,
        seenAt: new Date().toISOString(),
      });
    } catch (err) {
      app.log.warn({ error: err instanceof Error ? err.message : String(err) }, 'served version not reported');
    }
  };
  const timer = setInterval(() => void report(), REPORT_SECONDS * 1000);
  timer.unref();
  app.addHook('onReady', report);
  app.addHook('onClose', async () => {
    closed = true;
    clearInterval(timer);
    await app.state.catalogVersions.removeServer(serverId).catch(() => undefined);
  });
  return { report };
}
