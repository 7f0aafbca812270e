// Shared by `npm test` and `npm run test:faults`: build the shared test
// catalogue once, then run `node --test` over the given files (or the
// default patterns), with the extra flags passed through.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureTestCatalog } from '../packages/api/test/catalog-fixture.ts';

export async function runTests(argv: string[], defaults: { patterns: string[]; concurrency: number; timeoutMs: number }): Promise<number> {
  await ensureTestCatalog();
  const files = argv.filter((a) => !a.startsWith('-'));
  const flags = argv.filter((a) => a.startsWith('-'));
  const patterns = files.length > 0 ? files : defaults.patterns;
  const result = spawnSync(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      '--test',
      `--test-concurrency=${defaults.concurrency}`,
      `--test-timeout=${defaults.timeoutMs}`,
      ...flags,
      ...patterns,
    ],
    { stdio: 'inherit', cwd: path.resolve(import.meta.dirname, '..'), env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
  );
  return result.status ?? 1;
}
