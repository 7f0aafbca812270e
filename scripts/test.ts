// `npm test`: build the shared test catalogue once, then run every
// `packages/*/test/**/*.test.ts` with Node's built-in runner.
// Extra arguments are passed to `node --test` (e.g. a single file).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureTestCatalog } from '../packages/api/test/catalog-fixture.ts';

await ensureTestCatalog();
const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('-'));
const flags = args.filter((a) => a.startsWith('-'));
const patterns = files.length > 0 ? files : ['packages/*/test/**/*.test.ts'];
const result = spawnSync(
  process.execPath,
  ['--disable-warning=ExperimentalWarning', '--test', '--test-concurrency=2', '--test-timeout=120000', ...flags, ...patterns],
  { stdio: 'inherit', cwd: path.resolve(import.meta.dirname, '..'), env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
);
process.exit(result.status ?? 1);
