// The composite tools' programme matching (prescreen_programs,
// smb_starter_pack, subsidy_roadmap_3yr): POST /v1/programs/match, the
// service's own engine, so a tool ranks programmes exactly as REST does, with
// the reasons each fits and what is still to check (decision 0396).
//
// A composite answer lists what the engine matched to the company, nothing
// else: a programme the engine gives no reason for, or one it flags as naming
// other industries, applicant types that do not include the company, or a
// place the profile does not name, is set aside and counted in the coverage,
// never listed as a fit; so is one that names no page to cite (no official
// or source URL): an agent answers with what it can link.
import type { ToolApi } from './api.ts';
import type { Payload, Row } from './define.ts';
import { rowsOf } from './search.ts';

export interface ToolProfile {
  prefecture?: string;
  /** JSIC code (major letter or digits), passed as given: the API refuses one that does not exist. */
  industry?: string;
  employees?: number;
  founded_year?: number;
  sole_proprietor?: boolean;
  planned_investment_man_yen?: number;
  /** What the company wants, in its words (the engine reads it through the vocabulary). */
  need?: string;
  /** Funding purposes, in the vocabulary's words. */
  purposes?: string[];
  limit: number;
  /** A need matched by fewer programmes than `limit`: list what fits the profile alone after them (each row's `match` says which). */
  topUp?: boolean;
  /** Pages of the engine's answer to read (a section such as loans may be thin on the first). */
  pages?: number;
}

/** Why programmes were set aside (the counts a composite's coverage gives). */
export interface SetAside {
  /** The engine gave no reason: it ranked the programme by tier alone. */
  no_reason: number;
  /** The programme names other industries than the company's. */
  other_industry: number;
  /** The programme names applicant types that do not include the company's size. */
  other_applicants: number;
  /** The programme is local to a place the profile does not name (no prefecture given). */
  local_elsewhere: number;
  /** The record names no page (official or source URL) to cite. */
  no_source: number;
}

export interface Matched {
  rows: Row[];
  /** Programmes the engine matched in all (before paging). */
  total: number;
  /** Rows of the page read. */
  read: number;
  set_aside: SetAside;
  /** With a need: the programmes the engine matched to it (the rows after those fit the profile alone, `match: "profile"`). */
  need_matched?: number;
}

interface Note {
  kind?: string;
  detail?: string;
}
/** The largest page POST /v1/programs/match serves. */
const MATCH_PAGE_MAX = 50;
const notes = (v: unknown): Note[] => (Array.isArray(v) ? (v as Note[]) : []);

/** A profile that gives the engine something about the company (else every programme ranks by tier alone). */
export function saysSomething(p: Omit<ToolProfile, 'limit'>): boolean {
  return (
    !!p.prefecture ||
    !!p.industry?.trim() ||
    p.employees !== undefined ||
    p.founded_year !== undefined ||
    p.sole_proprietor === true ||
    !!p.need?.trim() ||
    (p.purposes?.length ?? 0) > 0
  );
}

/** The fields a profile can give, for an insufficient_data answer. */
export const PROFILE_FIELDS = 'prefecture, industry_jsic, employee_count, founded_year, is_sole_proprietor, need';

/** Why a matched row is not a fit to list, or null when it is one. */
export function setAsideReason(row: Row): keyof SetAside | null {
  if (notes(row.reasons).length === 0) return 'no_reason';
  const unknowns = notes(row.unknowns);
  if (unknowns.some((u) => u.kind === 'industry')) return 'other_industry';
  const named = Array.isArray(row.target_types) && row.target_types.length > 0;
  if (named && unknowns.some((u) => u.kind === 'size')) return 'other_applicants';
  // The engine's "local to X: give prefecture": a company whose place is not given cannot be said to be served there.
  if (unknowns.some((u) => u.kind === 'place')) return 'local_elsewhere';
  if (!citable(row)) return 'no_source';
  return null;
}

const isUrl = (v: unknown): boolean => typeof v === 'string' && /^https?:\/\//.test(v);
/** Whether a row names a page to cite. */
const citable = (row: Row): boolean => isUrl(row.official_url) || isUrl(row.source_url);

/**
 * The programmes the engine matched to a profile and that fit it (default
 * shape plus reasons and unknowns), at most `limit`; a planned investment
 * adds a reason where the amount covers a quarter of it.
 */
export async function matchProfile(api: ToolApi, p: ToolProfile): Promise<Matched> {
  // The service reads 個人事業主 in a need as its audience (sole proprietors).
  const need = [p.need?.trim(), p.sole_proprietor === true ? '個人事業主' : undefined].filter(Boolean).join(' ');
  const first = await matchOnce(api, p, need);
  const asked = p.need?.trim();
  if (!asked || !p.topUp) return first;
  // The engine lists only programmes that name the need: an owner's need it reads narrowly (or not at all) would
  // leave the list short. The rest of the list is what fits the profile alone, each row saying which it is.
  const byNeed: Row[] = first.rows.map((r) => ({ ...r, match: 'need' }));
  if (byNeed.length >= p.limit) return { ...first, rows: byNeed, need_matched: first.total };
  const rest = await matchOnce(api, { ...p, limit: p.limit - byNeed.length + first.rows.length }, p.sole_proprietor === true ? '個人事業主' : '');
  const listed = new Set(byNeed.map((r) => r.unified_id));
  const byProfile = rest.rows
    .filter((r) => !listed.has(r.unified_id))
    .slice(0, p.limit - byNeed.length)
    .map((r) => ({ ...r, match: 'profile' }));
  return { ...first, rows: [...byNeed, ...byProfile], need_matched: first.total };
}

async function matchOnce(api: ToolApi, p: ToolProfile, need: string): Promise<Matched> {
  // Read a few pages' worth, so the rows set aside still leave `limit` fits.
  const body: Record<string, unknown> = { limit: Math.min(MATCH_PAGE_MAX, Math.max(20, p.limit * 3)) };
  if (p.prefecture) body.prefecture = p.prefecture;
  if (p.industry?.trim()) body.industry = p.industry.trim();
  if (p.employees !== undefined) body.employees = p.employees;
  if (p.founded_year !== undefined) body.founded_year = p.founded_year;
  if (p.purposes && p.purposes.length > 0) body.purposes = p.purposes;
  if (need) body.need = need;
  const answers = await Promise.all(
    Array.from({ length: p.pages ?? 1 }, (_, i) => api.programs.match({ ...body, offset: i * (body.limit as number) }) as Promise<Payload>),
  );
  const answer = answers[0] ?? {};
  const page = answers.flatMap(rowsOf);
  const set_aside: SetAside = { no_reason: 0, other_industry: 0, other_applicants: 0, local_elsewhere: 0, no_source: 0 };
  const fits: Row[] = [];
  for (const row of page) {
    const reason = setAsideReason(row);
    if (reason) set_aside[reason]++;
    else fits.push(row);
  }
  const invest = p.planned_investment_man_yen;
  const rows = fits.slice(0, p.limit).map((r) => {
    const max = typeof r.amount_max_man_yen === 'number' ? r.amount_max_man_yen : null;
    if (invest === undefined || max === null || max < invest * 0.25) return r;
    return { ...r, reasons: [...notes(r.reasons), { kind: 'amount', detail: `up to ${max} 万円 against a planned ${invest} 万円` }] };
  });
  return { rows, total: typeof answer.total === 'number' ? answer.total : page.length, read: page.length, set_aside };
}

/** The coverage of a matched list: what the engine matched, what was read, what was set aside and why. */
export const matchCoverage = (m: Matched): Payload => ({
  programs_matched: m.total,
  ...(m.need_matched === undefined ? {} : { matching_the_need: m.need_matched }),
  rows_read: m.read,
  listed: m.rows.length,
  set_aside: m.set_aside,
});

/** One sentence on a need: how many programmes name it, and that the rest fit the profile alone (empty without a need). */
export function needSentence(m: Matched): string {
  if (m.need_matched === undefined) return '';
  const byProfile = m.rows.filter((r) => r.match === 'profile').length;
  const byNeed = m.rows.length - byProfile;
  if (byNeed === 0)
    return ` No programme fitting the profile was matched to the need as worded (try other words, or search_programs); listed: what fits the profile.`;
  return byProfile > 0
    ? ` ${byNeed} listed match the need (match: need; the engine matched ${m.need_matched}); the rows after them fit the profile alone (match: profile).`
    : '';
}

/** One sentence for the set-aside counts (empty when none). */
export function setAsideSentence(s: SetAside): string {
  const parts = [
    s.no_reason > 0 ? `${s.no_reason} with no reason to fit` : '',
    s.other_industry > 0 ? `${s.other_industry} naming other industries` : '',
    s.other_applicants > 0 ? `${s.other_applicants} for other applicant types` : '',
    s.local_elsewhere > 0 ? `${s.local_elsewhere} local to places not given (give prefecture to see them)` : '',
    s.no_source > 0 ? `${s.no_source} with no source page to cite` : '',
  ].filter(Boolean);
  return parts.length > 0 ? ` Set aside: ${parts.join(', ')}.` : '';
}

/** A matched row as a composite lists it: the engine's reasons as one `why` sentence (the unknowns kept). */
export function withWhy(row: Row): Row {
  const { reasons, ...rest } = row;
  return {
    ...rest,
    why: notes(reasons)
      .map((r) => r.detail)
      .join('; '),
  };
}
