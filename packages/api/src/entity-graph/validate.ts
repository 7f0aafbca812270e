// POST /v1/am/validate: intake predicates over free-form applicant data,
// plus rules pinned to one entity. Results are cached in-process (LRU) keyed
// by (applicant_hash, entity_id, scope) for the current Japan-time day.
import type { CatalogDatabase } from '../catalog/db.ts';
import { isValidHoujinBangou } from '../catalog/houjin.ts';
import { isIsoDate, jstDate } from '../lib/time.ts';
import { applicantHash } from './canonical-json.ts';
import { amError, type AmError } from './envelope.ts';
import type { Lru } from '../lib/lru.ts';
import { findEntity, type Entity } from './queries/entities.ts';
import { municipalityExists } from './queries/municipalities.ts';
import { normalizePrefecture, PREFECTURE_NAMES } from './slots.ts';

export type PredicateStatus = 'pass' | 'fail' | 'warn' | 'not_applicable' | 'unknown';

export interface PredicateResult {
  predicate_id: string;
  scope: 'intake' | 'entity';
  status: PredicateStatus;
  field: string | null;
  message: string;
  source_url?: string | null;
}

export const SCOPES = ['intake', 'entity', 'all'] as const;

export const INTAKE_PREDICATES = [
  'required_fields',
  'houjin_bangou_check_digit',
  'location_exists',
  'size_plausible',
  'dates_valid',
  'industry_code_valid',
] as const;

type Data = Record<string, unknown>;

const pick = (d: Data, ...keys: string[]): [string, unknown] | null => {
  for (const k of keys) if (d[k] !== undefined && d[k] !== null && d[k] !== '') return [k, d[k]];
  return null;
};

const JSIC_MAJORS = new Set('ABCDEFGHIJKLMNOPQRST'.split(''));

/** The 6 generic intake predicates (scope `intake`). */
export function intakePredicates(db: CatalogDatabase, d: Data, today: string): PredicateResult[] {
  const out: PredicateResult[] = [];
  const r = (predicate_id: string, status: PredicateStatus, field: string | null, message: string): void => {
    out.push({ predicate_id, scope: 'intake', status, field, message });
  };

  // 1. Required fields: who applies (a name) and where (a prefecture).
  const name = pick(d, 'company_name', 'name', 'applicant_name');
  const pref = pick(d, 'prefecture');
  const missing = [name ? null : 'company_name', pref ? null : 'prefecture'].filter(Boolean);
  r(
    'required_fields',
    missing.length === 0 ? 'pass' : 'fail',
    missing.join(',') || null,
    missing.length === 0 ? 'applicant name and prefecture present' : `missing: ${missing.join(', ')}`,
  );

  // 2. Corporate number check digit.
  const hb = pick(d, 'houjin_bangou', 'corporate_number');
  if (!hb) r('houjin_bangou_check_digit', 'not_applicable', null, 'no corporate number given (sole proprietors have none)');
  else {
    const v = String(hb[1]).normalize('NFKC').replace(/[-\s]/g, '');
    r(
      'houjin_bangou_check_digit',
      isValidHoujinBangou(v) ? 'pass' : 'fail',
      hb[0],
      /^\d{13}$/.test(v) ? (isValidHoujinBangou(v) ? 'check digit valid' : 'check digit does not match') : 'must be 13 digits',
    );
  }

  // 3. Prefecture (47) and municipality (master of 1,714) exist.
  if (!pref) r('location_exists', 'not_applicable', null, 'no prefecture given');
  else {
    const p = typeof pref[1] === 'string' ? normalizePrefecture(pref[1]) : null;
    const muni = pick(d, 'municipality', 'city');
    if (!p || !PREFECTURE_NAMES.has(p)) r('location_exists', 'fail', 'prefecture', 'not one of the 47 prefectures');
    else if (!muni) r('location_exists', 'pass', 'prefecture', `prefecture ${p} exists`);
    else {
      const ok = typeof muni[1] === 'string' && municipalityExists(db, p, muni[1].normalize('NFKC').trim());
      r(
        'location_exists',
        ok ? 'pass' : 'fail',
        muni[0],
        ok ? `${String(muni[1])} is a municipality of ${p}` : `no municipality ${JSON.stringify(String(muni[1]).slice(0, 50))} in ${p}`,
      );
    }
  }

  // 4. Capital and employee counts plausible.
  const problems: string[] = [];
  let checked = 0;
  const employees = pick(d, 'employee_count', 'employees');
  if (employees) {
    checked++;
    const n = employees[1];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 1_000_000) problems.push(`${employees[0]} must be an integer 0 to 1,000,000`);
  }
  const capital = pick(d, 'capital_yen', 'capital_man_yen', 'capital');
  if (capital) {
    checked++;
    const n = capital[1];
    const yen = typeof n === 'number' ? (capital[0] === 'capital_man_yen' ? n * 10_000 : n) : NaN;
    if (!Number.isFinite(yen) || yen < 0 || yen > 1e13) problems.push(`${capital[0]} must be a number 0 to 10 trillion yen`);
    else if (d.is_sole_proprietor === true && yen > 0) problems.push('a sole proprietor has no stated capital');
  }
  r(
    'size_plausible',
    checked === 0 ? 'not_applicable' : problems.length === 0 ? 'pass' : 'fail',
    [employees?.[0], capital?.[0]].filter(Boolean).join(',') || null,
    checked === 0 ? 'no capital or employee count given' : problems.length === 0 ? 'capital and employee counts plausible' : problems.join('; '),
  );

  // 5. Dates valid: every *_date / *_on field is a real date; founding not in the future.
  const dateProblems: string[] = [];
  let dates = 0;
  for (const [k, v] of Object.entries(d)) {
    if (!/(_date|_on|_at)$/.test(k)) continue;
    dates++;
    const s = typeof v === 'string' ? v.slice(0, 10) : '';
    if (!isIsoDate(s)) dateProblems.push(`${k} is not a date (YYYY-MM-DD)`);
    else if (/^(founded|established|incorporated)/.test(k) && s > today) dateProblems.push(`${k} is in the future`);
  }
  const year = pick(d, 'founded_year');
  if (year) {
    dates++;
    const y = year[1];
    if (typeof y !== 'number' || !Number.isInteger(y) || y < 1800 || y > Number(today.slice(0, 4))) dateProblems.push('founded_year must be 1800 to this year');
  }
  r(
    'dates_valid',
    dates === 0 ? 'not_applicable' : dateProblems.length === 0 ? 'pass' : 'fail',
    null,
    dates === 0 ? 'no dates given' : dateProblems.length === 0 ? `${dates} date field(s) valid` : dateProblems.join('; ').slice(0, 500),
  );

  // 6. JSIC industry code: a major letter A–T, optionally followed by 2–4 digits (E32, E321).
  const jsic = pick(d, 'industry_jsic', 'jsic', 'jsic_code');
  if (!jsic) r('industry_code_valid', 'not_applicable', null, 'no JSIC industry code given');
  else {
    const v = String(jsic[1]).normalize('NFKC').trim().toUpperCase();
    const ok = /^[A-T](\d{2,4})?$/.test(v) && JSIC_MAJORS.has(v[0]);
    r('industry_code_valid', ok ? 'pass' : 'fail', jsic[0], ok ? `JSIC ${v} valid` : 'not a JSIC code (major letter A–T, optional 2–4 digits)');
  }
  return out;
}

/** Upstream machine-readable predicate of tax rulesets: {op: all|any|eq|gte|lte|in, field, value, of}. */
export function evalCondition(cond: unknown, d: Data): boolean | null {
  if (!cond || typeof cond !== 'object') return null;
  const c = cond as { op?: string; field?: string; value?: unknown; of?: unknown[] };
  if (c.op === 'all' || c.op === 'any') {
    const parts = (c.of ?? []).map((x) => evalCondition(x, d));
    if (c.op === 'all') return parts.includes(false) ? false : parts.includes(null) ? null : true;
    return parts.includes(true) ? true : parts.includes(null) ? null : false;
  }
  if (!c.field) return null;
  const v = d[c.field];
  if (v === undefined || v === null) return null;
  switch (c.op) {
    case 'eq':
      return v === c.value;
    case 'gte':
      return typeof v === 'number' && typeof c.value === 'number' ? v >= c.value : null;
    case 'lte':
      return typeof v === 'number' && typeof c.value === 'number' ? v <= c.value : null;
    case 'in':
      return Array.isArray(c.value) ? c.value.includes(v) : null;
    default:
      return null;
  }
}

/** Rules pinned to one entity (program / certification / tax measure). */
export function entityPredicates(e: Entity, d: Data, today: string): PredicateResult[] {
  const out: PredicateResult[] = [];
  const r = (predicate_id: string, status: PredicateStatus, field: string | null, message: string): void => {
    out.push({ predicate_id, scope: 'entity', status, field, message, source_url: e.source_url });
  };
  const f = e.facts;
  if (e.record_kind === 'program' || e.record_kind === 'certification') {
    const pref = typeof d.prefecture === 'string' ? normalizePrefecture(d.prefecture) : null;
    if (!e.prefecture) r('entity_prefecture', 'not_applicable', 'prefecture', 'program has no prefecture restriction on record');
    else if (!pref) r('entity_prefecture', 'unknown', 'prefecture', `program is for ${e.prefecture}; applicant prefecture not given`);
    else
      r(
        'entity_prefecture',
        pref === e.prefecture ? 'pass' : 'fail',
        'prefecture',
        pref === e.prefecture ? `applicant in ${e.prefecture}` : `program is for ${e.prefecture}, applicant in ${pref}`,
      );

    const targets = (f.target_types as string[] | undefined) ?? [];
    const declared = [d.target_type, ...(Array.isArray(d.target_types) ? d.target_types : [])].filter((x): x is string => typeof x === 'string');
    if (d.is_sole_proprietor === true) declared.push('sole_proprietor', 'individual');
    if (d.is_sole_proprietor === false) declared.push('corporation');
    if (targets.length === 0 || targets.includes('any')) r('entity_target_types', 'not_applicable', 'target_types', 'program states no applicant kinds');
    else if (declared.length === 0) r('entity_target_types', 'unknown', 'target_type', `program targets ${targets.join(', ')}; applicant kind not given`);
    else {
      const ok = declared.some((t) => targets.includes(t));
      r(
        'entity_target_types',
        ok ? 'pass' : 'fail',
        'target_type',
        ok ? 'applicant kind is among the program targets' : `program targets ${targets.join(', ')}`,
      );
    }

    const cap = typeof f.amount_max_man_yen === 'number' ? f.amount_max_man_yen : null;
    const asked = typeof d.requested_amount_man_yen === 'number' ? d.requested_amount_man_yen : null;
    if (cap === null || asked === null)
      r('entity_amount', 'not_applicable', 'requested_amount_man_yen', cap === null ? 'program has no upper amount on record' : 'no requested amount given');
    else
      r(
        'entity_amount',
        asked <= cap ? 'pass' : 'warn',
        'requested_amount_man_yen',
        asked <= cap ? `within the upper amount ${cap}万円` : `above the upper amount ${cap}万円`,
      );

    const on = typeof d.application_date === 'string' && isIsoDate(d.application_date) ? d.application_date : today;
    if (!e.valid_until && !e.valid_from) r('entity_window', 'not_applicable', 'application_date', 'no application window on record');
    else {
      const open = (!e.valid_from || e.valid_from <= on) && (!e.valid_until || e.valid_until >= on);
      r(
        'entity_window',
        open ? 'pass' : 'warn',
        'application_date',
        open ? `window open on ${on}` : `window ${e.valid_from ?? '?'} to ${e.valid_until ?? '?'} is not open on ${on}`,
      );
    }
  } else if (e.record_kind === 'tax_measure') {
    const result = evalCondition(f.eligibility_conditions_json, d);
    r(
      'entity_tax_conditions',
      result === null ? 'unknown' : result ? 'pass' : 'fail',
      'eligibility_conditions_json',
      result === null
        ? 'applicant data lacks fields the upstream predicate needs'
        : result
          ? 'upstream eligibility predicate holds'
          : 'upstream eligibility predicate does not hold',
    );
    const on = typeof d.application_date === 'string' && isIsoDate(d.application_date) ? d.application_date : today;
    const inEffect = (!e.valid_from || e.valid_from <= on) && (!e.valid_until || e.valid_until >= on);
    r('entity_in_effect', inEffect ? 'pass' : 'fail', 'application_date', inEffect ? `in effect on ${on}` : `not in effect on ${on}`);
  } else {
    r('entity_kind', 'not_applicable', null, `no intake rules for record kind ${e.record_kind}`);
  }
  return out;
}

export interface ValidateResponse {
  applicant_hash: string | null;
  entity_id: string | null;
  scope: string;
  total: number;
  results: PredicateResult[];
  summary: Record<string, unknown>;
  error: AmError | null;
  cached: boolean;
}

const emptySummary = { pass: 0, fail: 0, warn: 0, unknown: 0, not_applicable: 0, ok: false };

export function validate(
  db: CatalogDatabase,
  cache: Lru<string, ValidateResponse>,
  body: { applicant_data: Data; entity_id?: string | null; scope?: string },
  today = jstDate(),
): ValidateResponse {
  const scope = body.scope ?? 'intake';
  const entityId = body.entity_id ?? null;
  const hash = applicantHash(body.applicant_data);
  const base: ValidateResponse = {
    applicant_hash: hash,
    entity_id: entityId,
    scope,
    total: 0,
    results: [],
    summary: { ...emptySummary },
    error: null,
    cached: false,
  };
  if (!(SCOPES as readonly string[]).includes(scope)) {
    return { ...base, error: amError('invalid_enum', 'unknown scope', `scope is one of ${SCOPES.join(', ')}`) };
  }
  if (scope === 'entity' && !entityId) return { ...base, error: amError('empty_input', 'scope entity needs entity_id') };
  // The day is part of the key: window and founding-date checks depend on it.
  const key = JSON.stringify([hash, entityId, scope, today]);
  const hit = cache.get(key);
  if (hit) return { ...hit, cached: true };
  let entity: Entity | null = null;
  if (entityId) {
    entity = findEntity(db, entityId);
    if (!entity)
      return {
        ...base,
        error: amError(
          'seed_not_found',
          `no entity with id ${JSON.stringify(entityId.slice(0, 100))}`,
          'entity_id is a program, certification or tax measure id (UNI-…, TAX-…)',
        ),
      };
  }
  const results = [
    ...(scope === 'intake' || scope === 'all' ? intakePredicates(db, body.applicant_data, today) : []),
    // Rules pinned to the entity join every scope when entity_id is given.
    ...(entity ? entityPredicates(entity, body.applicant_data, today) : []),
  ];
  const count = (s: PredicateStatus): number => results.filter((x) => x.status === s).length;
  const summary = {
    pass: count('pass'),
    fail: count('fail'),
    warn: count('warn'),
    unknown: count('unknown'),
    not_applicable: count('not_applicable'),
    ok: count('fail') === 0,
  };
  const response: ValidateResponse = { ...base, total: results.length, results, summary };
  cache.set(key, response);
  return response;
}
