// Runs the store's housekeeping (maintenance.ts) shortly after start and then
// every MAINTENANCE_INTERVAL_MS; the timer never keeps the process alive.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { runMaintenance } from '../state/maintenance.ts';

const MAINTENANCE_INTERVAL_MS = 10 * 60_000;
const FIRST_RUN_MS = 30_000;

export default fp(
  async function maintenance(app: FastifyInstance) {
    const run = () => {
      runMaintenance(app.state, app.config).then(
        (r) => {
          if (Object.values(r).some((n) => n > 0)) app.log.info(r, 'state maintenance');
        },
        (err) => app.log.warn({ error: err instanceof Error ? err.message : String(err) }, 'state maintenance failed'),
      );
    };
    const first = setTimeout(run, FIRST_RUN_MS);
    const every = setInterval(run, MAINTENANCE_INTERVAL_MS);
    first.unref();
    every.unref();
    app.addHook('onClose', async () => {
      clearTimeout(first);
      clearInterval(every);
    });
  },
  { name: 'maintenance', dependencies: ['state'] },
);
