// With DATABASE_URL, every machine follows the dataset version the state
// store names as current: every CATALOG_FOLLOW_SECONDS the process that owns
// DATA_DIR (the single process, or the cluster primary) reads the head, and
// when it is not the version of the catalogue on disk it runs
// `cli versions pull` in a child process — the catalogue build never blocks a
// serving event loop — which lays the version in and renames its catalogue
// into place; every serving process of the machine then swaps it in
// (catalog/live.ts) without a restart. A pull that fails is retried when the
// head moves again or after RETRY_SECONDS; a pull another process of this
// machine is doing (the catalogue lock) is simply waited for.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Config } from '../config.ts';
import { catalogMetaValue } from '../catalog/db.ts';
import { catalogPath } from '../ingest/ingest.ts';
import { openStateStore, type StateStore } from '../state/index.ts';

const CLI = path.join(import.meta.dirname, '..', 'cli.ts');
const RETRY_SECONDS = 60;
/** `cli versions pull` exit code when another process of this machine holds the catalogue lock. */
export const PULL_BUSY_EXIT = 75;

export interface Follower {
  stop(): Promise<void>;
}

export async function followDatasetVersions(config: Readonly<Config>, log: (line: string) => void): Promise<Follower> {
  if (!config.databaseUrl || config.catalogFollowSeconds <= 0) return { stop: async () => {} };
  const store: StateStore = await openStateStore(config);
  let running: Promise<void> | null = null;
  let failed: { versionId: string; at: number } | null = null;
  let unreachable = false;
  let stopped = false;

  const pull = (versionId: string) =>
    new Promise<void>((resolve) => {
      log(`dataset version ${versionId} is current: pulling it`);
      const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, 'versions', 'pull'], {
        env: { ...process.env, DATA_DIR: config.dataDir, DATASET_DIR: config.datasetDir, DATABASE_URL: config.databaseUrl ?? '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (chunk) => {
        err = (err + String(chunk)).slice(-4000);
      });
      child.on('error', (e) => {
        failed = { versionId, at: Date.now() };
        log(`pull of ${versionId} not started: ${e.message}`);
        resolve();
      });
      child.on('exit', (code) => {
        if (code === 0) {
          failed = null;
          log(`dataset version ${versionId} pulled`);
        } else if (code !== PULL_BUSY_EXIT) {
          failed = { versionId, at: Date.now() };
          log(`pull of ${versionId} failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' | ')}`);
        }
        resolve();
      });
    });

  const tick = async () => {
    if (running || stopped) return;
    let head: string | null;
    try {
      head = (await store.catalogVersions.head()).versionId;
      if (unreachable) log('state store reachable again: following dataset versions');
      unreachable = false;
    } catch {
      if (!unreachable) log('state store unreachable: serving the dataset version on disk meanwhile');
      unreachable = true;
      return;
    }
    if (head === null || head === catalogMetaValue(catalogPath(config.dataDir), 'dataset_version')) return;
    if (failed && failed.versionId === head && Date.now() - failed.at < RETRY_SECONDS * 1000) return;
    running = pull(head).finally(() => {
      running = null;
    });
  };
  const timer = setInterval(() => void tick(), config.catalogFollowSeconds * 1000);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await store.close();
    },
  };
}
