// A two-worker cluster for cluster.faults.ts, in the shape a node:cluster
// server takes: the primary forks the workers and serves their summed
// metrics on METRICS_PORT (servePrimaryMetrics); each worker builds the app
// and listens on the shared port. Prints one JSON line with both ports.
import cluster from 'node:cluster';
import { buildApp } from '../../src/app.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { loadConfig } from '../../src/config.ts';
import { servePrimaryMetrics } from '../../src/cluster-metrics.ts';
import path from 'node:path';

const config = loadConfig();
if (cluster.isPrimary) {
  const metrics = await servePrimaryMetrics(config);
  const ports = await Promise.all([0, 1].map(() => new Promise<number>((resolve) => {
    cluster.fork().once('listening', (address) => resolve(address.port));
  })));
  console.log(JSON.stringify({ apiPort: ports[0], metricsPort: (metrics!.address() as { port: number }).port }));
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGKILL');
    process.exit(0);
  });
} else {
  const app = await buildApp({ config, catalog: new Catalog(path.join(config.dataDir, 'catalog.sqlite')), ownsCatalog: true });
  await app.listen({ port: Number(process.env.CLUSTER_API_PORT ?? 0), host: '127.0.0.1' });
}
