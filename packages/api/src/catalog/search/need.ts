// A need: what a person's words or a company profile say they want, in the
// catalogue's own vocabulary — purposes (funding_purpose terms), audiences
// (target_types), industries (JSIC majors), an amount it should fund — plus,
// for a company profile, its size and stage. The ranking's `fit` part (rank.ts) compares it with what a
// programme is for; match (catalog/programs/match.ts) also says why.
import type { CompanySize } from '@jp-support/vocab';
import type { UnderstoodQuery } from './understand.ts';
import vocabulary from './vocabulary.json' with { type: 'json' };

/**
 * Audiences of programmes for institutions rather than for a business or a
 * person (vocabulary.json `institutions`: universities and research bodies,
 * students, local governments). A need that names no audience is a business's
 * or a person's: a programme for these alone ranks as another applicant's
 * (rank.ts#fitOf). A need that names them (研究者, 自治体 as askers) is theirs.
 */
export const INSTITUTIONS: ReadonlySet<string> = new Set(vocabulary.institutions);

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
}

export const NO_NEED: Need = Object.freeze({ purposes: [], audiences: [], industries: [], size: null, stage: null, amountManYen: null });

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
  };
}

/** What a search's q says of the need: who is asking (understand.ts#askersIn) and an amount it names. */
export function needOfQuery(q: UnderstoodQuery | null): Need {
  if (q === null || (q.audiences.length === 0 && q.amountManYen === null)) return NO_NEED;
  return { ...NO_NEED, audiences: q.audiences, amountManYen: q.amountManYen };
}
