// Builds the OpenAPI document without a catalogue file: the routes' schemas
// do not depend on data, so an app with a closed-over stub catalogue is enough.
import type { Config } from './config.ts';
import { buildApp } from './app.ts';
import type { Catalog } from './catalog/catalog.ts';
import { openapiDocument } from './plugins/openapi.ts';

export async function buildDocumentApp(config: Readonly<Config>): Promise<Record<string, unknown>> {
  const app = await buildApp({ config, catalog: null as unknown as Catalog });
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
