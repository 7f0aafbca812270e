// A need: what a person's words or a company profile say they want, in the
// catalogue's own vocabulary — purposes (funding_purpose terms), audiences
// (target_types), industries (JSIC majors), an amount it should fund — plus,
// for a company profile, its size and stage. The ranking's `fit` part (rank.ts) compares it with what a
// programme is for; match (catalog/programs/match.ts) also says why.
import { INDUSTRIES, PURPOSES, type CompanySize } from '@jp-support/vocab';
import { searchNormalize } from '../search-text.ts';
import { ENTERPRISE, type UnderstoodQuery, wordMatcher } from './understand.ts';
import { peopleGroupsIn } from './people-groups.ts';
import vocabulary from './vocabulary.json' with { type: 'json' };

/**
 * Audiences of programmes for institutions rather than for a business or a
 * person (vocabulary.json `institutions`: universities and research bodies,
 * students, local governments). A need that names no audience is a business's
 * or a person's: a programme for these alone ranks as another applicant's
 * (rank.ts#fitOf). A need that names them (研究者, 自治体 as askers) is theirs.
 */
export const INSTITUTIONS: ReadonlySet<string> = new Set(vocabulary.institutions);

/**
 * Audiences that are legal forms, not populations: a programme open to 法人 or 個人事業主 is open to whoever runs a
 * business in that form, a farm or a care provider as much as an SME (rank.ts#fitOf, decision 0389).
 */
export const LEGAL_FORMS: ReadonlySet<string> = new Set(['法人', '個人事業主']);

/** The askers that run a business (vocabulary.json askers_groups `enterprise`, expanded) and new farmers. */
const RUN_A_BUSINESS: ReadonlySet<string> = new Set([...ENTERPRISE, '新規就農者']);

/** Whether a need's asker runs (or starts) a business: a programme for a legal form serves them. */
export const runsABusiness = (audiences: readonly string[]): boolean => audiences.some((a) => RUN_A_BUSINESS.has(a));

export type Stage = 'planning' | 'founding' | 'established';

export interface Need {
  readonly purposes: readonly string[];
  readonly audiences: readonly string[];
  /** JSIC major letters. */
  readonly industries: readonly string[];
  /** A company profile's size (match), else null. */
  readonly size: CompanySize | null;
  /** A company profile's stage (match), else null. */
  readonly stage: Stage | null;
  /** An amount the programme should fund, in 万円 (500万円くらいの設備投資), else null. */
  readonly amountManYen: number | null;
  /**
   * Whether the need names farming, forestry or fishery (新規就農, 農家, 漁業, 鳥獣 …). A business asking that
   * names no industry and not these is not asking for farmers' programmes (rank.ts#fitOf, decision 0384).
   */
  readonly primarySector: boolean;
  /**
   * Whether the need names research or technology (研究, 技術開発, 大学, ディープテック, R&D; a profile's purpose
   * 研究開発). A founder or a business asking without it is not the applicant of a programme for research-based
   * start-ups (rank.ts#fitOf, decision 0335).
   */
  readonly research?: boolean;
  /** The groups of people the need names (people-groups.ts: 若者, 高齢者, 障害者 …); none: any. */
  readonly groups?: readonly string[];
  /**
   * Whether a programme of the need's industries ranks up (a match profile's industry), or only another
   * industry's down (the trades q names: the general SME programmes name no industry: decision 0388).
   */
  readonly industryFit?: 'both' | 'other_only';
}

export const NO_NEED: Need = Object.freeze({ purposes: [], audiences: [], industries: [], size: null, stage: null, amountManYen: null, primarySector: false });

export const isEmptyNeed = (n: Need): boolean =>
  n.purposes.length === 0 && n.audiences.length === 0 && n.industries.length === 0 && n.size === null && n.stage === null && n.amountManYen === null;

/** The union of two needs (a profile's fields and what its free text says). */
export function mergeNeeds(a: Need, b: Need): Need {
  const union = (x: readonly string[], y: readonly string[]): string[] => [...new Set([...x, ...y])];
  return {
    purposes: union(a.purposes, b.purposes),
    audiences: union(a.audiences, b.audiences),
    industries: union(a.industries, b.industries),
    size: a.size ?? b.size,
    stage: a.stage ?? b.stage,
    amountManYen: a.amountManYen ?? b.amountManYen,
    primarySector: a.primarySector || b.primarySector,
    research: a.research === true || b.research === true,
    groups: union(a.groups ?? [], b.groups ?? []),
    // A profile's industry ranks its own programmes up; only q's trades alone (both read from text) do not.
    industryFit: a.industryFit === 'other_only' && b.industryFit === 'other_only' ? 'other_only' : 'both',
  };
}

/**
 * Whether the text holds a word of farming, forestry or fishery: JSIC A and B and the purposes 農林水産業 and
 * 新規就農 (@jp-support/vocab), their match words and English spellings as the search normalises them, the Latin
 * ones (farmer, fishery) as whole words only, as understand.ts reads English.
 */
const namesPrimarySector = wordMatcher(
  [...INDUSTRIES.filter((i) => i.code === 'A' || i.code === 'B'), ...PURPOSES.filter((p) => p.term === '農林水産業' || p.term === '新規就農')].flatMap((e) =>
    [...e.match, ...e.en].map(searchNormalize),
  ),
);

/** Whether a programme is for farming, forestry or fishery (its purposes or industries say so). */
export function isPrimarySector(fundingPurpose: readonly string[], jsicMajors: readonly string[]): boolean {
  return fundingPurpose.includes('農林水産業') || jsicMajors.includes('A') || jsicMajors.includes('B');
}

/** Words of research and technology in a need (the search normalisation: katakana folded to hiragana). */
const RESEARCH_WORDS = /研究|技術|大学|でぃーぷてっく|しーず|(?<![a-z0-9])(?:r&d|research|deep ?tech|university)(?![a-z0-9])/u;
/** The start-up typed as such (スタートアップ, ベンチャー, startup), not 創業 read with it as a synonym: research-based ones are start-ups too. */
const STARTUP_WORDS = /すたーとあっぷ|べんちゃー|(?<![a-z0-9])(?:startups?|ventures?)(?![a-z0-9])/u;

/** What a search's q says of the need: who is asking (understand.ts#askersIn), an amount it names, whether it names farming. */
export function needOfQuery(q: UnderstoodQuery | null): Need {
  if (q === null) return NO_NEED;
  const words = [q.normalized, ...q.required.map((g) => g.term), ...q.optional.map((g) => g.term)].join(' ');
  const primarySector = namesPrimarySector(words);
  const research =
    RESEARCH_WORDS.test([q.normalized, ...q.required.flatMap((g) => g.alternatives), ...q.optional.map((g) => g.term)].join(' ')) ||
    STARTUP_WORDS.test(q.normalized);
  const groups = peopleGroupsIn(words);
  return {
    ...NO_NEED,
    audiences: q.audiences,
    industries: q.industries,
    industryFit: 'other_only',
    amountManYen: q.amountManYen,
    primarySector,
    research,
    groups,
  };
}
