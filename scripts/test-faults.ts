// `npm run test:faults`: the fault tests of issue 11 (real server processes,
// PostgreSQL, kill -9, the fake Stripe, the seeded fuzzer), kept out of
// `npm test` for their cost. The PostgreSQL ones run when TEST_DATABASE_URL
// is set. Extra arguments are passed to `node --test` (e.g. one file).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureTestCatalog } from '../packages/api/test/catalog-fixture.ts';

await ensureTestCatalog();
const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('-'));
const flags = args.filter((a) => a.startsWith('-'));
const patterns = files.length > 0 ? files : ['packages/api/test/faults/*.faults.ts'];
const result = spawnSync(
  process.execPath,
  ['--disable-warning=ExperimentalWarning', '--test', '--test-concurrency=1', '--test-timeout=600000', ...flags, ...patterns],
  { stdio: 'inherit', cwd: path.resolve(import.meta.dirname, '..'), env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
);
process.exit(result.status ?? 1);
