// Builds the OpenAPI document without a catalogue file: the routes' schemas
// do not depend on data, so an app with a closed-over stub catalogue is enough.
import type { Config } from '../config.ts';
import { buildApp } from '../app.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { openapiDocument } from '../plugins/openapi.ts';
import { openMemoryStore } from '../state/index.ts';

export async function buildDocumentApp(config: Readonly<Config>): Promise<Record<string, unknown>> {
  // No files touched: a throwaway in-memory state store, closed with the app.
  const app = await buildApp({ config, catalog: null as unknown as Catalog, state: await openMemoryStore(), ownsState: true });
  try {
    return openapiDocument(app);
  } finally {
    await app.close();
  }
}

/** JSON with 2-space indentation and a final newline (the committed form). */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
