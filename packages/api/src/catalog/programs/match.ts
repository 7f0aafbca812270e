// POST /v1/programs/match: a company profile read once into the query the
// search engine runs (the same engine, filters and ranking as
// GET /v1/programs/search), and, per programme found, why it fits and what is
// still to check. Every profile field is optional; a value that cannot be
// (a municipality of another prefecture, a founding year to come, an
// industry code JSIC does not have) is a ProgramQueryError (400).
import {
  COMPANY_SIZE_TARGET_TYPES,
  PURPOSES,
  companySizeFromEmployees,
  isPlace,
  normalizePurpose,
  resolvePlace,
  type CompanySize,
  type Place,
} from '@jp-support/vocab';
import { searchNormalize } from '../search-text.ts';
import vocabulary from '../search/vocabulary.json' with { type: 'json' };
import type { EngineFilter } from '../search/engine.ts';
import type { ProgramColumns } from '../search/index.ts';
import { type Need, type Stage, NO_NEED, mergeNeeds, needOfQuery } from '../search/need.ts';
import { reachOf } from '../search/reach.ts';
import { MAX_QUERY_TERMS, understandQuery, type TermGroup, type UnderstoodQuery } from '../search/understand.ts';
import { PROGRAM_SEARCH_PARAMETERS, ProgramQueryError } from './parameters.ts';
import type { ProgramQuery } from './query.ts';

/** The request body (schemas/programs.ts#MatchRequest). */
export interface MatchProfileBody {
  prefecture?: string;
  municipality?: string;
  industry?: string;
  employees?: number;
  capital_man_yen?: number;
  founded_year?: number;
  stage?: Stage;
  purposes?: string[];
  need?: string;
  limit?: number;
  offset?: number;
  explain?: boolean;
}

/** The profile as the engine and the reasons take it. */
export interface ReadProfile {
  place: Place | null;
  /** JSIC major letter. */
  industry: string | null;
  size: CompanySize | null;
  employees: number | null;
  capitalManYen: number | null;
  stage: Stage | null;
  /** The purposes as given, each trimmed (words of the vocabulary or free words). */
  purposes: string[];
  need: string | null;
  /** What the profile and its words were read as. */
  read: Need;
  /** The text the engine searches (need, purposes, stage), understood; null when the profile says nothing to search. */
  text: UnderstoodQuery | null;
}

export interface MatchRequest {
  query: ProgramQuery;
  profile: ReadProfile;
  page: { limit: number; offset: number; explain: boolean };
}

// JSIC (rev. 14) divisions (the two-digit codes) of each major letter.
const JSIC_DIVISIONS: [string, number, number][] = [
  ['A', 1, 2],
  ['B', 3, 4],
  ['C', 5, 5],
  ['D', 6, 8],
  ['E', 9, 32],
  ['F', 33, 36],
  ['G', 37, 41],
  ['H', 42, 49],
  ['I', 50, 61],
  ['J', 62, 67],
  ['K', 68, 70],
  ['L', 71, 74],
  ['M', 75, 77],
  ['N', 78, 80],
  ['O', 81, 82],
  ['P', 83, 85],
  ['Q', 86, 87],
  ['R', 88, 96],
  ['S', 97, 98],
  ['T', 99, 99],
];

/** The JSIC major letter of a major letter or a division/group/industry code (its first two digits), or null. */
export function jsicMajor(code: string): string | null {
  const c = code.normalize('NFKC').trim().toUpperCase();
  if (/^[A-T]$/.test(c)) return c;
  if (!/^\d{2,4}$/.test(c)) return null;
  const division = Number(c.slice(0, 2));
  return JSIC_DIVISIONS.find(([, lo, hi]) => division >= lo && division <= hi)?.[0] ?? null;
}

/** Words the search reads for a stage: a company not yet running looks for founding support. */
const STAGE_WORDS: Record<Stage, string | null> = { planning: '創業', founding: '創業', established: null };

/** The stage a founding year says, when the profile gives no stage: founded this year or last is founding. */
function stageOf(foundedYear: number, thisYear: number): Stage {
  return foundedYear >= thisYear - 1 ? 'founding' : 'established';
}

/**
 * Every spelling of a purpose, as one group: a term of the programme
 * vocabulary (or a spelling it knows: startup, 起業) brings its match words
 * (IT・DX: IT, DX, デジタル …), any other word is read as a search reads it
 * (雇用・人材確保 is several words, any of which will do).
 */
function wordGroup(word: string): TermGroup | null {
  const u = understandQuery(word);
  const term = normalizePurpose(word);
  const entry = term === null ? undefined : PURPOSES.find((p) => p.term === term);
  const fromVocabulary = (entry?.match ?? []).map(searchNormalize).filter((w) => w !== '');
  const alternatives = [...new Set([...(u ? [...u.required, ...u.optional].flatMap((g) => g.alternatives) : []), ...fromVocabulary])];
  return alternatives.length === 0 ? null : { term: term ?? u?.normalized ?? word, alternatives };
}

// The share of their weight a profile's ranking groups (its need's words, each purpose, its trade's words) count
// at: more than a sentence's incidental words (0.5), as they are what the company said. Chosen on the judged
// profiles' tuned part: 0.5 0.398, 0.75 0.409, 1 0.417 (held out 0.537 / 0.538 / 0.532, success@1 0.8 / 0.8 / 0.7).
const MATCH_OPTIONAL_WEIGHT = 0.75;

/**
 * What match searches for a profile. With purposes (the stage's word, 創業,
 * is one), a programme must serve one of them (one group of all their
 * spellings); each purpose it serves, and each word of the need it holds,
 * ranks it up. Without purposes the need is the query, read as a search
 * reads it. Null when the profile names nothing.
 */
function profileText(need: string | null, purposes: string[], stageWord: string | null, industry: string | null): UnderstoodQuery | null {
  const base = need === null ? null : understandQuery(need);
  const groups = [...purposes, ...(stageWord ? [stageWord] : [])].map(wordGroup).filter((g): g is TermGroup => g !== null);
  const trade = industry === null ? null : industryGroup(industry);
  if (groups.length === 0) return base && trade ? { ...base, optional: [...base.optional, trade], termCount: base.termCount + 1 } : base;
  const any: TermGroup = { term: groups.map((g) => g.term).join('|'), alternatives: [...new Set(groups.flatMap((g) => g.alternatives))] };
  const needGroups = base ? [...base.required, ...base.optional] : [];
  const normalized = [base?.normalized ?? '', ...groups.map((g) => g.term)].join(' ');
  return {
    normalized,
    compact: '',
    required: [any],
    optional: [...needGroups, ...(groups.length > 1 ? groups : []), ...(trade ? [trade] : [])],
    phrases: [],
    generic: [],
    prefectures: [],
    municipalities: [],
    industries: [],
    purposes: [],
    kinds: [],
    audiences: base?.audiences ?? [],
    amountManYen: base?.amountManYen ?? null,
    termCount: 1 + needGroups.length + groups.length + (trade ? 1 : 0),
    optionalWeight: MATCH_OPTIONAL_WEIGHT,
  };
}

/**
 * The words the own schemes of the profile's trade are named with, as one
 * ranking group (the search vocabulary's industry_words: 生活衛生 for
 * salons, inns and restaurants, 介護 for care providers), so a barber's cash
 * need finds 生活衛生貸付 and a care provider's hiring need the care-staff
 * schemes. A trade without schemes of its own (manufacturing, retail) has
 * none: the general SME programmes serve it.
 */
function industryGroup(code: string): TermGroup | null {
  const words = ((vocabulary.industry_words as Record<string, string[]>)[code] ?? []).map(searchNormalize);
  return words.length === 0 ? null : { term: `jsic:${code}`, alternatives: words };
}

/** What a profile that names no purpose and no need is read as asking for (vocabulary.json industry_needs). */
function defaultNeed(industry: string | null): string {
  const needs = vocabulary.industry_needs as Record<string, string>;
  return (industry !== null ? needs[industry] : undefined) ?? needs.default;
}

/** The applicable_in filter of the search's table: match filters places exactly as the search does. */
const APPLICABLE_IN = PROGRAM_SEARCH_PARAMETERS.find((p) => p.name === 'applicable_in')!;
const INCLUDE_EXCLUDED = PROGRAM_SEARCH_PARAMETERS.find((p) => p.name === 'include_excluded')!;

function readPlace(body: MatchProfileBody): Place | null {
  const { prefecture, municipality } = body;
  if (prefecture === undefined && municipality === undefined) return null;
  let inPrefecture: string | null = null;
  if (prefecture !== undefined) {
    const p = resolvePlace(prefecture);
    if (!isPlace(p) || p.municipality !== null) throw new ProgramQueryError(`prefecture: unknown prefecture ${JSON.stringify(prefecture.slice(0, 40))}`);
    inPrefecture = p.prefecture;
  }
  if (municipality === undefined) return { prefecture: inPrefecture!, municipality: null };
  const m = resolvePlace(`${inPrefecture ?? ''}${municipality}`);
  if (isPlace(m) && m.municipality !== null) return m;
  if (!isPlace(m) && m.problem === 'ambiguous')
    throw new ProgramQueryError(`municipality: ${municipality} is in ${m.prefectures.join(' and ')}; give prefecture too`);
  const alone = resolvePlace(municipality);
  if (inPrefecture !== null && isPlace(alone) && alone.municipality !== null)
    throw new ProgramQueryError(`municipality: ${municipality} is in ${alone.prefecture}, not in ${inPrefecture}`);
  throw new ProgramQueryError(`municipality: unknown municipality ${JSON.stringify(municipality.slice(0, 40))}`);
}

/** A profile read once; `today` is the Japan date (the founding year's plausibility and the window checks). */
export function readMatchRequest(
  body: MatchProfileBody,
  today: string,
  readText: (text: string) => Need = (t) => needOfQuery(understandQuery(t)),
): MatchRequest {
  const thisYear = Number(today.slice(0, 4));
  const place = readPlace(body);
  let industry: string | null = null;
  if (body.industry !== undefined) {
    industry = jsicMajor(body.industry);
    if (industry === null)
      throw new ProgramQueryError(`industry: ${JSON.stringify(body.industry)} is not a JSIC code (a major letter A-T, or a division code 01-99)`);
  }
  if (body.founded_year !== undefined && body.founded_year > thisYear + 1)
    throw new ProgramQueryError(`founded_year: ${body.founded_year} is after next year; for a business not yet founded give stage=planning`);
  if (body.stage === 'planning' && body.founded_year !== undefined && body.founded_year < thisYear)
    throw new ProgramQueryError(`stage: planning contradicts founded_year ${body.founded_year} (a business founded already)`);
  const stage = body.stage ?? (body.founded_year !== undefined ? stageOf(body.founded_year, thisYear) : null);
  const size = body.employees !== undefined ? companySizeFromEmployees(body.employees) : null;
  const purposes = (body.purposes ?? []).map((p) => p.trim()).filter((p) => p !== '');
  const need = body.need?.trim() || null;

  // The searched text: the need in the owner's words, the purposes, and what the stage implies.
  const words = [need, ...purposes, stage ? STAGE_WORDS[stage] : null].filter((w): w is string => w !== null);
  const seen = new Set<string>();
  const textSource = words.filter((w) => !seen.has(w) && seen.add(w)).join(' ');
  // A profile that names no purpose and no need asks, as a consultant hears it, for the programmes its kind of
  // company uses (industry_needs: the general SME programmes, a manufacturer's, a salon's …), not for every
  // programme of its place in tier order.
  const text = profileText(need, purposes, stage ? STAGE_WORDS[stage] : null, industry) ?? profileText(defaultNeed(industry), [], null, industry);
  if (text && text.termCount > MAX_QUERY_TERMS * 2)
    throw new ProgramQueryError(`need and purposes: at most ${MAX_QUERY_TERMS} terms are searched; shorten them`);
  const fromText = textSource === '' ? NO_NEED : readText(textSource);
  // The purposes as terms of the vocabulary (funding_purpose values), for the fit part and the reasons.
  const purposeTerms = [...new Set(purposes.map(normalizePurpose).filter((t): t is string => t !== null))];
  const read = mergeNeeds(
    {
      purposes: purposeTerms,
      audiences: [],
      industries: industry ? [industry] : [],
      size,
      stage,
      amountManYen: null,
      primarySector: false,
      research: purposeTerms.includes('研究開発'),
    },
    fromText,
  );

  const filters: EngineFilter[] = [{ name: 'include_excluded', value: false, accepts: INCLUDE_EXCLUDED.accepts as EngineFilter['accepts'] }];
  if (place) filters.push({ name: 'applicable_in', value: place, accepts: APPLICABLE_IN.accepts as EngineFilter['accepts'] });
  const key = JSON.stringify(['match', text?.required ?? null, text?.optional ?? null, place, read]);
  const query: ProgramQuery = { params: {}, text, filters, place, need: read, sort: 'relevance', today, key };
  return {
    query,
    profile: { place, industry, size, employees: body.employees ?? null, capitalManYen: body.capital_man_yen ?? null, stage, purposes, need, read, text },
    page: { limit: body.limit ?? 10, offset: body.offset ?? 0, explain: body.explain ?? false },
  };
}

/** One reason a programme fits, or one thing to check. */
export interface Note {
  kind: 'place' | 'purpose' | 'audience' | 'industry' | 'size' | 'stage' | 'words' | 'window' | 'amount';
  detail: string;
}

const SIZE_WORDS: Record<CompanySize, string> = {
  sole: 'a sole proprietor',
  small: 'a small business',
  sme: 'an SME',
  midsize: 'a mid-size company',
  large: 'a large company',
};

/** Why a programme fits the profile, and what is unknown or to check, from its columns. */
export function matchNotes(r: ProgramColumns, p: ReadProfile, today: string): { reasons: Note[]; unknowns: Note[] } {
  const reasons: Note[] = [];
  const unknowns: Note[] = [];
  if (p.place) {
    const reach = reachOf(r, p.place);
    if (reach === 'nationwide') reasons.push({ kind: 'place', detail: 'nationwide: open to businesses anywhere in Japan' });
    else if (reach === 'municipality') reasons.push({ kind: 'place', detail: `a programme of ${r.municipality ?? p.place.municipality}` });
    else if (reach === 'prefecture') reasons.push({ kind: 'place', detail: `a programme of ${r.prefecture} (prefecture-wide)` });
  } else if (r.prefecture !== null) {
    unknowns.push({
      kind: 'place',
      detail: `local to ${[r.prefecture, r.municipality].filter(Boolean).join(' ')}: give prefecture to see only what applies to you`,
    });
  }
  const purposes = r.fundingPurpose.filter((v) => p.read.purposes.includes(v));
  if (purposes.length > 0) reasons.push({ kind: 'purpose', detail: `for ${purposes.join(', ')}` });
  const audiences = r.targetTypes.filter((v) => p.read.audiences.includes(v));
  if (audiences.length > 0) reasons.push({ kind: 'audience', detail: `for ${audiences.join(', ')}` });
  if (p.industry !== null) {
    if (r.jsicMajors.includes(p.industry)) reasons.push({ kind: 'industry', detail: `serves JSIC ${p.industry}` });
    else if (r.jsicMajors.length > 0)
      unknowns.push({ kind: 'industry', detail: `names other industries (JSIC ${r.jsicMajors.join(', ')}): check that yours qualifies` });
  }
  if (p.size !== null) {
    const admitted = r.targetTypes.filter((v) => COMPANY_SIZE_TARGET_TYPES[p.size!].includes(v));
    if (admitted.length > 0) reasons.push({ kind: 'size', detail: `open to ${SIZE_WORDS[p.size]} (${admitted.join(', ')})` });
    else if (r.targetTypes.length > 0) unknowns.push({ kind: 'size', detail: `for ${r.targetTypes.join(', ')}: check that ${SIZE_WORDS[p.size]} qualifies` });
    else unknowns.push({ kind: 'size', detail: 'applicant types and size limits not published: check them in the guidelines' });
  } else if (r.targetTypes.length === 0) {
    unknowns.push({ kind: 'audience', detail: 'applicant types not published: check who may apply' });
  }
  if ((p.stage === 'planning' || p.stage === 'founding') && (r.fundingPurpose.includes('創業') || r.name.includes('創業'))) {
    reasons.push({ kind: 'stage', detail: 'for businesses being founded' });
  }
  if (p.text) {
    const found = p.text.required.filter((g) => g.alternatives.some((a) => r.name.includes(a) || r.other.includes(a))).map((g) => g.term);
    if (found.length > 0) reasons.push({ kind: 'words', detail: `names ${found.join(', ')}` });
  }
  if (r.windowEnd === null) unknowns.push({ kind: 'window', detail: 'application window not published: check when to apply' });
  else if (r.windowEnd < today) unknowns.push({ kind: 'window', detail: `the last published window closed on ${r.windowEnd}: check for the next round` });
  if (r.amountMax === null) unknowns.push({ kind: 'amount', detail: 'amount not published' });
  return { reasons, unknowns };
}
