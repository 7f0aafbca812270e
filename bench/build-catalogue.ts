// `node bench/build-catalogue.ts DATASET_DIR DATA_DIR`: build DATA_DIR/catalog.sqlite
// from a dataset, as `npm start` would on a first start (ingest with the
// service's plan), in a process of its own, and print what the build cost as
// one JSON line: wall time, CPU time (user + system: what the build needs
// whatever else the machine does) and the process's peak resident memory.
// bench/lib/catalogue-scale.ts runs it for each catalogue size.
import path from 'node:path';
import { ingest } from '../packages/api/src/ingest/ingest.ts';
import { CATALOG_PLAN } from '../packages/api/src/ingest/plan.ts';

const [datasetDir, dataDir] = process.argv.slice(2).map((p) => path.resolve(p));
if (!datasetDir || !dataDir) throw new Error('usage: node bench/build-catalogue.ts DATASET_DIR DATA_DIR');
const t0 = performance.now();
const report = await ingest({ plan: CATALOG_PLAN, datasetDir, dataDir });
const cpu = process.cpuUsage();
process.stdout.write(
  `${JSON.stringify({
    wallMs: Math.round(performance.now() - t0),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    programmes: report.counts.programs ?? null,
    rejected: report.rejected.length,
  })}\n`,
);
