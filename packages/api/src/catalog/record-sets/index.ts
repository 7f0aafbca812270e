// The record sets this service serves, in the order of the API document.
// Adding one: a spec file beside these, its data file, one line here
// (docs/record-sets.md).
import type { RecordSetSpec } from './spec.ts';
import loans from './loans.ts';
import taxRulesets from './tax-rulesets.ts';
import enforcement from './enforcement.ts';
import laws from './laws.ts';
import caseStudies from './case-studies.ts';
import certifications from './certifications.ts';
import bids from './bids.ts';

export const RECORD_SETS: readonly RecordSetSpec[] = [loans, taxRulesets, enforcement, laws, caseStudies, certifications, bids];

export type { RecordSetSpec } from './spec.ts';
