// The ordered list of the catalogue's record-set loaders. Order matters where
// a loader reads what an earlier one left in `ctx.shared` or in the database
// (programs need the duplicate groups and law references; exclusion rules
// resolve against programs). The entity graph is built after these, over
// their tables (src/catalog-plan.ts).
import { duplicatesLoader } from './duplicates.ts';
import { programLawRefsLoader } from './program-law-refs.ts';
import { programsLoader } from './programs.ts';
import { exclusionRulesLoader } from './exclusion-rules.ts';
import {
  caseStudiesLoader, certificationsLoader, enforcementLoader, enumsLoader, lawArticlesLoader, lawsLoader, loansLoader,
  municipalitiesLoader, taxRulesetsLoader,
} from './record-sets.ts';
import { bidsLoader } from './bids.ts';
import type { Loader } from './types.ts';

export type { Loader, LoadContext } from './types.ts';

export const LOADERS: readonly Loader[] = [
  duplicatesLoader,
  programLawRefsLoader,
  programsLoader,
  exclusionRulesLoader,
  // Related record sets (served by the record-set routes).
  lawsLoader,
  lawArticlesLoader,
  enforcementLoader,
  caseStudiesLoader,
  taxRulesetsLoader,
  loansLoader,
  certificationsLoader,
  municipalitiesLoader,
  enumsLoader,
  bidsLoader,
];
