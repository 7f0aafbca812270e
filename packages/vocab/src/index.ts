// @jp-support/vocab: the vocabularies the API server and the tool server
// share. Zero dependencies, no I/O.
export { PREFECTURES, PREFECTURE_NAMES, normalizePrefecture } from './prefectures.ts';
export { MUNICIPALITIES } from './municipalities.ts';
export { isPlace, resolvePlace } from './places.ts';
export type { Place, PlaceProblem } from './places.ts';
export {
  COMPANY_SIZES,
  COMPANY_SIZE_LABELS,
  COMPANY_SIZE_TARGET_TYPES,
  companySizeFromEmployees,
  normalizeCompanySize,
} from './company-size.ts';
export type { CompanySize } from './company-size.ts';
export {
  AUDIENCES,
  AUDIENCE_TERMS,
  INDUSTRIES,
  INDUSTRY_CODES,
  JSIC_CODE_PATTERN,
  PURPOSES,
  PURPOSE_TERMS,
  audiencesIn,
  industriesIn,
  normalizeAudience,
  normalizeIndustry,
  normalizePurpose,
  purposesIn,
} from './programme-vocabulary.ts';
export type { IndustryEntry, IndustryHit, VocabularyEntry, VocabularyHit } from './programme-vocabulary.ts';
