// /v1/am/annotations/{entity_id}: examiner, quality, duplicate, coverage and
// source notes about one entity, each derived from the data by a stated rule
// (no free-text opinions; upstream publishes no human examiner notes).
import type { CatalogDatabase } from '../catalog/db.ts';
import { amError, envelope, type Envelope } from './envelope.ts';
import { findEntity, sharedSourceUrlCount, type Entity } from './queries/entities.ts';
import { duplicateGroupsOf, programCoverage } from './queries/programs.ts';
import { seedNotFound } from './seed.ts';

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
  const add = (
    kind: Annotation['kind'],
    severity: Annotation['severity'],
    code: string,
    text: string,
    evidence: Record<string, unknown>,
    source: string,
  ): void => {
    out.push({ annotation_id: `${e.entity_id}:${code}`, entity_id: e.entity_id, kind, severity, text, evidence, source });
  };
  const f = e.facts;
  if (e.record_kind === 'program' || e.record_kind === 'certification') {
    const tierSeverity = e.tier === 'X' ? 'critical' : e.tier === 'C' ? 'warning' : 'info';
    add(
      'quality',
      tierSeverity,
      'tier',
      `quality tier ${e.tier}${e.tier === 'X' ? ' (quarantined: left out of searches unless include_excluded)' : ''}`,
      { tier: e.tier },
      'programs.tier',
    );
    if (f.exclusion_reason)
      add(
        'examiner',
        'critical',
        'exclusion_reason',
        `excluded: ${String(f.exclusion_reason)}`,
        { exclusion_reason: f.exclusion_reason },
        'programs.exclusion_reason',
      );
    if (f.tier === undefined || (e.provenance.tier === undefined && e.tier === 'X')) {
      add('examiner', 'warning', 'no_upstream_tier', 'no source gives a tier: stored as X/unclassified', {}, 'derived');
    } else if (String(e.provenance.tier ?? '').startsWith('derived:')) {
      // ingest/derived-tier.ts: the tier its like have (same A–J coverage and level), not a source's grade.
      add('examiner', 'info', 'derived_tier', 'no source gives a tier: derived from its A–J coverage and level', {}, String(e.provenance.tier));
    }
    const cov = programCoverage(db, e.entity_id);
    if (cov) {
      const gaps = JSON.parse(cov.gap_to_tier_s) as string[];
      if (gaps.length > 0)
        add(
          'coverage',
          gaps.length >= 6 ? 'warning' : 'info',
          'coverage_gaps',
          `${gaps.length} of 10 evidence dimensions missing: ${gaps.join(', ')}`,
          { coverage_score: cov.coverage_score, gap_to_tier_s: gaps },
          'derived:a_to_j_coverage',
        );
      add(
        'source',
        cov.trust_level === 'unverified' ? 'warning' : 'info',
        'trust_level',
        `trust level ${cov.trust_level}`,
        { trust_level: cov.trust_level },
        'derived:trust_level',
      );
    }
    for (const g of duplicateGroupsOf(db, e.entity_id)) {
      const loser = g.winner_uid !== null && g.winner_uid !== e.entity_id && g.verdict === 'merge';
      add(
        'duplicate',
        loser ? 'warning' : 'info',
        `duplicate:${g.group_name.slice(0, 40)}`,
        `member of upstream duplicate group "${g.group_name}" (verdict ${g.verdict ?? 'none'}${g.winner_uid ? `, kept record ${g.winner_uid}` : ''})`,
        { group_name: g.group_name, verdict: g.verdict, winner_uid: g.winner_uid, unified_ids: JSON.parse(g.unified_ids) },
        'program_duplicates',
      );
    }
    if (typeof f.source_last_check_status === 'number') {
      const ok = f.source_last_check_status === 200;
      add(
        'source',
        ok ? 'info' : 'warning',
        'liveness',
        `upstream liveness probe of the source answered HTTP ${f.source_last_check_status}`,
        { source_last_check_status: f.source_last_check_status },
        'programs.source_last_check_status',
      );
    }
    if (!e.source_url) add('source', 'warning', 'no_source_url', 'no primary source URL', {}, 'programs.source_url');
    else {
      const shared = sharedSourceUrlCount(db, e.source_url);
      if (shared > 1)
        add(
          'source',
          'info',
          'shared_source_url',
          `source_url shared with ${shared - 1} other record(s) (list page)`,
          { shared_with: shared - 1 },
          'programs.source_url',
        );
    }
    if (/(PDF|について|ホームページ|お知らせ|一覧)/.test(e.name)) {
      add(
        'quality',
        'warning',
        'title_like_name',
        'name looks like a page or document title rather than a program name',
        { name: e.name },
        'derived:name_pattern',
      );
    }
  } else if (e.record_kind === 'enforcement') {
    if (f.target_name_suppressed === true)
      add('examiner', 'info', 'target_suppressed', 'target name withheld upstream to avoid identifying individuals', {}, 'enforcement.target_name_suppressed');
    if (f.reason_excerpt_withheld === true)
      add('examiner', 'info', 'excerpt_withheld', 'reason excerpt withheld (mentions officers or sentences)', {}, 'enforcement.reason_excerpt_withheld');
    if (f.related_programs_auto)
      add(
        'quality',
        'warning',
        'auto_program_match',
        'related programs were matched automatically upstream (heuristic)',
        {},
        'enforcement.related_programs_auto',
      );
  } else if (e.record_kind === 'case_study') {
    if (f.houjin_bangou_invalid_as_published)
      add(
        'quality',
        'warning',
        'invalid_houjin',
        'published corporate number fails the check digit',
        { published: f.houjin_bangou_invalid_as_published },
        'case_studies.houjin_bangou_invalid_as_published',
      );
    add('coverage', 'info', 'no_program_link', 'the source page does not say which program the case used', {}, 'case_studies');
  } else if (e.record_kind === 'law') {
    if (f.articles_truncated === true)
      add('coverage', 'warning', 'articles_truncated', 'source page shows only the first 250 articles', {}, 'laws.articles_truncated');
    if (e.status === 'repealed' || e.status === 'superseded')
      add('examiner', 'warning', 'status', `law status: ${e.status}`, { status: e.status }, 'laws.status');
    if (Array.isArray(f.law_id_candidates))
      add('quality', 'warning', 'ambiguous_id', 'title matches several upstream law ids', { law_id_candidates: f.law_id_candidates }, 'laws.law_id_candidates');
    if (!f.law_slug) add('coverage', 'info', 'index_only', 'index-only law: id and title, no page or articles', {}, 'laws');
  } else if (e.record_kind === 'tax_measure') {
    if (f.needs_verification === true)
      add('examiner', 'warning', 'needs_verification', 'upstream marks this ruleset as needing verification', {}, 'tax_rulesets.needs_verification');
    if (typeof f.confidence === 'number')
      add(
        'quality',
        f.confidence < 0.8 ? 'warning' : 'info',
        'confidence',
        `upstream confidence ${f.confidence}`,
        { confidence: f.confidence },
        'tax_rulesets.confidence',
      );
  }
  if (!e.source_url && e.record_kind !== 'program' && e.record_kind !== 'certification') {
    add('source', 'info', 'no_source_url', 'no source URL of its own (derived entity)', {}, e.record_source ?? 'derived');
  }
  return out;
}

export function annotations(
  db: CatalogDatabase,
  entityId: string,
  p: { kind?: string; severity?: string; limit: number; offset: number },
): Envelope & { entity_id: string; filters: Record<string, unknown> } {
  const filters = { kind: p.kind ?? null, severity: p.severity ?? null };
  const base = { entity_id: entityId, filters };
  if (p.kind && !(ANNOTATION_KINDS as readonly string[]).includes(p.kind)) {
    return {
      ...envelope(p.limit, p.offset, { error: amError('invalid_enum', 'unknown annotation kind', `kind is one of ${ANNOTATION_KINDS.join(', ')}`) }),
      ...base,
    };
  }
  if (p.severity && !(ANNOTATION_SEVERITIES as readonly string[]).includes(p.severity)) {
    return {
      ...envelope(p.limit, p.offset, { error: amError('invalid_enum', 'unknown severity', `severity is one of ${ANNOTATION_SEVERITIES.join(', ')}`) }),
      ...base,
    };
  }
  const e = findEntity(db, entityId);
  if (!e) return { ...envelope(p.limit, p.offset, { error: seedNotFound(db, entityId, 'entity_id') }), ...base };
  const all = deriveAnnotations(db, e).filter((a) => (!p.kind || a.kind === p.kind) && (!p.severity || a.severity === p.severity));
  return {
    ...envelope(p.limit, p.offset, {
      total: all.length,
      results: all.slice(p.offset, p.offset + p.limit) as unknown as Record<string, unknown>[],
      retrieval_note:
        'annotations are derived from the dataset (tier, coverage, duplicate groups, exclusion reasons, source liveness); no human examiner notes are published upstream',
    }),
    ...base,
  };
}
