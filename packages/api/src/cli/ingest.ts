// `ingest [--dataset DIR] [--data-dir DIR] [--strict] [--no-changes]`: build
// catalog.sqlite, then record its dataset version and change events in the
// configured state store (changes/record.ts; skipped with --no-changes); the
// quality report (ingest/quality.ts) is written beside the catalogue.
import { parseArgs } from 'node:util';
import path from 'node:path';
import { ingest, IngestError, type ProgressEvent } from '../ingest/ingest.ts';
import { CATALOG_PLAN } from '../ingest/plan.ts';
import type { Command } from './types.ts';
import { Catalog } from '../catalog/catalog.ts';
import { openStateStore } from '../state/index.ts';
import { describeOutcome, recordDatasetVersion } from '../changes/record.ts';
import { writeQualityReport } from '../ingest/quality.ts';

export const ingestCommand: Command = {
  name: 'ingest',
  summary:
    'Build DATA_DIR/catalog.sqlite from the dataset (DATASET_DIR) and record its version and change events in the state store; --strict fails on any rejected line, --no-changes only builds',
  async run(args, config) {
    const { values } = parseArgs({
      args,
      options: {
        dataset: { type: 'string' },
        'data-dir': { type: 'string' },
        strict: { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
        'no-changes': { type: 'boolean', default: false },
      },
    });
    const datasetDir = path.resolve(values.dataset ?? config.datasetDir);
    const dataDir = path.resolve(values['data-dir'] ?? config.dataDir);
    const tty = process.stderr.isTTY && !values.quiet;
    const progress = (e: ProgressEvent): void => {
      if (values.quiet) return;
      if (e.type === 'lines' && tty) process.stderr.write(`\r  ${e.loader}: ${e.lines} lines…`);
      if (e.type === 'file-done') {
        process.stderr.write(`${tty ? '\r\x1b[K' : ''}  ${e.loader}: ${e.loaded} loaded${e.rejected ? `, ${e.rejected} rejected` : ''}\n`);
      }
      if (e.type === 'finalize') process.stderr.write(`  finalising: ${e.step}\n`);
    };
    if (!values.quiet) process.stderr.write(`ingesting ${datasetDir} -> ${dataDir}\n`);
    try {
      const report = await ingest({ plan: CATALOG_PLAN, datasetDir, dataDir, strict: values.strict, progress });
      printRejections(report.rejected);
      for (const w of report.warnings) process.stderr.write(`warning: ${w}\n`);
      process.stderr.write(`catalogue written: ${report.catalogPath} (${report.durationMs} ms, ${report.rejected.length} rejected)\n`);
      process.stderr.write(`quality report written: ${writeQualityReport(report.catalogPath)}\n`);
      if (!values['no-changes']) {
        const catalog = new Catalog(report.catalogPath);
        const store = await openStateStore({ ...config, dataDir });
        try {
          process.stderr.write(`${describeOutcome(await recordDatasetVersion(catalog, store))}\n`);
        } finally {
          catalog.close();
          await store.close();
        }
      }
      return 0;
    } catch (err) {
      if (err instanceof IngestError) {
        printRejections(err.report.rejected);
        process.stderr.write(`ingest failed: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
  },
};

function printRejections(rejected: { file: string; lineNo: number; reason: string }[]): void {
  for (const r of rejected) process.stderr.write(`rejected ${r.file}:${r.lineNo}: ${r.reason}\n`);
}
