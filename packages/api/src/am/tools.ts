// The /v1/am tools: each takes validated parameters and the catalogue and
// returns the response object of the contract. Tool failures (unknown enum,
// invalid input, unknown seed) are returned in `error` with empty results and
// never thrown; routes answer them with 200.
import type { CatalogDatabase } from '../catalog/db.ts';
import {
  entitiesByKey, enumValues, getEntity, lawArticle, lawArticleCount, relationsOf, searchEntities, searchLoans,
  sourcesPointingAt, duplicateGroupsOf, programCoverage, sharedSourceUrlCount, type Entity, type LoanRow,
} from '../catalog/queries/am.ts';
import { normalizeText } from '../catalog/text-query.ts';
import {
  RECORD_KINDS, articleLabel, articleSortKey, daysBetween, houjinBangouValid, isIsoDate, lawNameVariants,
  parseArticleNumber, resolveDate,
} from './text.ts';
import { normalizePrefecture } from './slots.ts';
import { jstDate } from '../time.ts';

export interface AmError {
  code: string;
  message: string;
  hint?: string;
  retry_with?: unknown;
}

export const amError = (code: string, message: string, hint?: string, retry_with?: unknown): AmError => ({
  code, message, ...(hint ? { hint } : {}), ...(retry_with !== undefined ? { retry_with } : {}),
});

export interface Envelope {
  total: number;
  limit: number;
  offset: number;
  results: Record<string, unknown>[];
  meta: Record<string, unknown> | null;
  error: AmError | null;
  retrieval_note: string | null;
}

const envelope = (limit: number, offset: number, extra: Partial<Envelope> = {}): Envelope => ({
  total: 0, limit, offset, results: [], meta: null, error: null, retrieval_note: null, ...extra,
});

/** The common row shape of an entity in /v1/am results. */
export function entitySummary(e: Entity): Record<string, unknown> {
  return {
    entity_id: e.entity_id,
    record_kind: e.record_kind,
    name: e.name,
    source_url: e.source_url,
    fetched_at: e.fetched_at,
    valid_from: e.valid_from,
    valid_until: e.valid_until,
    status: e.status,
    prefecture: e.prefecture,
    authority_name: e.authority_name,
    tier: e.tier,
  };
}

/** `a,b` or repeated values -> a list of trimmed non-empty strings. */
export function listParam(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const values = Array.isArray(value) ? value : [value];
  return [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))];
}

function checkKinds(kinds: string[]): AmError | null {
  const bad = kinds.filter((k) => !(RECORD_KINDS as readonly string[]).includes(k));
  return bad.length > 0
    ? amError('invalid_enum', `unknown record kind(s): ${bad.join(', ').slice(0, 200)}`, `kinds must be among: ${RECORD_KINDS.join(', ')}`)
    : null;
}

function prefectureParam(value: string | undefined): { prefecture: string | null; error: AmError | null } {
  if (value === undefined || value.trim() === '' || value === 'national') return { prefecture: null, error: null };
  const p = normalizePrefecture(value);
  return p
    ? { prefecture: p, error: null }
    : { prefecture: null, error: amError('invalid_enum', 'unknown prefecture', 'use one of the 47 prefecture names, e.g. 東京都, or a short form such as 東京') };
}

const queryTerms = (q: string | undefined): string[][] =>
  q ? normalizeText(q).split(' ').filter(Boolean).slice(0, 8).map((t) => [t]) : [];

// ---------------------------------------------------------------- active_at

export interface ActiveAtParams {
  date?: string;
  kinds?: string | string[];
  prefecture?: string;
  query?: string;
  limit: number;
  offset: number;
}

export function activeAt(db: CatalogDatabase, p: ActiveAtParams, today = jstDate()): Envelope & { pivot_date: string | null } {
  const date = resolveDate(p.date, today);
  if (!date) {
    return { ...envelope(p.limit, p.offset, { error: amError('invalid_date', 'date must be YYYY-MM-DD (a real calendar date) or "today"', undefined, { date: today }) }), pivot_date: null };
  }
  const kinds = listParam(p.kinds);
  const useKinds = kinds.length > 0 ? kinds : ['program', 'certification', 'tax_measure'];
  const kindError = checkKinds(useKinds);
  const pref = prefectureParam(p.prefecture);
  if (kindError || pref.error) return { ...envelope(p.limit, p.offset, { error: kindError ?? pref.error }), pivot_date: date };
  const { total, rows } = searchEntities(db, {
    kinds: useKinds, termGroups: queryTerms(p.query), prefecture: pref.prefecture, includeNationwide: true,
    activeOn: date, requireValidity: true, excludeStatuses: ['repealed'], order: 'valid_until', limit: p.limit, offset: p.offset,
  });
  return {
    ...envelope(p.limit, p.offset, {
      total,
      results: rows.map((e) => ({ ...entitySummary(e), days_until_end: e.valid_until ? daysBetween(date, e.valid_until) : null })),
      meta: { kinds: useKinds },
      retrieval_note: 'validity = application window (programs, certifications), effective_from/effective_until (tax measures), enforced_on (laws, no end date; repealed laws left out), exclusion period (enforcement); rows without any validity date are not listed',
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
  limit: number;
  offset: number;
}

export function openPrograms(db: CatalogDatabase, p: OpenProgramsParams, today = jstDate()): Envelope & { pivot_date: string } {
  const date = resolveDate(p.pivot_date, today);
  if (!date) {
    return { ...envelope(p.limit, p.offset, { error: amError('invalid_date', 'pivot_date must be YYYY-MM-DD or "today"', undefined, { pivot_date: today }) }), pivot_date: today };
  }
  const tiers = listParam(p.tier).map((t) => t.toUpperCase());
  const badTier = tiers.find((t) => !['S', 'A', 'B', 'C', 'X'].includes(t));
  const pref = prefectureParam(p.prefecture);
  if (badTier || pref.error) {
    return { ...envelope(p.limit, p.offset, { error: pref.error ?? amError('invalid_enum', 'unknown tier', 'tier is one of S, A, B, C, X') }), pivot_date: date };
  }
  const { total, rows } = searchEntities(db, {
    kinds: ['program', 'certification'], termGroups: queryTerms(p.query), prefecture: pref.prefecture, includeNationwide: true,
    activeOn: date, requireEnd: true, tiers, order: 'valid_until', limit: p.limit, offset: p.offset,
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
      retrieval_note: 'open = application window start (if known) <= pivot_date <= end; only programs with a published window end are listed (56 of 12,072 records carry a window)',
    }),
    pivot_date: date,
  };
}

// ---------------------------------------------------------------- annotations

export interface Annotation {
  annotation_id: string;
  entity_id: string;
  kind: 'quality' | 'examiner' | 'duplicate' | 'coverage' | 'source';
  severity: 'info' | 'warning' | 'critical';
  text: string;
  evidence: Record<string, unknown>;
  source: string;
}

export const ANNOTATION_KINDS = ['quality', 'examiner', 'duplicate', 'coverage', 'source'] as const;
export const ANNOTATION_SEVERITIES = ['info', 'warning', 'critical'] as const;

/** Notes derived from the data about one entity (no free-text opinions). */
export function deriveAnnotations(db: CatalogDatabase, e: Entity): Annotation[] {
  const out: Annotation[] = [];
  const add = (kind: Annotation['kind'], severity: Annotation['severity'], code: string, text: string, evidence: Record<string, unknown>, source: string): void => {
    out.push({ annotation_id: `${e.entity_id}:${code}`, entity_id: e.entity_id, kind, severity, text, evidence, source });
  };
  const f = e.facts;
  if (e.record_kind === 'program' || e.record_kind === 'certification') {
    const tierSeverity = e.tier === 'X' ? 'critical' : e.tier === 'C' ? 'warning' : 'info';
    add('quality', tierSeverity, 'tier', `quality tier ${e.tier}${e.tier === 'X' ? ' (quarantined: left out of searches unless include_excluded)' : ''}`, { tier: e.tier }, 'programs.tier');
    if (f.exclusion_reason) add('examiner', 'critical', 'exclusion_reason', `excluded: ${String(f.exclusion_reason)}`, { exclusion_reason: f.exclusion_reason }, 'programs.exclusion_reason');
    if (f.tier === undefined || (e.provenance.tier === undefined && e.tier === 'X')) {
      add('examiner', 'warning', 'no_upstream_tier', 'no source gives a tier: stored as X/unclassified', {}, 'derived');
    }
    const cov = programCoverage(db, e.entity_id);
    if (cov) {
      const gaps = JSON.parse(cov.gap_to_tier_s) as string[];
      if (gaps.length > 0) add('coverage', gaps.length >= 6 ? 'warning' : 'info', 'coverage_gaps', `${gaps.length} of 10 evidence dimensions missing: ${gaps.join(', ')}`, { coverage_score: cov.coverage_score, gap_to_tier_s: gaps }, 'derived:a_to_j_coverage');
      add('source', cov.trust_level === 'unverified' ? 'warning' : 'info', 'trust_level', `trust level ${cov.trust_level}`, { trust_level: cov.trust_level }, 'derived:trust_level');
    }
    for (const g of duplicateGroupsOf(db, e.entity_id)) {
      const loser = g.winner_uid !== null && g.winner_uid !== e.entity_id && g.verdict === 'merge';
      add('duplicate', loser ? 'warning' : 'info', `duplicate:${g.group_name.slice(0, 40)}`,
        `member of upstream duplicate group "${g.group_name}" (verdict ${g.verdict ?? 'none'}${g.winner_uid ? `, kept record ${g.winner_uid}` : ''})`,
        { group_name: g.group_name, verdict: g.verdict, winner_uid: g.winner_uid, unified_ids: JSON.parse(g.unified_ids) }, 'program_duplicates');
    }
    if (typeof f.source_last_check_status === 'number') {
      const ok = f.source_last_check_status === 200;
      add('source', ok ? 'info' : 'warning', 'liveness', `upstream liveness probe of the source answered HTTP ${f.source_last_check_status}`, { source_last_check_status: f.source_last_check_status }, 'programs.source_last_check_status');
    }
    if (!e.source_url) add('source', 'warning', 'no_source_url', 'no primary source URL', {}, 'programs.source_url');
    else {
      const shared = sharedSourceUrlCount(db, e.source_url);
      if (shared > 1) add('source', 'info', 'shared_source_url', `source_url shared with ${shared - 1} other record(s) (list page)`, { shared_with: shared - 1 }, 'programs.source_url');
    }
    if (/(PDF|について|ホームページ|お知らせ|一覧)/.test(e.name)) {
      add('quality', 'warning', 'title_like_name', 'name looks like a page or document title rather than a program name', { name: e.name }, 'derived:name_pattern');
    }
  } else if (e.record_kind === 'enforcement') {
    if (f.target_name_suppressed === true) add('examiner', 'info', 'target_suppressed', 'target name withheld upstream to avoid identifying individuals', {}, 'enforcement.target_name_suppressed');
    if (f.reason_excerpt_withheld === true) add('examiner', 'info', 'excerpt_withheld', 'reason excerpt withheld (mentions officers or sentences)', {}, 'enforcement.reason_excerpt_withheld');
    if (f.related_programs_auto) add('quality', 'warning', 'auto_program_match', 'related programs were matched automatically upstream (heuristic)', {}, 'enforcement.related_programs_auto');
  } else if (e.record_kind === 'case_study') {
    if (f.houjin_bangou_invalid_as_published) add('quality', 'warning', 'invalid_houjin', 'published corporate number fails the check digit', { published: f.houjin_bangou_invalid_as_published }, 'case_studies.houjin_bangou_invalid_as_published');
    add('coverage', 'info', 'no_program_link', 'the source page does not say which program the case used', {}, 'case_studies');
  } else if (e.record_kind === 'law') {
    if (f.articles_truncated === true) add('coverage', 'warning', 'articles_truncated', 'source page shows only the first 250 articles', {}, 'laws.articles_truncated');
    if (e.status === 'repealed' || e.status === 'superseded') add('examiner', 'warning', 'status', `law status: ${e.status}`, { status: e.status }, 'laws.status');
    if (Array.isArray(f.law_id_candidates)) add('quality', 'warning', 'ambiguous_id', 'title matches several upstream law ids', { law_id_candidates: f.law_id_candidates }, 'laws.law_id_candidates');
    if (!f.law_slug) add('coverage', 'info', 'index_only', 'index-only law: id and title, no page or articles', {}, 'laws');
  } else if (e.record_kind === 'tax_measure') {
    if (f.needs_verification === true) add('examiner', 'warning', 'needs_verification', 'upstream marks this ruleset as needing verification', {}, 'tax_rulesets.needs_verification');
    if (typeof f.confidence === 'number') add('quality', f.confidence < 0.8 ? 'warning' : 'info', 'confidence', `upstream confidence ${f.confidence}`, { confidence: f.confidence }, 'tax_rulesets.confidence');
  }
  if (!e.source_url && e.record_kind !== 'program' && e.record_kind !== 'certification') {
    add('source', 'info', 'no_source_url', 'no source URL of its own (derived entity)', {}, e.record_source ?? 'derived');
  }
  return out;
}

export function annotations(db: CatalogDatabase, entityId: string, p: { kind?: string; severity?: string; limit: number; offset: number }):
  Envelope & { entity_id: string; filters: Record<string, unknown> } {
  const filters = { kind: p.kind ?? null, severity: p.severity ?? null };
  const base = { entity_id: entityId, filters };
  if (p.kind && !(ANNOTATION_KINDS as readonly string[]).includes(p.kind)) {
    return { ...envelope(p.limit, p.offset, { error: amError('invalid_enum', 'unknown annotation kind', `kind is one of ${ANNOTATION_KINDS.join(', ')}`) }), ...base };
  }
  if (p.severity && !(ANNOTATION_SEVERITIES as readonly string[]).includes(p.severity)) {
    return { ...envelope(p.limit, p.offset, { error: amError('invalid_enum', 'unknown severity', `severity is one of ${ANNOTATION_SEVERITIES.join(', ')}`) }), ...base };
  }
  const e = getEntity(db, entityId);
  if (!e) return { ...envelope(p.limit, p.offset, { error: seedNotFound(db, entityId, 'entity_id') }), ...base };
  const all = deriveAnnotations(db, e).filter((a) => (!p.kind || a.kind === p.kind) && (!p.severity || a.severity === p.severity));
  return {
    ...envelope(p.limit, p.offset, {
      total: all.length,
      results: all.slice(p.offset, p.offset + p.limit) as unknown as Record<string, unknown>[],
      retrieval_note: 'annotations are derived from the dataset (tier, coverage, duplicate groups, exclusion reasons, source liveness); no human examiner notes are published upstream',
    }),
    ...base,
  };
}

function seedNotFound(db: CatalogDatabase, id: string, param: string): AmError {
  // Suggest entities whose name contains the input (it may be a name, not an id).
  const t = normalizeText(id).slice(0, 100);
  const near = t.length >= 2
    ? searchEntities(db, { kinds: [...RECORD_KINDS], termGroups: [[t]], order: 'tier', limit: 3, offset: 0 }).rows
    : [];
  return amError('seed_not_found', `no entity with id ${JSON.stringify(id.slice(0, 100))}`,
    near.length > 0 ? `did you mean ${near.map((n) => n.entity_id).join(', ')}?` : 'ids look like UNI-…, TAX-…, LAW-…, HB-<13 digits>, AUTH-…, mirasapo_case_…',
    near.length > 0 ? { [param]: near[0].entity_id } : undefined);
}

// -------------------------------------------------------------------- by_law

export interface LawResolution {
  laws: Entity[];
  tried: string[];
}

export function resolveLaw(db: CatalogDatabase, input: string): LawResolution {
  const tried: string[] = [];
  const found = new Map<string, Entity>();
  const trimmed = input.trim();
  if (/^LAW(SLUG)?-/i.test(trimmed)) {
    tried.push(trimmed);
    const e = getEntity(db, trimmed);
    if (e && e.record_kind === 'law') found.set(e.entity_id, e);
  }
  if (found.size === 0) {
    for (const variant of lawNameVariants(trimmed)) {
      tried.push(variant);
      for (const e of entitiesByKey(db, variant, 'law')) found.set(e.entity_id, e);
      if (found.size > 0) break;
    }
  }
  for (const e of found.values()) {
    if (!tried.includes(e.name)) tried.push(e.name);
    const slug = e.facts.law_slug;
    if (typeof slug === 'string' && !tried.includes(slug)) tried.push(slug);
  }
  // A law with a page (articles, links) first, then active before repealed.
  const laws = [...found.values()].sort((a, b) => Number(!a.facts.law_slug) - Number(!b.facts.law_slug)
    || Number(a.status === 'repealed') - Number(b.status === 'repealed') || a.entity_id.localeCompare(b.entity_id));
  return { laws, tried };
}

const KIND_ORDER: Record<string, number> = { program: 0, certification: 1, tax_measure: 2, enforcement: 3 };

export function byLaw(db: CatalogDatabase, p: { law_name: string; article?: string; kinds?: string | string[]; limit: number; offset: number }):
  Envelope & { law_aliases_tried: string[] } {
  const name = p.law_name.trim();
  if (name === '') return { ...envelope(p.limit, p.offset, { error: amError('empty_input', 'law_name is empty') }), law_aliases_tried: [] };
  const kinds = listParam(p.kinds);
  const kindError = checkKinds(kinds);
  if (kindError) return { ...envelope(p.limit, p.offset, { error: kindError }), law_aliases_tried: [] };
  const article = p.article ? parseArticleNumber(p.article) : null;
  if (p.article && !article) {
    return { ...envelope(p.limit, p.offset, { error: amError('invalid_input', 'article is not an article number', 'e.g. 第17条, 17条の2, 17') }), law_aliases_tried: [] };
  }
  const { laws, tried } = resolveLaw(db, name);
  if (laws.length === 0) {
    const near = searchEntities(db, { kinds: ['law'], termGroups: [[normalizeText(name).slice(0, 100)]], order: 'name', limit: 5, offset: 0 }).rows;
    return {
      ...envelope(p.limit, p.offset, {
        error: amError('no_matching_records', 'no law matches this name', near.length > 0 ? 'laws whose title contains the name are listed in retry_with' : 'give the formal title, a known short name (略称) or a LAW- id',
          near.length > 0 ? near.map((n) => ({ law_name: n.name })) : undefined),
      }),
      law_aliases_tried: tried,
    };
  }
  const lawIds = laws.map((l) => l.entity_id);
  const edges = sourcesPointingAt(db, lawIds, ['based_on_law', 'cites_law']);
  const seen = new Set<string>();
  let rows: Record<string, unknown>[] = [];
  for (const edge of edges) {
    if (seen.has(edge.src_id)) continue;
    const e = getEntity(db, edge.src_id);
    if (!e || (kinds.length > 0 && !kinds.includes(e.record_kind))) continue;
    let articleMatch: string | null = null;
    if (article) {
      if (e.record_kind === 'tax_measure') {
        const basis = ((e.facts.legal_basis as string[] | undefined) ?? []).map((b) => b.normalize('NFKC'));
        const label = articleLabel({ ...article, supplementary: false }).replace(/^第/, '第');
        if (!basis.some((b) => b.includes(label))) continue;
        articleMatch = 'article';
      } else {
        articleMatch = 'law_level';
      }
    }
    seen.add(edge.src_id);
    rows.push({ ...entitySummary(e), law_id: edge.dst_id, relation: edge.relation, relation_source: edge.source, confidence: edge.confidence,
      ...(article ? { article_match: articleMatch } : {}) });
  }
  const tierRank = (t: unknown): number => (typeof t === 'string' ? 'SABCX'.indexOf(t) : 5);
  rows = rows.sort((a, b) => (KIND_ORDER[a.record_kind as string] ?? 9) - (KIND_ORDER[b.record_kind as string] ?? 9)
    || tierRank(a.tier) - tierRank(b.tier) || (b.confidence as number) - (a.confidence as number) || String(a.name).localeCompare(String(b.name)));
  return {
    ...envelope(p.limit, p.offset, {
      total: rows.length,
      results: rows.slice(p.offset, p.offset + p.limit),
      meta: { laws: laws.map((l) => ({ law_id: l.entity_id, title: l.name, status: l.status, source_url: l.source_url })) },
      retrieval_note: article
        ? 'article-level links exist only for tax measures (legal_basis); other rows are linked to the law as a whole (article_match: law_level)'
        : 'links: program_law_refs (programs), tax_rulesets.legal_basis (tax measures), enforcement.related_laws (enforcement records)',
    }),
    law_aliases_tried: tried,
  };
}

// ---------------------------------------------------------------- provenance

/** What each `_provenance` source key of programs.jsonl stands for (data/README.md). */
export const PROVENANCE_SOURCES: Record<string, string> = {
  idx: 'data/facts_registry.json (public index): id and name',
  llms: 'site/llms-full.txt, section "All Programs" (newest version wins)',
  rss_pref: 'site/rss/prefecture/<slug>.xml (47 prefecture feeds)',
  rss_tier_s: 'site/rss/programs-tier-s.xml',
  sitemap: 'site/sitemap-programs.xml (tier from <priority>, slug)',
  industries: 'site/industries/<JSIC>/<slug>/index.html',
  cities: 'site/cities/<city>/index.html',
  cross: 'site/cross/<pref>/<slug>.html',
  am_diff: 'data/snapshots/am_diff_20260430_shard01…07.json (normalised Tier-S fields)',
  tier_x_queue: 'data/tier_x_review_queue.jsonl',
  dup_queue: 'data/duplicate_review_queue.jsonl',
  pref_overrides: 'data/autonomath/prefecture_overrides.json (upstream inference)',
  openapi_example: 'docs/openapi/v1.json response examples',
  local_gov_code: 'name prefix + data/etl_dd2_municipality_manifest_2026_05_17.json',
  law_page: 'site/laws/*.md',
  enforcement_page: 'site/enforcement/*.md',
  eval_gold_filter: 'evals/gold.yaml',
  'derived:authority_name': 'derived at extraction from the authority name',
  'derived:municipality': 'derived at extraction from a known municipality',
  'cleaned:central-government-contact-address': 'prefecture removed (came only from a Kasumigaseki contact address)',
};

const UPSTREAM_REPO = 'https://github.com/shigetosidumeda-cyber/autonomath-mcp';

export function provenance(db: CatalogDatabase, entityId: string, p: { fact?: string; limit: number; offset: number }): Envelope {
  const e = getEntity(db, entityId);
  if (!e) return envelope(p.limit, p.offset, { error: seedNotFound(db, entityId, 'entity_id') });
  const rows: Record<string, unknown>[] = [];
  const isProgram = e.record_kind === 'program' || e.record_kind === 'certification';
  for (const [field, value] of Object.entries(e.facts)) {
    let key: string;
    if (isProgram) {
      const k = e.provenance[field];
      key = typeof k === 'string' ? k : field === 'unified_id' || field === 'in_public_index' ? 'idx' : 'derived';
    } else {
      key = e.record_source ?? 'dataset';
    }
    const description = PROVENANCE_SOURCES[key] ?? (key === 'derived' ? 'derived at ingest by a documented rule (docs/decisions.md)' : `upstream file ${key}`);
    rows.push({
      entity_id: e.entity_id, field, value, source_key: key, source_description: description,
      upstream_repository: UPSTREAM_REPO, primary_source_url: e.source_url, fetched_at: e.fetched_at,
    });
  }
  let filtered = rows;
  if (p.fact !== undefined) {
    filtered = rows.filter((r) => r.field === p.fact);
    if (filtered.length === 0) {
      return envelope(p.limit, p.offset, {
        error: amError('invalid_field', `entity ${e.entity_id} has no fact ${JSON.stringify(p.fact.slice(0, 100))}`, `facts: ${rows.map((r) => r.field).join(', ')}`.slice(0, 500)),
      });
    }
  }
  return envelope(p.limit, p.offset, {
    total: filtered.length,
    results: filtered.slice(p.offset, p.offset + p.limit),
    meta: { entity: entitySummary(e) },
    retrieval_note: isProgram
      ? 'per-field source keys of programs.jsonl (_provenance); fields without a key are ingest derivations'
      : `every field comes from ${e.record_source ?? 'the dataset record'}`,
  });
}

// ------------------------------------------------------------ loans, mutual plans

export interface LoanSearchResponse {
  results: Record<string, unknown>[];
  total: number;
  limit: number;
  offset: number;
  result_count: number;
  error: AmError | null;
  retrieval_note: string;
}

function loanRow(r: LoanRow): Record<string, unknown> {
  const data = JSON.parse(r.data) as Record<string, unknown>;
  return {
    id: r.loan_key, plan_type: r.plan_type, name: r.name, provider: r.provider, program_kind: r.program_kind,
    loan_type: r.loan_type, prefecture: r.prefecture, tier: r.tier, amount_max_yen: r.amount_max_yen,
    collateral_required: r.collateral_required, personal_guarantor_required: r.personal_guarantor_required,
    third_party_guarantor_required: r.third_party_guarantor_required,
    ...(r.plan_type === 'mutual_aid' ? { plan_kind: r.plan_kind, tax_deduction_type: r.tax_deduction_type } : {}),
    interest_rate_base_annual: data.interest_rate_base_annual ?? null,
    loan_period_years_max: data.loan_period_years_max ?? null,
    source_url: r.source_url,
  };
}

export const LOAN_KINDS = ['ippan', 'trou', 'seirei', 'sanko', 'sogyo', 'rinsei', 'saigai', 'shingiseikyu', 'kiki', 'other'] as const;
export const PLAN_KINDS = ['retirement_mutual', 'bankruptcy_mutual', 'dc_pension', 'db_pension', 'industry_pension', 'welfare_insurance', 'health_insurance', 'other'] as const;
export const TAX_DEDUCTION_TYPES = ['small_enterprise_deduction', 'idekodc', 'group_retirement', 'corp_expense', 'none'] as const;

export interface LoansParams {
  name_query?: string;
  provider?: string;
  loan_kind?: string;
  prefecture?: string;
  no_collateral?: boolean;
  no_personal_guarantor?: boolean;
  no_third_party_guarantor?: boolean;
  min_amount_yen?: number;
  max_amount_yen?: number;
  limit: number;
  offset: number;
}

export function loans(db: CatalogDatabase, p: LoansParams): LoanSearchResponse {
  const base = { results: [], total: 0, limit: p.limit, offset: p.offset, result_count: 0, error: null, retrieval_note: '' };
  const pref = prefectureParam(p.prefecture);
  if (pref.error) return { ...base, error: pref.error };
  const { total, rows } = searchLoans(db, {
    planType: 'loan', nameTerms: p.name_query ? normalizeText(p.name_query).split(' ').slice(0, 8) : [], provider: p.provider,
    loanKind: p.loan_kind, prefecture: pref.prefecture ?? undefined, noCollateral: p.no_collateral,
    noPersonalGuarantor: p.no_personal_guarantor, noThirdPartyGuarantor: p.no_third_party_guarantor,
    minAmountYen: p.min_amount_yen, maxAmountYen: p.max_amount_yen, limit: p.limit, offset: p.offset,
  });
  const results = rows.map(loanRow);
  return {
    ...base, results, total, result_count: results.length,
    retrieval_note: 'the three risk axes (collateral, personal and third-party guarantor) are published for 2 JFC products only; the other loan records carry `unknown` and never pass a no_* switch',
  };
}

export function mutualPlans(db: CatalogDatabase, p: { name_query?: string; provider?: string; plan_kind?: string; tax_deduction_type?: string; limit: number; offset: number }): LoanSearchResponse {
  const base = { results: [], total: 0, limit: p.limit, offset: p.offset, result_count: 0, error: null, retrieval_note: '' };
  if (p.plan_kind && !(PLAN_KINDS as readonly string[]).includes(p.plan_kind)) {
    return { ...base, error: amError('invalid_enum', 'unknown plan_kind', `plan_kind is one of ${PLAN_KINDS.join(', ')}`) };
  }
  if (p.tax_deduction_type && !(TAX_DEDUCTION_TYPES as readonly string[]).includes(p.tax_deduction_type)) {
    return { ...base, error: amError('invalid_enum', 'unknown tax_deduction_type', `tax_deduction_type is one of ${TAX_DEDUCTION_TYPES.join(', ')}`) };
  }
  const { total, rows } = searchLoans(db, {
    planType: 'mutual_aid', nameTerms: p.name_query ? normalizeText(p.name_query).split(' ').slice(0, 8) : [], provider: p.provider,
    planKind: p.plan_kind, taxDeductionType: p.tax_deduction_type, limit: p.limit, offset: p.offset,
  });
  const results = rows.map(loanRow);
  return {
    ...base, results, total, result_count: results.length,
    retrieval_note: 'plan_kind and tax_deduction_type are classified from the plan name at ingest (共済 names); premiums are not in the dataset',
  };
}

// -------------------------------------------------------------------- tax_rule

/** Query words and the other words the same measure is published under. */
const TAX_SYNONYMS: Record<string, string[]> = {
  インボイス: ['インボイス', '適格請求書', '適格簡易請求書', '登録番号', '免税事業者'],
  電帳法: ['電子帳簿', '電子取引', '電磁的記録'],
  電子帳簿保存法: ['電子帳簿', '電子取引', '電磁的記録'],
  賃上げ: ['賃上げ', '給与等支給額'],
  '2割特例': ['2割特例', '2割', '小規模事業者に係る税額控除'],
};

export const TAX_RULE_TYPES = ['credit', 'deduction', 'reduction', 'special_depreciation', 'immediate_writeoff', 'exemption', 'registration', 'preservation', 'other'] as const;

export function taxRule(db: CatalogDatabase, p: { measure_name_or_id: string; rule_type?: string; as_of?: string; limit: number }, today = jstDate()):
  { results: Record<string, unknown>[]; total: number; error: AmError | null; retrieval_note: string | null } {
  const q = p.measure_name_or_id.trim();
  const fail = (error: AmError) => ({ results: [], total: 0, error, retrieval_note: null });
  if (q === '') return fail(amError('empty_input', 'measure_name_or_id is empty'));
  if (p.rule_type && !(TAX_RULE_TYPES as readonly string[]).includes(p.rule_type)) {
    return fail(amError('invalid_enum', 'unknown rule_type', `rule_type is one of ${TAX_RULE_TYPES.join(', ')}`));
  }
  if (p.as_of !== undefined && !isIsoDate(p.as_of)) return fail(amError('invalid_date', 'as_of must be YYYY-MM-DD'));
  let candidates: Entity[];
  /** Why each row matched: direct (words found), rate_range, same_family. */
  const match = new Map<string, string>();
  const byId = /^TAX-/i.test(q) ? getEntity(db, q.toUpperCase().replace(/^TAX-/, 'TAX-')) ?? getEntity(db, q) : null;
  if (byId && byId.record_kind === 'tax_measure') {
    candidates = [byId];
  } else {
    const terms = normalizeText(q).split(' ').filter(Boolean).slice(0, 8);
    const groups = terms.map((t) => TAX_SYNONYMS[t] ?? [t]);
    candidates = searchEntities(db, { kinds: ['tax_measure'], termGroups: groups, order: 'name', limit: 500, offset: 0 }).rows;
    // Matches in the measure's own name rank before matches in its legal basis or formula.
    const inName = (e: Entity): number => groups.filter((g) => g.some((t) => normalizeText(e.name).includes(normalizeText(t)))).length;
    candidates.sort((a, b) => inName(b) - inName(a) || a.name.localeCompare(b.name));
    for (const e of candidates) match.set(e.entity_id, 'direct');
    const all = searchEntities(db, { kinds: ['tax_measure'], order: 'name', limit: 500, offset: 0 }).rows;
    // A rate asked for (80%) also finds measures publishing a range that contains it (40%-90%).
    const pct = /^(\d+(?:\.\d+)?)[%％]$/.exec(q.normalize('NFKC'));
    if (pct) {
      const v = Number(pct[1]);
      for (const e of all) {
        if (match.has(e.entity_id)) continue;
        const text = [e.name, e.facts.rate_or_amount, e.facts.calculation_formula].filter(Boolean).join(' ').normalize('NFKC');
        for (const m of text.matchAll(/(\d+(?:\.\d+)?)%\s*[-〜~]\s*(\d+(?:\.\d+)?)%/g)) {
          if (Number(m[1]) <= v && v <= Number(m[2])) {
            candidates.push(e);
            match.set(e.entity_id, 'rate_range');
            break;
          }
        }
      }
    }
    // Measures of the same family (same name before the first number or bracket) follow the direct hits.
    const stem = (name: string): string => name.normalize('NFKC').split(/\s*[(（]|\s+\S*\d/)[0].trim();
    const stems = new Set(candidates.filter((e) => match.get(e.entity_id) === 'direct').map((e) => stem(e.name)).filter((x) => [...x].length >= 6));
    for (const e of all) {
      if (!match.has(e.entity_id) && stems.has(stem(e.name))) {
        candidates.push(e);
        match.set(e.entity_id, 'same_family');
      }
    }
  }
  const kindFor = (t: string): string[] => (t === 'reduction' ? ['deduction', 'exemption', 'credit'] : t === 'immediate_writeoff' ? ['special_depreciation'] : [t]);
  const asOf = p.as_of ?? null;
  const rows = candidates
    .filter((e) => !p.rule_type || kindFor(p.rule_type).includes(String(e.facts.ruleset_kind)))
    .filter((e) => !asOf || ((!e.valid_from || e.valid_from <= asOf) && (!e.valid_until || e.valid_until >= asOf)))
    .map((e) => {
      const ref = asOf ?? today;
      return {
        unified_id: e.entity_id, match: match.get(e.entity_id) ?? 'id', ruleset_name: e.name, tax_category: e.facts.tax_category ?? null,
        ruleset_kind: e.facts.ruleset_kind ?? null, rate_or_amount: e.facts.rate_or_amount ?? null,
        calculation_formula: e.facts.calculation_formula ?? null, legal_basis: e.facts.legal_basis ?? [],
        effective_from: e.valid_from, effective_until: e.valid_until,
        in_effect: (!e.valid_from || e.valid_from <= ref) && (!e.valid_until || e.valid_until >= ref),
        days_until_sunset: e.valid_until ? daysBetween(ref, e.valid_until) : null,
        eligibility_conditions: e.facts.eligibility_conditions_json ?? null,
        authority: e.authority_name, source_url: e.source_url, confidence: e.facts.confidence ?? null,
        needs_verification: e.facts.needs_verification ?? null,
      };
    });
  return {
    results: rows.slice(0, p.limit),
    total: rows.length,
    error: null,
    retrieval_note: `in_effect evaluated at ${asOf ?? today}; search covers the 50 tax rulesets (name, legal basis, rate, formula)`,
  };
}

// ---------------------------------------------------------------- gx_programs

export const GX_THEMES: Record<string, string[]> = {
  ghg_reduction: ['省エネ', '脱炭素', '温室効果ガス', 'co2', '二酸化炭素', 'カーボンニュートラル', '排出削減', 'gx', '省エネルギー'],
  ev: ['電気自動車', '充電設備', '充電インフラ', '燃料電池', '次世代自動車', 'クリーンエネルギー自動車', '電動車', 'ev充電', 'evトラック', '水素ステーション'],
  renewable: ['再生可能エネルギー', '再エネ', '太陽光', '風力', 'バイオマス', '地熱', '小水力', '蓄電池', '蓄電システム'],
  zeb_zeh: ['zeb', 'zeh', 'ネット・ゼロ', 'ネットゼロ', '断熱', '省エネ住宅', '高断熱', '長期優良住宅', '省エネ改修'],
  carbon_credit: ['j-クレジット', 'jクレジット', 'カーボン・オフセット', 'カーボンオフセット', '排出量取引', '森林吸収', 'クレジット'],
};

export function gxPrograms(db: CatalogDatabase, p: { theme?: string; region?: string; query?: string; limit: number }):
  { total: number; results: Record<string, unknown>[]; error: AmError | null; theme: string; keywords: string[] } {
  const theme = p.theme ?? 'ghg_reduction';
  const keywords = GX_THEMES[theme];
  if (!keywords) {
    return { total: 0, results: [], error: amError('invalid_enum', 'unknown theme', `theme is one of ${Object.keys(GX_THEMES).join(', ')}`), theme, keywords: [] };
  }
  const pref = prefectureParam(p.region);
  if (pref.error) return { total: 0, results: [], error: pref.error, theme, keywords };
  const { total, rows } = searchEntities(db, {
    kinds: ['program', 'certification'], termGroups: [keywords, ...queryTerms(p.query)], prefecture: pref.prefecture,
    includeNationwide: true, excludeTierX: true, order: 'tier', limit: p.limit, offset: 0,
  });
  return {
    total,
    results: rows.map((e) => ({ ...entitySummary(e), amount_max_man_yen: e.facts.amount_max_man_yen ?? null, program_kind: e.facts.program_kind ?? null })),
    error: null, theme, keywords,
  };
}

// ---------------------------------------------------------------- enforcement

export function enforcementCheck(db: CatalogDatabase, p: { houjin_bangou?: string; target_name?: string; as_of_date?: string }, today = jstDate()) {
  const queried = { houjin_bangou: p.houjin_bangou ?? null, target_name: p.target_name ?? null, as_of_date: p.as_of_date ?? 'today' };
  const base = { found: false, currently_excluded: false, active_exclusions: [] as Record<string, unknown>[], all_count: 0, queried, recent_history: [] as Record<string, unknown>[], error: null as AmError | null, warnings: [] as string[] };
  const asOf = resolveDate(p.as_of_date, today);
  if (!asOf) return { ...base, error: amError('invalid_date', 'as_of_date must be YYYY-MM-DD or "today"') };
  queried.as_of_date = asOf;
  const hb = p.houjin_bangou?.normalize('NFKC').replace(/[-\s]/g, '');
  const name = p.target_name?.trim();
  if (!hb && !name) return { ...base, error: amError('empty_input', 'give houjin_bangou or target_name', 'houjin_bangou is the 13-digit corporate number') };
  if (hb !== undefined && hb !== '' && !/^\d{13}$/.test(hb)) {
    return { ...base, error: amError('invalid_input', 'houjin_bangou must be 13 digits') };
  }
  if (hb && !houjinBangouValid(hb)) base.warnings.push('houjin_bangou fails the check digit; searched as given');
  const records = new Map<string, Entity>();
  if (hb) {
    // The number is in each record's search text (valid or not), so a number failing the check digit still matches.
    const { rows } = searchEntities(db, { kinds: ['enforcement'], termGroups: [[hb]], order: 'name', limit: 500, offset: 0 });
    for (const e of rows) if (e.facts.houjin_bangou === hb) records.set(e.entity_id, e);
  }
  if (name && [...normalizeText(name)].length >= 2) {
    const { rows } = searchEntities(db, { kinds: ['enforcement'], termGroups: [[normalizeText(name).slice(0, 200)]], order: 'name', limit: 200, offset: 0 });
    for (const e of rows) records.set(e.entity_id, e);
  } else if (name) {
    base.warnings.push('target_name shorter than 2 characters is ignored');
  }
  const rows = [...records.values()].map((e) => {
    const start = e.valid_from;
    const end = e.valid_until;
    const active = start !== null && start <= asOf && (end === null || end >= asOf);
    return {
      entity_id: e.entity_id, title: e.name, target_name: e.facts.target_name ?? null, houjin_bangou: e.facts.houjin_bangou ?? null,
      action_type: e.status, authority: e.authority_name, action_date: e.facts.action_date ?? null,
      exclusion_start: start, exclusion_end: end, active, amount_yen: e.facts.amount_yen ?? null,
      source_url: e.source_url,
    };
  }).sort((a, b) => String(b.action_date ?? '').localeCompare(String(a.action_date ?? '')) || a.entity_id.localeCompare(b.entity_id));
  const active = rows.filter((r) => r.active);
  return {
    ...base,
    found: rows.length > 0,
    currently_excluded: active.length > 0,
    active_exclusions: active,
    all_count: rows.length,
    recent_history: rows.slice(0, 10),
  };
}

// ---------------------------------------------------------------------- enums

/** Tool-facing enum names -> the dataset's enum names (data/README.md, enums.jsonl). */
export const ENUM_ALIASES: Record<string, { source: string; description: string }> = {
  authority: { source: 'am.authority', description: 'administering bodies of programs and enforcement records (authority entities), with the number of records linked to each' },
  tier: { source: 'program.tier', description: 'quality tier of programs: S, A, B, C, X (X = quarantined)' },
  industry: { source: 'program.jsic_major', description: 'JSIC major industry codes programs are listed under' },
  funding_purpose: { source: 'program.funding_purpose', description: 'funding purposes of programs (Japanese labels)' },
  target_type: { source: 'program.target_types', description: 'eligible applicant kinds of programs' },
  region: { source: 'prefecture', description: 'the 47 prefectures (label = RSS slug)' },
  tax_category: { source: 'tax_ruleset.tax_category', description: 'tax categories of tax rulesets' },
  program_kind: { source: 'program.program_kind', description: 'upstream program kind codes' },
  event_type: { source: 'enforcement.action_type', description: 'kinds of enforcement actions' },
  ministry: { source: 'law.ministry_code', description: 'ministry codes of laws' },
  record_kind: { source: 'am.record_kind', description: 'the 12 record kinds of the entity graph, counted in this catalogue' },
  relation: { source: 'am.relation', description: 'relation types of the entity graph with their edge counts' },
};

export function enums(db: CatalogDatabase, enumName: string, lastUpdated: string | null) {
  const alias = ENUM_ALIASES[enumName];
  const source = alias?.source ?? enumName;
  const rows = enumValues(db, source);
  if (rows.length === 0) {
    const known = [...Object.keys(ENUM_ALIASES)];
    return {
      enum_name: enumName, description: null, values: [] as string[], frequency_map: {} as Record<string, number>, last_updated: lastUpdated,
      error: amError('invalid_enum', `unknown enum ${JSON.stringify(enumName.slice(0, 100))}`, `enum_name is one of ${known.join(', ')} (or a dataset enum such as program.tier)`),
    };
  }
  return {
    enum_name: enumName,
    description: alias?.description ?? `values of ${source} observed in the dataset`,
    values: rows.map((r) => r.value),
    frequency_map: Object.fromEntries(rows.map((r) => [r.value, r.count ?? 0])),
    labels: Object.fromEntries(rows.filter((r) => r.label_ja).map((r) => [r.value, r.label_ja])),
    source_enum: source,
    last_updated: lastUpdated,
    error: null,
  };
}

// ---------------------------------------------------------------- law_article

export function lawArticleLookup(db: CatalogDatabase, p: { law_name_or_canonical_id: string; article_number: string }) {
  const empty = {
    found: false, article_id: null, article_number: null, article_number_sort: null, effective_from: null,
    effective_until: null, last_amended: null, law: null as Record<string, unknown> | null, source_fetched_at: null,
    source_url: null, text_full: null, text_summary: null, title: null, error: null as AmError | null,
    law_aliases_tried: [] as string[],
  };
  if (p.law_name_or_canonical_id.trim() === '' || p.article_number.trim() === '') {
    return { ...empty, error: amError('empty_input', 'law_name_or_canonical_id and article_number are required') };
  }
  const article = parseArticleNumber(p.article_number);
  if (!article) return { ...empty, error: amError('invalid_input', 'article_number is not an article number', 'e.g. 第17条, 第二十一条の二, 17-2, 附則第3条') };
  const { laws, tried } = resolveLaw(db, p.law_name_or_canonical_id);
  if (laws.length === 0) return { ...empty, law_aliases_tried: tried, error: amError('no_matching_records', 'no law matches this name or id', 'give the formal title, a known short name (略称) or a LAW- id') };
  const law = laws.find((l) => lawArticleCount(db, l.entity_id) > 0) ?? laws[0];
  const lawObj = {
    law_id: law.entity_id, title: law.name, law_number: law.facts.law_number ?? null, egov_law_id: law.facts.egov_law_id ?? null,
    status: law.status, enforced_on: law.valid_from, last_amended_on: law.facts.last_amended_on ?? null, source_url: law.source_url,
  };
  const sort = articleSortKey(article);
  const row = lawArticle(db, law.entity_id, sort, article.supplementary);
  if (!row) {
    const shipped = lawArticleCount(db, law.entity_id) > 0;
    return {
      ...empty, law: lawObj, law_aliases_tried: tried, article_number: articleLabel(article), article_number_sort: sort,
      source_url: law.source_url,
      error: amError('no_matching_records', shipped ? `the law has no article ${articleLabel(article)} in the shipped text` : 'article text of this law is not in the dataset (79 laws ship their articles)',
        shipped ? (law.facts.articles_truncated ? 'the source page showed only the first 250 articles' : 'check the number') : 'read the article at source_url (e-Gov)'),
    };
  }
  const body = row.text.replace(/^（[^）]*）/, '').trim();
  const summary = body.length > 160 ? `${body.slice(0, 160)}…` : body;
  return {
    ...empty,
    found: true,
    article_id: `${law.entity_id}#${row.article_key}`,
    article_number: row.article_label ?? articleLabel(article),
    article_number_sort: row.article_number_sort,
    effective_from: law.valid_from,
    effective_until: law.status === 'repealed' ? (law.facts.last_amended_on as string | undefined) ?? null : null,
    last_amended: (law.facts.last_amended_on as string | undefined) ?? null,
    law: lawObj,
    source_fetched_at: law.fetched_at,
    source_url: law.source_url,
    text_full: row.text,
    text_summary: summary,
    title: row.caption ? row.caption.replace(/^（|）$/g, '') : null,
    law_aliases_tried: tried,
  };
}

// -------------------------------------------------------------------- related

export const RELATION_TYPES = [
  'prerequisite', 'compatible', 'incompatible', 'successor', 'predecessor', 'similar',
  'based_on_law', 'administered_by', 'targets', 'features', 'cites_law', 'concerns_program', 'used_program', 'issued_by',
] as const;

export function related(db: CatalogDatabase, seedId: string, p: { depth: number; relation_types?: string | string[]; max_edges: number }) {
  const base = {
    seed_id: seedId, seed_kind: null as string | null, depth: p.depth, total_edges: 0, nodes: [] as Record<string, unknown>[],
    relations: [] as Record<string, unknown>[], hint: null as string | null, retry_with: null as Record<string, unknown> | null,
    error: null as AmError | null,
  };
  const types = listParam(p.relation_types);
  const bad = types.filter((t) => !(RELATION_TYPES as readonly string[]).includes(t));
  if (bad.length > 0) {
    return { ...base, error: amError('invalid_enum', `unknown relation type(s): ${bad.join(', ').slice(0, 200)}`, `relation_types among: ${RELATION_TYPES.join(', ')}`) };
  }
  const seed = getEntity(db, seedId);
  if (!seed) {
    const error = seedNotFound(db, seedId, 'program_id');
    return { ...base, error, retry_with: (error.retry_with as Record<string, unknown> | undefined) ?? null, hint: error.hint ?? null };
  }
  const nodes = new Map<string, number>([[seed.entity_id, 0]]);
  const edges = new Map<string, Record<string, unknown>>();
  let frontier = [seed.entity_id];
  let truncated = false;
  for (let level = 1; level <= p.depth && frontier.length > 0; level++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const r of relationsOf(db, id)) {
        if (types.length > 0 && !types.includes(r.relation)) continue;
        const key = `${r.src_id}|${r.dst_id}|${r.relation}`;
        if (edges.has(key)) continue;
        if (edges.size >= p.max_edges) {
          truncated = true;
          break;
        }
        edges.set(key, { src_id: r.src_id, dst_id: r.dst_id, relation: r.relation, source: r.source, confidence: r.confidence, hop: level });
        const other = r.src_id === id ? r.dst_id : r.src_id;
        if (!nodes.has(other)) {
          nodes.set(other, level);
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  const entities = [...nodes].map(([id, depth]) => {
    const e = getEntity(db, id);
    return e ? { ...entitySummary(e), depth } : { entity_id: id, depth };
  });
  let hint: string | null = null;
  if (edges.size === 0) {
    hint = types.length > 0
      ? 'no relations of the requested types; try without relation_types'
      : 'no relations are recorded for this entity (links exist only where the dataset states them)';
  } else if (truncated) {
    hint = `stopped at max_edges=${p.max_edges}`;
  }
  return {
    ...base,
    seed_kind: seed.record_kind,
    total_edges: edges.size,
    nodes: entities,
    relations: [...edges.values()],
    hint,
    retry_with: edges.size === 0 && types.length > 0 ? { relation_types: null } : truncated ? { max_edges: Math.min(500, p.max_edges * 2) } : null,
  };
}
