// `npm run test:faults`: the fault tests of issue 11 (real server processes,
// PostgreSQL, kill -9, the fake Stripe, the seeded fuzzer), kept out of
// `npm test` for their cost and run one file at a time. The PostgreSQL ones
// run when TEST_DATABASE_URL is set. Extra arguments are passed to
// `node --test` (e.g. one file).
import { runTests } from './run-tests.ts';

process.exit(await runTests(process.argv.slice(2), { patterns: ['packages/api/test/faults/*.faults.ts'], concurrency: 1, timeoutMs: 600_000 }));
