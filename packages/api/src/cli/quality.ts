// `quality [--data-dir DIR] [--json] [--examples N]`: the quality report of the
// built catalogue (ingest/quality.ts): counts per record class, programme kind,
// names changed and the other derivations, with examples of each change.
import { parseArgs } from 'node:util';
import path from 'node:path';
import type { Command } from './types.ts';
import { catalogPath } from '../ingest/ingest.ts';
import { CatalogDatabase } from '../catalog/db.ts';
import { EXAMPLES_PER_CHANGE, qualityReport, renderQualityReport } from '../ingest/quality.ts';

export const qualityCommand: Command = {
  name: 'quality',
  summary:
    'The quality report of the built catalogue (DATA_DIR/catalog.sqlite): counts per record class, programme kind, names changed and other derivations, with 20 seeded random examples of each change; --json for the data',
  async run(args, config) {
    let values;
    try {
      ({ values } = parseArgs({
        args,
        options: {
          'data-dir': { type: 'string' },
          json: { type: 'boolean', default: false },
          examples: { type: 'string' },
        },
      }));
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\nusage: quality [--data-dir DIR] [--json] [--examples N]\n`);
      return 2;
    }
    const perChange = values.examples === undefined ? EXAMPLES_PER_CHANGE : Number(values.examples);
    if (!Number.isInteger(perChange) || perChange < 0) {
      process.stderr.write(`--examples must be a whole number of 0 or more, not ${values.examples}\n`);
      return 2;
    }
    const file = catalogPath(path.resolve(values['data-dir'] ?? config.dataDir));
    let db: CatalogDatabase;
    try {
      db = new CatalogDatabase(file);
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n`);
      return 1;
    }
    try {
      const report = qualityReport(db, undefined, perChange);
      process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderQualityReport(report));
      return 0;
    } finally {
      db.close();
    }
  },
};
