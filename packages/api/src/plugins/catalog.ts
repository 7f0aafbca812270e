// Makes the read-only catalogue available as `app.catalog`. With a live
// catalogue (catalog/live.ts, the server's) `app.catalog` is whatever
// catalogue the process serves now, and every request holds a lease on the
// catalogue current when it arrived, so a swap never closes a file under a
// request still reading it.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../catalog/catalog.ts';
import type { Lease, LiveCatalog } from '../catalog/live.ts';

declare module 'fastify' {
  interface FastifyInstance {
    catalog: Catalog;
  }
  interface FastifyRequest {
    catalogLease: Lease | null;
  }
}

export default fp(
  async function catalogPlugin(app: FastifyInstance, opts: { catalog: Catalog; live?: LiveCatalog; closeOnExit?: boolean }) {
    const live = opts.live;
    if (live) {
      app.decorate('catalog', { getter: () => live.catalog });
      app.decorateRequest('catalogLease', null);
      app.addHook('onRequest', async (request) => {
        request.catalogLease = live.acquire();
      });
      const release = async (request: { catalogLease: Lease | null }) => request.catalogLease?.release();
      app.addHook('onResponse', release);
      app.addHook('onRequestAbort', release);
      app.addHook('onReady', async () => {
        live.catalog.warm();
        live.start();
      });
      if (opts.closeOnExit) app.addHook('onClose', async () => live.close());
      return;
    }
    app.decorate('catalog', opts.catalog);
    // Build what first requests would build (search columns, id map, meta) before the first request, not during it
    // (the OpenAPI document is built without a catalogue: nothing to load then).
    app.addHook('onReady', async () => {
      (opts.catalog as Catalog | null)?.warm();
    });
    if (opts.closeOnExit) app.addHook('onClose', async () => opts.catalog.close());
  },
  { name: 'catalog' },
);
