// The ordered list of the catalogue's record-set loaders. Order matters where
// a loader reads what an earlier one left in `ctx.shared` or in the database
// (programs need the duplicate groups and law references; exclusion rules
// resolve against programs). The entity graph is built after these, over
// their tables (src/ingest/plan.ts).
import { duplicatesLoader } from './duplicates.ts';
import { programLawRefsLoader } from './program-law-refs.ts';
import { programsLoader } from './programs.ts';
import { exclusionRulesLoader } from './exclusion-rules.ts';
import { typedRecordsLoader } from './typed-records.ts';
import { enumsTable, municipalitiesTable } from './reference-tables.ts';
import { RECORD_SETS, type RecordSetSpec } from '../../catalog/record-sets/index.ts';
import type { Loader } from './types.ts';

export type { Loader, LoadContext } from './types.ts';

/** The loaders of a catalogue holding these record sets (default: the service's, catalog/record-sets/index.ts). */
export function catalogLoaders(recordSets: readonly RecordSetSpec[] = RECORD_SETS): Loader[] {
  return [
    duplicatesLoader,
    programLawRefsLoader,
    programsLoader,
    exclusionRulesLoader,
    // The record sets (served by routes/v1/record-sets.ts) with their further tables, and the reference tables.
    ...recordSets.flatMap((spec) => [spec, ...(spec.tables ?? [])]).map(typedRecordsLoader),
    typedRecordsLoader(municipalitiesTable),
    typedRecordsLoader(enumsTable),
  ];
}
