// Builds the entity graph behind /v1/am/* ("am": AutonoMath, the upstream's
// entity-fact store; see ../index.ts) in the same ingest as the catalogue,
// as its last step: it reads the typed tables the record-set loaders have
// just written (programs, tax_rulesets, laws, enforcement, case_studies,
// program_law_refs, exclusion_rules, program_duplicates), never the raw
// dataset files. Rules: docs/decisions/0055-graph-from-typed-tables.md and
// the other records of area "Entity graph" (docs/decisions/README.md).
import type { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { readdirSync } from 'node:fs';
import type { Loader } from '../loaders/types.ts';
import { addCaseStudies } from './case-studies.ts';
import { addEnforcement } from './enforcement.ts';
import { addLaws } from './laws.ts';
import { Parties } from './parties.ts';
import { addPrograms } from './programs.ts';
import { addRelations } from './relations.ts';
import { ENTITY_GRAPH_DDL, RECORD_KINDS } from '../../entity-graph/schema.ts';
import { addTaxMeasures } from './tax-measures.ts';
import { GraphWriter } from './writer.ts';

/**
 * The code that shapes the graph: this folder and the shared helpers it
 * imports from outside it. A change to any of them rebuilds the catalogue
 * (ingest/fingerprint.ts); keep the list in step with the imports.
 */
export const ENTITY_GRAPH_BUILD_FILES: readonly string[] = [
  ...readdirSync(import.meta.dirname)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(import.meta.dirname, f)),
  ...[
    '../../lib/time.ts',
    '../../lib/hash.ts',
    '../../entity-graph/schema.ts',
    '../../catalog/houjin.ts',
    '../../catalog/text-query.ts',
    '../../catalog/search-text.ts',
    '../../catalog/queries/record-sets.ts',
  ].map((f) => path.resolve(import.meta.dirname, f)),
].sort();

/** Writes the graph; returns the number of entities. */
export function buildEntityGraph(db: DatabaseSync): number {
  const w = new GraphWriter(db);
  const parties = new Parties();
  const programs = addPrograms(w, db, parties);
  const taxLegalBasis = addTaxMeasures(w, db);
  const laws = addLaws(w, db);
  const enforcement = addEnforcement(w, db, laws, parties);
  const cases = addCaseStudies(w, db, parties);
  parties.write(w);
  addRelations(w, db, { programs, laws, enforcement, cases, taxLegalBasis });

  const byKind = db.prepare('SELECT record_kind, count(*) AS n FROM am_entities GROUP BY record_kind').all() as { record_kind: string; n: number }[];
  const counts = Object.fromEntries(RECORD_KINDS.map((k) => [k, byKind.find((r) => r.record_kind === k)?.n ?? 0]));
  const setMeta = db.prepare('INSERT OR REPLACE INTO catalog_meta (key, value) VALUES (?, ?)');
  setMeta.run('am_entity_counts', JSON.stringify(counts));
  setMeta.run('am_relation_count', String(w.relations));
  return (db.prepare('SELECT count(*) AS n FROM am_entities').get() as { n: number }).n;
}

export const entityGraphLoader: Loader = {
  name: 'am_entities',
  file: 'programs',
  required: false,
  ddl: ENTITY_GRAPH_DDL,
  validate: () => null,
  prepare: () => () => null,
  build: async (ctx) => buildEntityGraph(ctx.db),
};
