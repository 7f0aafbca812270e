// `openapi [--out FILE]`: write the published OpenAPI document (docs/openapi.json).
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { buildDocumentApp, stableJson } from './openapi-document.ts';
import type { Command } from './types.ts';

export const openapiCommand: Command = {
  name: 'openapi',
  summary: 'Print the OpenAPI 3.1 document, or write it with --out FILE',
  async run(args, config) {
    const { values } = parseArgs({ args, options: { out: { type: 'string' } } });
    const doc = await buildDocumentApp(config);
    const text = stableJson(doc);
    if (values.out) writeFileSync(values.out, text);
    else process.stdout.write(text);
    return 0;
  },
};
