// Shared by the source sync tests: a six-programme dataset (the bundled one
// would make every sync a 25 s ingest), a configuration pointing the clients
// at the local fakes, and a silent progress reporter.
import path from 'node:path';
import { loadConfig, REPO_ROOT, type Config } from '../../src/config.ts';
import { progressReporter, type Progress } from '../../src/sources/progress.ts';

export const SOURCES_DATASET = path.join(REPO_ROOT, 'packages', 'api', 'test', 'fixtures', 'sources', 'dataset');

export function syncEnv(dataDir: string, env: Record<string, string> = {}): Record<string, string> {
  return { DATA_DIR: dataDir, DATASET_DIR: SOURCES_DATASET, JGRANTS_RATE: '0', EGOV_RATE: '0', SYNC_MAX_RETRIES: '3', ...env };
}

export function syncConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig(syncEnv(dataDir, env));
}

/** Collects what a sync reports, for assertions. */
export function recordingProgress(): Progress & { lines: string[] } {
  const lines: string[] = [];
  const reporter = progressReporter({ write: (s: string) => lines.push(s) });
  return Object.assign(reporter, { lines });
}
