// Makes the read-only catalogue available as `app.catalog`.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../catalog/catalog.ts';

declare module 'fastify' {
  interface FastifyInstance {
    catalog: Catalog;
  }
}

export default fp(
  async function catalogPlugin(app: FastifyInstance, opts: { catalog: Catalog; closeOnExit?: boolean }) {
    app.decorate('catalog', opts.catalog);
    // Load the search's in-memory columns before the first request, not during it
    // (the OpenAPI document is built without a catalogue: nothing to load then).
    app.addHook('onReady', async () => {
      void (opts.catalog as Catalog | null)?.search;
    });
    if (opts.closeOnExit) app.addHook('onClose', async () => opts.catalog.close());
  },
  { name: 'catalog' },
);
