// /v1/am/provenance/{entity_id}[/{field}]: where each fact of an entity came
// from (a program's per-field `_provenance` keys; the source file otherwise).
import type { CatalogDatabase } from '../catalog/db.ts';
import { amError, entitySummary, envelope, type Envelope } from './envelope.ts';
import { findEntity } from './queries/entities.ts';
import { seedNotFound } from './seed.ts';

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
  const e = findEntity(db, entityId);
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
    const description = PROVENANCE_SOURCES[key] ?? (key === 'derived' ? 'derived at ingest by a documented rule (docs/decisions/)' : `upstream file ${key}`);
    rows.push({
      entity_id: e.entity_id,
      field,
      value,
      source_key: key,
      source_description: description,
      upstream_repository: UPSTREAM_REPO,
      primary_source_url: e.source_url,
      fetched_at: e.fetched_at,
    });
  }
  let filtered = rows;
  if (p.fact !== undefined) {
    filtered = rows.filter((r) => r.field === p.fact);
    if (filtered.length === 0) {
      return envelope(p.limit, p.offset, {
        error: amError(
          'invalid_field',
          `entity ${e.entity_id} has no fact ${JSON.stringify(p.fact.slice(0, 100))}`,
          `facts: ${rows.map((r) => r.field).join(', ')}`.slice(0, 500),
        ),
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
