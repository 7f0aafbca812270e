// `npm test`: build the shared test catalogue once, then run every
// `packages/*/test/**/*.test.ts` with Node's built-in runner.
// Extra arguments are passed to `node --test` (e.g. a single file).
import { runTests } from './run-tests.ts';

process.exit(await runTests(process.argv.slice(2), { patterns: ['packages/*/test/**/*.test.ts'], concurrency: 2, timeoutMs: 120_000 }));
