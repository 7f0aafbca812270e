// `npm run test:registry`: the tests that need the npm registry (installing
// the packed packages pulls their dependencies from it), kept out of
// `npm test`, which must pass offline; `.ci/run` runs them after it. Extra
// arguments are passed to `node --test` (e.g. one file).
import { runTests } from './run-tests.ts';

process.exit(await runTests(process.argv.slice(2), { patterns: ['packages/*/test/**/*.registry.ts'], concurrency: 1, timeoutMs: 600_000 }));
