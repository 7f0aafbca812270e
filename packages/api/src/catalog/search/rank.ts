// The relevance score of one programme for one understood query, as a sum
// of named parts (returned as they are with explain=true):
//
//   text      BM25 over the fields with weights (name > aliases > reading >
//             kind/target/purpose text > authority > description), each term weighted by
//             its rarity (idf from its posting list)
//   coverage  a term the row lacks (rows missing a term come only when
//             fewer than ten programmes hold every term)
//   name      the query is the name (exact), opens it (prefix), or the
//             query's words stand together in it (phrase)
//   quality   the record's tier and what kind of page it is: real
//             programmes ahead of law provisions, documents, index pages
//             and announcements; licences, registrations and legal duties
//             below support; a measure its name says was abolished or
//             whose call has ended below running ones; and the programme's
//             importance (listed under several records, cited by laws or
//             enforcement records: ingest/importance.ts), which the tier, a
//             completeness grade, does not say
//   place     a prefecture named in q: that prefecture first, nationwide
//             next, other prefectures last; none named: nationwide first
//   purpose / kind   a purpose or a kind of support named in q
//   fit       the need (need.ts: purposes, audiences, industries, an amount;
//             a match profile's size and stage) against what the programme
//             says it is for, whom it serves and how much it funds: a
//             programme for another industry or another kind of applicant,
//             or one far below the amount, ranks down, one for this need up
//   recency   newer fiscal years first; a closed window counts against
//
// Weights are constants here, chosen on the evaluation sets
// (docs/decisions/0033-ranking.md); every part is cheap (a few substring
// tests on short strings), so ranking every match costs little (work counted
// in test/catalog/search-cost.test.ts, docs/decisions/0039-search-cost.md).
import { READING_FIELD, type ProgramColumns, type SearchIndex } from './index.ts';
import { isKanaOnly } from '../search-text.ts';
import type { Place } from '@jp-support/vocab';
import type { UnderstoodQuery } from './understand.ts';
import { isNationwide, reachOf } from './reach.ts';
import { COMPANY_SIZE_TARGET_TYPES } from '@jp-support/vocab';
import { INSTITUTIONS, isPrimarySector, LEGAL_FORMS, NO_NEED, runsABusiness, type Need } from './need.ts';

export interface ScoreParts {
  text: number;
  coverage: number;
  name: number;
  quality: number;
  place: number;
  purpose: number;
  kind: number;
  fit: number;
  recency: number;
  total: number;
}

// Per field, in the order of index.ts#FIELDS: name, aliases, authority, other, description, reading.
// A description mentions many things besides what the programme is for, so a
// word found only there ranks below one in the name or the kind text.
const FIELD_WEIGHTS = [3.0, 1.5, 0.4, 0.6, 0.3, 1.0];
const K1 = 1.2;
const B = 0.5;
const TIER_PRIOR: Record<string, number> = { S: 3.2, A: 2.2, B: 1.2, C: 0, X: -1 };
const CLASS_PRIOR: Record<string, number> = {
  programme: 0,
  notice: -2.5,
  index_page: -3,
  document: -3,
  reference: -3,
  committee: -3,
  procurement: -3,
  permit_procedure: -3,
  product: -4,
  law_provision: -4,
  debris: -8,
};
// Per point of importance (0–3, ingest/importance.ts).
const IMPORTANCE = 0.5;
// A licence, registration or legal duty (index.ts#isRegulatory) below the support for the same trade.
const REGULATORY_PAGE = -3;
// A measure whose name says it was abolished or its call has ended (index.ts#ENDED) below the running ones.
const ENDED_PAGE = -2.5;
// An award or prize (program_kind award: 日本スタートアップ大賞) recognises a business, it does not fund or help it:
// below the support for the same need, as an announcement is (decision 0378).
const AWARD_PAGE = -2.5;
const EXACT_NAME = 6;
const NAME_PREFIX = 2.5;
const PHRASE_IN_NAME = 2;
const ALL_TERMS_IN_NAME = 1.5;
// A generic word of q (補助金, 支援, 融資, 対策 …) that the name holds: the programme names itself the support asked
// for (0.4 -> 1, decision 0376: a 補助金 asked for is a programme whose name says 補助金 before a page about the topic).
const GENERIC_IN_NAME = 1;
// A place named in q: its programmes first (4 -> 6 and other places -6 -> -10, decision 0375: another
// prefecture's programme is no answer, and the text of a well-named one no longer lifts it over the place's own).
const SAME_PLACE = 6;
const NATIONWIDE = 1;
const OTHER_PLACE = -10;
// No place named: a nationwide programme ahead of a local one (2 -> 3, decision 0375: a consultant names the
// national programmes first, the local ones only serve their place).
const REACH = 3;
const PURPOSE = 0.8;
const KIND = 0.8;
const MISSING_TERM = 4;
// A row lacking only a word of whom a programme is for (中小企業 …) misses less than one lacking what is asked for (decision 0338).
const MISSING_SOFT_SHARE = 0.25;
const SYNONYM_WEIGHT = 0.75;
const OPTIONAL_WEIGHT = 0.5;

function occurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Inverse document frequency (BM25's) of a term with `df` matches among `n` rows. */
export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export interface PreparedQuery {
  query: UnderstoodQuery;
  /** idf per required group, in the order of query.required. */
  idf: number[];
  /** Per group and alternative: kana-only (the reading is scored too). */
  kana: boolean[][];
  /** Where the applicant is (applicable_in), or null. */
  place: Place | null;
  /** What the applicant needs (q read into the vocabulary, or a match profile). */
  need: Need;
  /** idf per optional group, in the order of query.optional. */
  optionalIdf: number[];
}

export function prepareQuery(
  query: UnderstoodQuery,
  idfs: number[],
  place: Place | null = null,
  need: Need = NO_NEED,
  optionalIdfs: number[] = [],
): PreparedQuery {
  return {
    query,
    idf: idfs,
    kana: query.required.map((g) => g.alternatives.map((a) => isKanaOnly(a) && [...a].length >= 3)),
    place,
    need,
    optionalIdf: optionalIdfs,
  };
}

/** BM25F of one term group in a row: its best alternative (a synonym counts SYNONYM_WEIGHT), and whether the name holds it. */
function groupScore(r: ProgramColumns, alternatives: readonly string[], kana: boolean[] | null): { best: number; inName: boolean } {
  let best = 0;
  let inName = false;
  for (let ai = 0; ai < alternatives.length; ai++) {
    const alt = alternatives[ai];
    // The reading is searched for kana-only terms (index.ts#postingsOf), so it is scored for those only.
    const withReading = kana ? kana[ai] : isKanaOnly(alt) && [...alt].length >= 3;
    const fieldCount = withReading ? FIELD_WEIGHTS.length : READING_FIELD;
    let s = 0;
    for (let f = 0; f < fieldCount; f++) {
      const tf = occurrences(r.fields[f], alt);
      if (tf === 0) continue;
      if (f === 0) inName = true;
      s += (FIELD_WEIGHTS[f] * tf * (K1 + 1)) / (tf + K1 * (1 - B + B * r.relativeLength[f]));
    }
    // The word typed counts more than a synonym of it.
    if (ai > 0) s *= SYNONYM_WEIGHT;
    if (s > best) best = s;
  }
  return { best, inName };
}

export function scoreRow(index: SearchIndex, p: PreparedQuery, r: ProgramColumns): ScoreParts {
  const q = p.query;
  let text = 0;
  let groupsInName = 0;
  let missing = 0;
  const required = q.required;
  for (let gi = 0; gi < required.length; gi++) {
    const { best, inName } = groupScore(r, required[gi].alternatives, p.kana[gi]);
    if (inName) groupsInName++;
    if (best === 0) missing += required[gi].soft === true ? MISSING_SOFT_SHARE : 1;
    text += p.idf[gi] * best;
  }
  // Optional words (a sentence's incidental words) count at a share of their weight.
  const optionalWeight = q.optionalWeight ?? OPTIONAL_WEIGHT;
  for (let gi = 0; gi < q.optional.length; gi++) text += optionalWeight * p.optionalIdf[gi] * groupScore(r, q.optional[gi].alternatives, null).best;
  // Scale: a term in the name of an average-length row scores about its idf × 3.
  text /= 3;

  let name = 0;
  // The name of any of the programme's records (a renamed programme is still found first by its old name).
  if (q.compact !== '' && (r.nameKey === q.compact || r.otherNameKeys.includes(q.compact))) name += EXACT_NAME;
  else if (q.compact !== '' && r.nameKey.startsWith(q.compact)) name += NAME_PREFIX;
  for (const phrase of q.phrases) if (r.name.includes(phrase)) name += PHRASE_IN_NAME;
  if (q.required.length > 1 && groupsInName === q.required.length) name += ALL_TERMS_IN_NAME;
  for (const g of q.generic) if (r.name.includes(g)) name += GENERIC_IN_NAME;

  const { quality, place, purpose, kind, fit, recency } = priorParts(index, p, r);
  // A term the row lacks (only when too few rows hold every term, engine.ts).
  const coverage = -MISSING_TERM * missing;
  const total = text + coverage + name + quality + place + purpose + kind + fit + recency;
  return { text, coverage, name, quality, place, purpose, kind, fit, recency, total };
}

/** The parts that do not read the text: page kind and tier, place, purpose, kind, recency. */
function priorParts(index: SearchIndex, p: PreparedQuery, r: ProgramColumns) {
  const { quality, recency } = queryFreeParts(index, r);
  return { quality, ...queryParts(p, r), recency };
}

/** Page kind and tier, and recency: the same for every query. */
function queryFreeParts(index: SearchIndex, r: ProgramColumns) {
  const quality =
    (TIER_PRIOR[r.tier] ?? 0) +
    IMPORTANCE * r.importance +
    (CLASS_PRIOR[r.recordClass] ?? 0) +
    (r.regulatory ? REGULATORY_PAGE : 0) +
    (r.ended ? ENDED_PAGE : 0) +
    (r.programKind === 'award' ? AWARD_PAGE : 0);
  const recency = r.fiscalYear === null ? 0 : Math.max(-1.5, Math.min(0.5, (r.fiscalYear - index.dataYear + 1) * 0.4));
  return { quality, recency };
}

/**
 * applicable_in: the applicant's own place and the nationwide programmes rank
 * together (the filter already left out every other place); the local
 * programme a little ahead, as it adds to the national ones for that place:
 * its municipality's 2.5, its prefecture's 2, nationwide 1.5. A place of a
 * prefecture only meets a town's programme at SOME_TOWN, the nationwide
 * weight: the asker may live elsewhere in the prefecture (decision 0337).
 */
const PLACE_REACH: Record<ReturnType<typeof reachOf>, number> = { municipality: 2.5, prefecture: 2, nationwide: 1.5, elsewhere: OTHER_PLACE };
const SOME_TOWN = 1.5;

/** Place, purpose and kind: what the query names. */
function queryParts(p: PreparedQuery, r: ProgramColumns) {
  const q = p.query;
  let place = 0;
  if (p.place !== null) {
    const reach = reachOf(r, p.place);
    // A place of a prefecture only: a town's programme may not be the asker's town; the prefecture's own is.
    place = reach === 'municipality' && p.place.municipality === null ? SOME_TOWN : PLACE_REACH[reach];
  } else if (q.municipalities.length > 0) {
    // A municipality named (浜松市 農業): its programmes and its prefecture's serve the asker, national ones
    // too; another municipality's, of the same prefecture or not, are no answer.
    const reaches = q.municipalities.map((m) => reachOf(r, m));
    if (reaches.includes('municipality') || reaches.includes('prefecture')) place = SAME_PLACE;
    else place = reaches.includes('nationwide') ? NATIONWIDE : OTHER_PLACE;
  } else if (q.prefectures.length > 0) {
    if (r.prefecture !== null && q.prefectures.includes(r.prefecture)) place = SAME_PLACE;
    else if (r.prefecture === null) place = r.authorityLevel === 'national' ? NATIONWIDE : 0;
    else place = OTHER_PLACE;
  } else if (isNationwide(r)) {
    // No place named: a nationwide programme serves whoever asks, a local one only its place.
    place = REACH;
  }
  const purpose = q.purposes.length > 0 && r.fundingPurpose.some((v) => q.purposes.includes(v)) ? PURPOSE : 0;
  const kind = q.kinds.length > 0 && r.programKind !== null && q.kinds.includes(r.programKind) ? KIND : 0;
  return { place, purpose, kind, fit: fitOf(p.need, r) };
}

// The fit of a programme to a need. A programme that states nothing on a
// point is neither rewarded nor penalised on it (most records state little).
const FIT_PURPOSE = 1.2;
const FIT_INDUSTRY = 1.5;
const OTHER_INDUSTRY = -2.5;
// Who is asking against whom the programme serves (1 / -1.5 -> 1.5 / -2.5, decision 0375).
const FIT_AUDIENCE = 1.5;
const OTHER_AUDIENCE = -2.5;
const OTHER_GROUP = -2.5;
const FIT_SIZE = 0.5;
const ANY_SIZE_ENTERPRISES: ReadonlySet<string> = new Set(['医療・福祉事業者', '農林漁業者', '新規就農者']);
const OTHER_SIZE = -2;
const FIT_STAGE = 1;
// An amount named: a programme whose upper limit reaches it (or nearly) ranks up; one far below it cannot fund the need.
const FIT_AMOUNT = 0.8;
const SHORT_AMOUNT = -1.5;
const FOUNDING = '創業';
const FARMING = '農林水産業';
const NEW_FARMING = '新規就農';
const FARMERS: ReadonlySet<string> = new Set(['農林漁業者', '新規就農者']);

/** The fit part of the score (rank.ts header); 0 for an empty need. */
export function fitOf(need: Need, r: ProgramColumns): number {
  let fit = 0;
  if (need.purposes.length > 0 && r.fundingPurpose.some((v) => need.purposes.includes(v))) fit += FIT_PURPOSE;
  const otherThanFarming = need.industries.length > 0 && !need.primarySector && !need.industries.some((v) => v === 'A' || v === 'B');
  const forFarms =
    r.fundingPurpose.includes(FARMING) || r.fundingPurpose.includes(NEW_FARMING) || (r.targetTypes.length > 0 && r.targetTypes.every((v) => FARMERS.has(v)));
  if (otherThanFarming && forFarms) {
    // A trade other than farming, forestry or fishery: a programme for farms is another trade's, whatever industry
    // pages listed it under (農業DX推進のためのIT導入補助金 under IT; decision 0337).
    fit += OTHER_INDUSTRY;
  } else if (need.industries.length > 0 && r.jsicMajors.length > 0) {
    if (!r.jsicMajors.some((v) => need.industries.includes(v))) fit += OTHER_INDUSTRY;
    else if (need.industryFit !== 'other_only') fit += FIT_INDUSTRY;
  } else if (need.industries.length === 0 && need.audiences.length > 0 && !need.primarySector && isPrimarySector(r.fundingPurpose, r.jsicMajors)) {
    // A business asking (or a need only an enterprise has), naming no trade and no farming: a programme for farms,
    // forests or fisheries is another trade's (decision 0384). With nobody named a farmer may be asking: neither.
    fit += OTHER_INDUSTRY;
  }
  // A programme whose name says it is for large companies is another applicant's for anyone smaller.
  if (need.audiences.length > 0 && r.forLargeCompanies) fit += OTHER_AUDIENCE;
  else if (need.audiences.length > 0 && r.forResearchStartups && need.research !== true) fit += OTHER_AUDIENCE;
  else if (need.audiences.length > 0 && r.targetTypes.length > 0) {
    const fits = r.targetTypes.some((v) => need.audiences.includes(v)) || (runsABusiness(need.audiences) && r.targetTypes.some((v) => LEGAL_FORMS.has(v)));
    fit += fits ? FIT_AUDIENCE : OTHER_AUDIENCE;
  } else if (need.audiences.length === 0 && r.targetTypes.length > 0 && r.targetTypes.every((v) => INSTITUTIONS.has(v))) {
    // Nobody named: whoever asks is a business or a person, not a university, a student or a local government.
    fit += OTHER_AUDIENCE;
  }
  // A need naming a group of people (若者, 高齢者 …): a programme or course naming only others is theirs (decision 0336).
  const groups = need.groups ?? [];
  if (groups.length > 0 && r.peopleGroups.length > 0 && !r.peopleGroups.some((g) => groups.includes(g))) fit += OTHER_GROUP;
  if (need.size !== null && need.size !== 'large' && r.forLargeCompanies) fit += OTHER_SIZE;
  else if (need.size !== null && r.targetTypes.length > 0 && !r.targetTypes.every((v) => ANY_SIZE_ENTERPRISES.has(v))) {
    // A programme for care providers or farms of any size neither fits nor misses a company's headcount; one for
    // firms of a size fits or misses it, one for people or institutions misses it (decision 0337, amended).
    fit += r.targetTypes.some((v) => COMPANY_SIZE_TARGET_TYPES[need.size!].includes(v)) ? FIT_SIZE : OTHER_SIZE;
  }
  if ((need.stage === 'planning' || need.stage === 'founding') && r.fundingPurpose.includes(FOUNDING)) fit += FIT_STAGE;
  if (need.amountManYen !== null && r.amountMax !== null) {
    if (r.amountMax >= need.amountManYen * 0.8) fit += FIT_AMOUNT;
    else if (r.amountMax < need.amountManYen * 0.3) fit += SHORT_AMOUNT;
  }
  return fit;
}

/**
 * The parts of the prior that do not depend on the query (quality and
 * recency), by pid: computed once per catalogue, so the prior of a broad
 * query's thousands of matches costs a few tests each.
 */
export function queryFreePriors(index: SearchIndex): Float64Array {
  const out = new Float64Array(index.rows.length);
  for (const pid of index.pids) {
    const { quality, recency } = queryFreeParts(index, index.rows[pid]);
    out[pid] = quality + recency;
  }
  return out;
}

/**
 * A cheap stand-in for the score (engine.ts caps full scoring): the prior
 * parts, plus the name-prefix weight when the name holds the first term.
 * `queryFree` is queryFreePriors()'s value for this row.
 */
export function priorScore(p: PreparedQuery, r: ProgramColumns, queryFree: number): number {
  const { place, purpose, kind, fit } = queryParts(p, r);
  let inName = 0;
  const first = p.query.required[0].alternatives;
  for (let i = 0; i < first.length; i++) {
    if (r.name.includes(first[i])) {
      inName = NAME_PREFIX;
      break;
    }
  }
  return queryFree + place + purpose + kind + fit + inName;
}

/** Rounded parts for display (explain=true). */
export function explainParts(parts: ScoreParts): ScoreParts {
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  return Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, round(v)])) as unknown as ScoreParts;
}
