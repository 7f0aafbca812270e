// `npm run bench -- --catalogue x10` (or `x3,x10`): how the service grows with
// its catalogue. For the bundled catalogue (1x) and each synthetic one
// (bench/synthetic-dataset.ts, generated under var/synthetic/ when missing),
// in that order:
// - the catalogue build (bench/build-catalogue.ts, in a process of its own:
//   wall and CPU time, peak memory), done when the catalogue is missing or
//   stale, or always with --rebuild; the figures of the last build are kept
//   beside the catalogue (build.json) and reported again;
// - the start of our server as `npm start` starts it, on the built catalogue
//   (time to the first healthy answer) and the resident memory of its process
//   tree then;
// - the scenarios (default search-mix and long-tail, or --only), each against
//   the bare replay of its own answers, as the main bench does;
// - the resident memory of the tree after them.
// Then one table: each figure per catalogue and its ratio to 1x. Results go
// to bench/results/<time>-catalogue.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import os from 'node:os';
import path from 'node:path';
import { FakeStripe } from '../../packages/api/test/fakes/stripe-server.ts';
import { BUNDLED_DATASET_DIR } from '../../packages/api/src/config.ts';
import { catalogIsCurrent } from '../../packages/api/src/catalog/db.ts';
import { catalogFingerprint } from '../../packages/api/src/ingest/fingerprint.ts';
import { CATALOG_PLAN } from '../../packages/api/src/ingest/plan.ts';
import { activeOverlayDirs } from '../../packages/api/src/ingest/overlays.ts';
import { syntheticDataset } from '../synthetic-dataset.ts';
import { freePort, REPO_ROOT, createBenchKeys, startBare, startServer, treeRss } from './processes.ts';
import { recordAll } from './recording.ts';
import { buildScenarios } from './scenarios.ts';
import { runLoad, type LoadResult } from './load.ts';

export interface ScaleOptions {
  /** Synthetic sizes to compare with 1x, e.g. [10] or [3, 10]. */
  factors: number[];
  seconds: number;
  warmup: number;
  connections: number;
  longTail: number;
  /** Scenario names (default search-mix, long-tail). */
  only: Set<string> | null;
  rebuild: boolean;
  out?: string;
}

interface Build {
  wallMs: number;
  cpuMs: number;
  maxRssBytes: number;
  at: string;
}

interface CatalogueRun {
  label: string;
  factor: number;
  records: number;
  programmes: number;
  catalogueBytes: number;
  build: Build | null;
  /** Whether this run built the catalogue (else: the figures of the last build). */
  builtNow: boolean;
  startMs: number;
  rssAtStart: number;
  rssAfter: number;
  scenarios: { name: string; requests: number; bare: LoadResult; ours: LoadResult }[];
}

/** Parse `x10` / `x3,x10` / `10`. */
export function parseFactors(text: string): number[] {
  const factors = text.split(',').map((t) => Number(t.trim().replace(/^x/i, '')));
  if (factors.some((f) => !(f > 1))) throw new Error(`--catalogue: factors above 1, such as x10 or x3,x10 (got ${text})`);
  return factors;
}

/** Build the catalogue of `datasetDir` into `dataDir` when missing, stale or `force`d; the build's figures (now or from the last build). */
function ensureBuilt(datasetDir: string, dataDir: string, force: boolean): { build: Build | null; builtNow: boolean } {
  mkdirSync(dataDir, { recursive: true });
  const catalogue = path.join(dataDir, 'catalog.sqlite');
  const buildFile = path.join(dataDir, 'build.json');
  const current = catalogIsCurrent(catalogue, catalogFingerprint(datasetDir, CATALOG_PLAN.sourceFiles, activeOverlayDirs(dataDir)));
  if (current && !force) return { build: existsSync(buildFile) ? (JSON.parse(readFileSync(buildFile, 'utf8')) as Build) : null, builtNow: false };
  console.error(`building the catalogue of ${path.relative(REPO_ROOT, datasetDir) || datasetDir} …`);
  const r = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(REPO_ROOT, 'bench', 'build-catalogue.ts'), datasetDir, dataDir], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  if (r.status !== 0) throw new Error(`catalogue build failed (exit ${r.status})`);
  const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Omit<Build, 'at'>;
  const build: Build = { wallMs: out.wallMs, cpuMs: out.cpuMs, maxRssBytes: out.maxRssBytes, at: new Date().toISOString() };
  writeFileSync(buildFile, JSON.stringify(build, null, 2));
  return { build, builtNow: true };
}

function catalogueCounts(file: string): { records: number; programmes: number } {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return { records: one('SELECT count(*) AS n FROM programs'), programmes: one('SELECT count(*) AS n FROM programs WHERE canonical_id IS NULL') };
  } finally {
    db.close();
  }
}

async function runCatalogue(label: string, factor: number, datasetDir: string, dataDir: string, options: ScaleOptions): Promise<CatalogueRun> {
  const { build, builtNow } = ensureBuilt(datasetDir, dataDir, options.rebuild);
  const catalogFile = path.join(dataDir, 'catalog.sqlite');
  for (const f of ['state.sqlite', 'state.sqlite-wal', 'state.sqlite-shm']) rmSync(path.join(dataDir, f), { force: true });
  const stripe = await new FakeStripe().start();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    DATASET_DIR: datasetDir,
    ANON_DAILY_LIMIT: '1000000000',
    FREE_DAILY_LIMIT: '1000000000',
    ...stripe.env(),
  };
  const keys = createBenchKeys(env);
  console.error(`${label}: starting our server as \`npm start\` does …`);
  const t0 = performance.now();
  const ours = await startServer(await freePort(), env);
  const startMs = Math.round(performance.now() - t0);
  const rssAtStart = treeRss(ours.child.pid!);
  const wanted = options.only ?? new Set(['search-mix', 'long-tail']);
  const scenarios = buildScenarios(catalogFile, keys, options.longTail).filter((s) => wanted.has(s.name));
  let bare: Awaited<ReturnType<typeof startBare>> | null = null;
  const results: CatalogueRun['scenarios'] = [];
  try {
    const recordingsFile = path.join(dataDir, 'recordings.json');
    writeFileSync(recordingsFile, JSON.stringify(await recordAll(ours.url, scenarios)));
    bare = await startBare(await freePort(), recordingsFile);
    for (const s of scenarios) {
      console.error(`${label} ${s.name}: ${s.about}`);
      if (options.warmup > 0) {
        await runLoad(bare.url, s.requests, options.warmup, options.connections);
        await runLoad(ours.url, s.requests, options.warmup, options.connections);
      }
      const b = await runLoad(bare.url, s.requests, options.seconds, options.connections);
      const o = await runLoad(ours.url, s.requests, options.seconds, options.connections);
      results.push({ name: s.name, requests: s.requests.length, bare: b, ours: o });
    }
    const rssAfter = treeRss(ours.child.pid!);
    const { records, programmes } = catalogueCounts(catalogFile);
    const catalogueBytes = readFileSync(catalogFile).byteLength;
    return { label, factor, records, programmes, catalogueBytes, build, builtNow, startMs, rssAtStart, rssAfter, scenarios: results };
  } finally {
    await bare?.stop();
    await ours.stop();
    await stripe.stop();
  }
}

/** The comparison of 1x and each factor (see the head of this file). */
export async function runCatalogueScale(options: ScaleOptions): Promise<void> {
  const runs: CatalogueRun[] = [await runCatalogue('1x', 1, BUNDLED_DATASET_DIR, path.join(REPO_ROOT, 'var', 'bench'), options)];
  for (const factor of options.factors) {
    console.error(`x${factor}: the synthetic dataset (bench/synthetic-dataset.ts) …`);
    const dataset = syntheticDataset({ factor });
    runs.push(await runCatalogue(`x${factor}`, factor, dataset.dir, path.join(REPO_ROOT, 'var', `bench-x${factor}`), options));
  }
  report(runs, options);
}

function report(runs: CatalogueRun[], options: ScaleOptions): void {
  const base = runs[0];
  const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const rows: { what: string; value: (r: CatalogueRun) => number | null; show: (n: number) => string }[] = [
    { what: 'records', value: (r) => r.records, show: String },
    { what: 'programmes (canonical)', value: (r) => r.programmes, show: String },
    { what: 'catalogue file MB', value: (r) => r.catalogueBytes, show: mb },
    { what: 'build wall s', value: (r) => r.build?.wallMs ?? null, show: s },
    { what: 'build CPU s', value: (r) => r.build?.cpuMs ?? null, show: s },
    { what: 'build peak RSS MB', value: (r) => r.build?.maxRssBytes ?? null, show: mb },
    { what: 'start to healthy s', value: (r) => r.startMs, show: s },
    { what: 'tree RSS at start MB', value: (r) => r.rssAtStart, show: mb },
    { what: 'tree RSS after the scenarios MB', value: (r) => r.rssAfter, show: mb },
  ];
  for (const name of base.scenarios.map((x) => x.name)) {
    const of = (r: CatalogueRun) => r.scenarios.find((x) => x.name === name);
    rows.push(
      { what: `${name} req/s`, value: (r) => of(r)?.ours.rps ?? null, show: (n) => n.toFixed(0) },
      { what: `${name} p99 ms`, value: (r) => of(r)?.ours.p99 ?? null, show: String },
      { what: `${name} req/s ratio to bare`, value: (r) => (of(r) ? of(r)!.ours.rps / of(r)!.bare.rps : null), show: (n) => n.toFixed(2) },
    );
  }
  const lines = [
    `${options.connections} connections, ${options.seconds} s per scenario (after ${options.warmup} s warm-up), ${os.cpus().length} cores; build figures ${runs.map((r) => `${r.label}: ${r.builtNow ? 'this run' : (r.build?.at ?? 'unknown')}`).join(', ')}.`,
    '',
    `| | ${runs.map((r) => r.label).join(' | ')} | ${runs
      .slice(1)
      .map((r) => `${r.label} / 1x`)
      .join(' | ')} |`,
    `|---|${runs.map(() => '---:').join('|')}|${runs
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
  ];
  for (const row of rows) {
    const b = row.value(base);
    const values = runs.map((r) => row.value(r));
    const ratios = values.slice(1).map((v) => (v === null || b === null || b === 0 ? '' : `${(v / b).toFixed(2)}×`));
    lines.push(`| ${row.what} | ${values.map((v) => (v === null ? '–' : row.show(v))).join(' | ')} | ${ratios.join(' | ')} |`);
  }
  const failures = runs.flatMap((r) => r.scenarios.filter((x) => x.ours.failures > 0 || x.bare.failures > 0).map((x) => `${r.label} ${x.name}`));
  for (const f of failures) lines.push(`WARNING ${f}: failed answers, figures not comparable`);
  console.log(lines.join('\n'));
  const resultsDir = path.join(REPO_ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const out = options.out ?? path.join(resultsDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-catalogue.json`);
  writeFileSync(
    out,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        machine: { cpus: os.cpus().length, node: process.version },
        settings: { ...options, only: options.only && [...options.only] },
        runs,
      },
      null,
      2,
    ),
  );
  console.error(`results written to ${path.relative(REPO_ROOT, out)}`);
  if (failures.length > 0) process.exitCode = 1;
}
