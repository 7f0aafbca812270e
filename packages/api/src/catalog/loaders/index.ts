// The ordered list of loaders. Order matters where a loader reads what an
// earlier one left in `ctx.shared` or in the database (programs need the
// duplicate groups and law references; exclusion rules resolve against
// programs).
import { duplicatesLoader } from './duplicates.ts';
import { programLawRefsLoader } from './program-law-refs.ts';
import { programsLoader } from './programs.ts';
import { exclusionRulesLoader } from './exclusion-rules.ts';
import { rawRecordsLoader } from './raw-records.ts';
import type { Loader } from './types.ts';

export type { Loader, LoadContext } from './types.ts';

export const LOADERS: readonly Loader[] = [
  duplicatesLoader,
  programLawRefsLoader,
  programsLoader,
  exclusionRulesLoader,
  // Related record sets (served by the record-set routes).
  rawRecordsLoader('laws', 'laws', null),
  rawRecordsLoader('law_articles', 'law_articles', null),
  rawRecordsLoader('enforcement', 'enforcement', 'enforcement_id'),
  rawRecordsLoader('case_studies', 'case_studies', 'case_id'),
  rawRecordsLoader('tax_rulesets', 'tax_rulesets', 'unified_id'),
  rawRecordsLoader('loans_mutual_aid', 'loans_mutual_aid', null),
  rawRecordsLoader('certifications', 'certifications', 'unified_id'),
  rawRecordsLoader('municipalities', 'municipalities', 'municipality_code'),
  rawRecordsLoader('enums', 'enums', null),
  rawRecordsLoader('bids', 'bids', 'unified_id'),
];
