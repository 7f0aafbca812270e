// `sync jgrants|egov [options]`: fetch from a primary source, publish a new
// dataset version (sources/publish.ts) and record its change events.
// Exit codes: 0 published; 1 failed (network, validation: rerun resumes);
// 2 usage; 3 the source's shape drifted (nothing written; see the report).
import { parseArgs } from 'node:util';
import path from 'node:path';
import type { Command } from './types.ts';
import { progressReporter } from '../sources/progress.ts';
import { syncJgrants } from '../sources/jgrants/sync.ts';
import { syncEgov } from '../sources/egov/sync.ts';
import { SyncLocked } from '../sources/workdir.ts';

const USAGE =
  'usage: sync jgrants [--keyword K]… [--acceptance 0|1]… [--limit N] | sync egov [--law LAW_ID]… [--limit N]; both: [--data-dir DIR] [--fresh] [--no-changes] [--quiet] [--json]';

export const syncCommand: Command = {
  name: 'sync',
  summary:
    'Fetch jGrants programmes or e-Gov laws, publish a new dataset version (swapped into running servers) and record its change events; exit 3 when the source shape drifted',
  async run(args, config) {
    const [source, ...rest] = args;
    let values;
    try {
      ({ values } = parseArgs({
        args: rest,
        options: {
          keyword: { type: 'string', multiple: true },
          acceptance: { type: 'string', multiple: true },
          law: { type: 'string', multiple: true },
          limit: { type: 'string' },
          'data-dir': { type: 'string' },
          fresh: { type: 'boolean', default: false },
          'no-changes': { type: 'boolean', default: false },
          quiet: { type: 'boolean', default: false },
          json: { type: 'boolean', default: false },
        },
      }));
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
      return 2;
    }
    const limit = values.limit === undefined ? undefined : Number(values.limit);
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
      process.stderr.write(`--limit must be a positive integer\n${USAGE}\n`);
      return 2;
    }
    const cfg = values['data-dir'] ? { ...config, dataDir: path.resolve(values['data-dir']) } : config;
    const progress = progressReporter(process.stderr, values.quiet);
    const common = { config: cfg, limit, fresh: values.fresh, recordChanges: !values['no-changes'], progress };
    try {
      let result;
      if (source === 'jgrants') {
        result = await syncJgrants({
          ...common,
          keywords: values.keyword ?? config.jgrantsKeywords,
          acceptance: values.acceptance ?? config.jgrantsAcceptance,
        });
      } else if (source === 'egov') {
        result = await syncEgov({ ...common, lawIds: values.law });
      } else {
        process.stderr.write(`${USAGE}\n`);
        return 2;
      }
      progress.end();
      const r = result.report;
      if (values.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
      process.stderr.write(`${source}: ${r.status}${r.message ? `: ${r.message}` : ''}\n`);
      process.stderr.write(
        `  ${Object.entries(r.counts)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}\n`,
      );
      for (const e of r.errors.slice(0, 20)) process.stderr.write(`  error ${JSON.stringify(e)}\n`);
      if (r.changes) process.stderr.write(`  ${r.changes}\n`);
      process.stderr.write(`  report: ${path.join(cfg.dataDir, 'sources', source, 'last-report.json')}\n`);
      return result.exitCode;
    } catch (err) {
      progress.end();
      if (err instanceof SyncLocked) {
        process.stderr.write(`${err.message}\n`);
        return 1;
      }
      throw err;
    }
  },
};
