// `node bench/engine-times.ts [--catalog var/bench/catalog.sqlite]`: the time of
// each long-tail and search-mix search through the engine alone, on empty
// caches — the event-loop block of one catalogue query. Prints
// the slowest queries and the distribution.
import { parseArgs } from 'node:util';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Catalog } from '../packages/api/src/catalog/catalog.ts';
import { readProgramQuery } from '../packages/api/src/catalog/programs/query.ts';
import { REPO_ROOT } from './lib/processes.ts';
import { longTail, searchMix } from './lib/scenarios.ts';

const { values } = parseArgs({
  options: { catalog: { type: 'string', default: path.join(REPO_ROOT, 'var', 'bench', 'catalog.sqlite') }, top: { type: 'string', default: '15' } },
});
const file = values.catalog;
const db = new DatabaseSync(file, { readOnly: true });
const queries = [...searchMix(), ...longTail(db, 2500)];
db.close();
// Each search on empty caches, three times on three catalogues (after one
// pass that warms the JIT, as a server that has run a while): the least of
// the three is the search's own cost, the others carry what else the machine
// was doing at that moment.
const catalogs = [0, 1, 2, 3].map(() => new Catalog(file));
for (const c of catalogs) void c.search;
const run = (c: Catalog, q: (typeof queries)[number]): number => {
  const t0 = performance.now();
  c.search.search({ query: readProgramQuery(q, '2026-11-23'), limit: Number(q.limit ?? 20), offset: Number(q.offset ?? 0) });
  return performance.now() - t0;
};
for (const q of queries) run(catalogs[0], q);
const times = queries.map((q) => ({ ms: Math.min(run(catalogs[1], q), run(catalogs[2], q), run(catalogs[3], q)), q: JSON.stringify(q) }));
for (const c of catalogs) c.close();
times.sort((a, b) => b.ms - a.ms);
const at = (p: number) => times[Math.floor((times.length - 1) * (1 - p))].ms.toFixed(2);
console.log(
  `${times.length} searches, empty caches, least of 3: max ${times[0].ms.toFixed(2)} ms, p99 ${at(0.99)} ms, p50 ${at(0.5)} ms; over 5 ms: ${times.filter((t) => t.ms > 5).length}`,
);
for (const t of times.slice(0, Number(values.top))) console.log(`${t.ms.toFixed(2).padStart(8)} ms  ${t.q}`);
