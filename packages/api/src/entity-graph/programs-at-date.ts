// Point-in-time views of the graph: /v1/am/active_at (entities whose
// validity covers a date) and /v1/am/open_programs (programs whose
// application window is open on a date, with the days left).
import type { CatalogDatabase } from '../catalog/db.ts';
import { daysBetween, jstDate } from '../lib/time.ts';
import { applicantFilters, applicantNote } from './applicant-filters.ts';
import { amError, entitySummary, envelope, type Envelope } from './envelope.ts';
import { checkKinds, listParam, prefectureParam, queryTerms, resolveDate } from './params.ts';
import { searchEntities } from './queries/entities.ts';

export interface ActiveAtParams {
  date?: string;
  kinds?: string | string[];
  prefecture?: string;
  query?: string;
  industry?: string;
  size?: string;
  target?: string;
  limit: number;
  offset: number;
}

export function activeAt(db: CatalogDatabase, p: ActiveAtParams, today = jstDate()): Envelope & { pivot_date: string | null } {
  const date = resolveDate(p.date, today);
  if (!date) {
    return {
      ...envelope(p.limit, p.offset, {
        error: amError('invalid_date', 'date must be YYYY-MM-DD (a real calendar date) or "today"', undefined, { date: today }),
      }),
      pivot_date: null,
    };
  }
  const kinds = listParam(p.kinds);
  const useKinds = kinds.length > 0 ? kinds : ['program', 'certification', 'tax_measure'];
  const kindError = checkKinds(useKinds);
  const pref = prefectureParam(p.prefecture);
  const applicant = applicantFilters(db, p);
  const error = kindError ?? pref.error ?? applicant.error;
  if (error) return { ...envelope(p.limit, p.offset, { error }), pivot_date: date };
  const { total, rows } = searchEntities(db, {
    kinds: useKinds,
    termGroups: queryTerms(p.query),
    prefecture: pref.prefecture,
    includeNationwide: true,
    activeOn: date,
    requireValidity: true,
    excludeStatuses: ['repealed'],
    factsAnyOf: applicant.filters,
    order: 'valid_until',
    limit: p.limit,
    offset: p.offset,
  });
  return {
    ...envelope(p.limit, p.offset, {
      total,
      results: rows.map((e) => ({ ...entitySummary(e), days_until_end: e.valid_until ? daysBetween(date, e.valid_until) : null })),
      meta: { kinds: useKinds },
      retrieval_note:
        'validity = application window (programs, certifications), effective_from/effective_until (tax measures), enforced_on (laws, no end date; repealed laws left out), exclusion period (enforcement); rows without any validity date are not listed' +
        applicantNote(applicant.filters),
    }),
    pivot_date: date,
  };
}

// ------------------------------------------------------------ open_programs

export interface OpenProgramsParams {
  pivot_date?: string;
  prefecture?: string;
  query?: string;
  tier?: string | string[];
  industry?: string;
  size?: string;
  target?: string;
  limit: number;
  offset: number;
}

export function openPrograms(db: CatalogDatabase, p: OpenProgramsParams, today = jstDate()): Envelope & { pivot_date: string } {
  const date = resolveDate(p.pivot_date, today);
  if (!date) {
    return {
      ...envelope(p.limit, p.offset, { error: amError('invalid_date', 'pivot_date must be YYYY-MM-DD or "today"', undefined, { pivot_date: today }) }),
      pivot_date: today,
    };
  }
  const tiers = listParam(p.tier).map((t) => t.toUpperCase());
  const badTier = tiers.find((t) => !['S', 'A', 'B', 'C', 'X'].includes(t));
  const pref = prefectureParam(p.prefecture);
  const applicant = applicantFilters(db, p);
  const error = pref.error ?? (badTier ? amError('invalid_enum', 'unknown tier', 'tier is one of S, A, B, C, X') : null) ?? applicant.error;
  if (error) return { ...envelope(p.limit, p.offset, { error }), pivot_date: date };
  const { total, rows } = searchEntities(db, {
    kinds: ['program', 'certification'],
    termGroups: queryTerms(p.query),
    prefecture: pref.prefecture,
    includeNationwide: true,
    activeOn: date,
    requireEnd: true,
    tiers,
    factsAnyOf: applicant.filters,
    order: 'valid_until',
    limit: p.limit,
    offset: p.offset,
  });
  return {
    ...envelope(p.limit, p.offset, {
      total,
      results: rows.map((e) => ({
        ...entitySummary(e),
        application_window: e.facts.application_window ?? null,
        amount_max_man_yen: e.facts.amount_max_man_yen ?? null,
        days_remaining: daysBetween(date, e.valid_until as string),
      })),
      retrieval_note:
        'open = application window start (if known) <= pivot_date <= end; only programs with a published window end are listed (56 of 12,072 records carry a window)' +
        applicantNote(applicant.filters),
    }),
    pivot_date: date,
  };
}
