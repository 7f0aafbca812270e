// Programs and certifications (a program whose program_kind_group is
// `certification`), from the typed `programs` table. Their facts are the
// dataset record's fields in the dataset's order, with tier, excluded and
// exclusion_reason as ingest derived them (ingest/derive.ts).
import type { DatabaseSync } from 'node:sqlite';
import { normalizeText } from '../../catalog/text-query.ts';
import { datePart } from '../../lib/time.ts';
import { compactFacts, type Rec } from './rows.ts';
import type { Parties } from './parties.ts';
import type { GraphWriter } from './writer.ts';

interface ProgramRow {
  unified_id: string;
  primary_name: string;
  authority_level: string | null;
  authority_name: string | null;
  prefecture: string | null;
  municipality: string | null;
  program_kind: string | null;
  program_kind_group: string | null;
  official_url: string | null;
  amount_max_man_yen: number | null;
  amount_min_man_yen: number | null;
  subsidy_rate: number | null;
  tier: string;
  excluded: number;
  exclusion_reason: string | null;
  target_types: string;
  funding_purpose: string;
  application_window: string;
  window_start: string | null;
  window_end: string | null;
  source_url: string | null;
  source_fetched_at: string | null;
  source_checksum: string | null;
  source_last_check_status: number | null;
  in_public_index: number | null;
  local_gov_code: string | null;
  name_as_published: string | null;
  slug: string | null;
  jsic_majors: string;
  provenance: string | null;
}

export interface ProgramLinks {
  /** program id -> authority entity id. */
  administeredBy: [string, string][];
  /** normalised name -> ids of the programs carrying it. */
  idsByName: Map<string, string[]>;
}

/**
 * The application window as a fact. The table holds `{start: null, end: null}`
 * for a program published without one; the window is a fact when it holds a
 * value or when the dataset names its source (5 tier-X rows publish an empty one).
 */
function windowFact(json: string, provenance: Rec): Rec | null {
  const window = JSON.parse(json) as Rec;
  return Object.values(window).some((v) => v !== null && v !== undefined) || 'application_window' in provenance ? window : null;
}

/** The program as the dataset published it (field order included), with the derived tier fields. */
function programFacts(p: ProgramRow, provenance: Rec): Rec {
  return compactFacts({
    unified_id: p.unified_id,
    primary_name: p.primary_name,
    authority_level: p.authority_level,
    authority_name: p.authority_name,
    prefecture: p.prefecture,
    municipality: p.municipality,
    program_kind: p.program_kind,
    program_kind_group: p.program_kind_group,
    official_url: p.official_url,
    amount_max_man_yen: p.amount_max_man_yen,
    amount_min_man_yen: p.amount_min_man_yen,
    subsidy_rate: p.subsidy_rate,
    tier: p.tier,
    excluded: p.excluded === 1,
    exclusion_reason: p.exclusion_reason,
    target_types: JSON.parse(p.target_types),
    funding_purpose: JSON.parse(p.funding_purpose),
    application_window: windowFact(p.application_window, provenance),
    source_url: p.source_url,
    source_fetched_at: p.source_fetched_at,
    source_checksum: p.source_checksum,
    source_last_check_status: p.source_last_check_status,
    in_public_index: p.in_public_index === null ? null : p.in_public_index === 1,
    local_gov_code: p.local_gov_code,
    name_as_published: p.name_as_published,
    slug: p.slug,
    jsic_majors: JSON.parse(p.jsic_majors),
  });
}

export function addPrograms(w: GraphWriter, db: DatabaseSync, parties: Parties): ProgramLinks {
  const links: ProgramLinks = { administeredBy: [], idsByName: new Map() };
  for (const row of db.prepare('SELECT * FROM programs ORDER BY pid').iterate()) {
    const p = row as unknown as ProgramRow;
    const provenance = p.provenance ? (JSON.parse(p.provenance) as Rec) : {};
    w.addEntity({
      id: p.unified_id,
      kind: p.program_kind_group === 'certification' ? 'certification' : 'program',
      name: p.primary_name,
      sourceUrl: p.source_url,
      fetchedAt: p.source_fetched_at,
      validFrom: datePart(p.window_start),
      validUntil: datePart(p.window_end),
      prefecture: p.prefecture,
      authority: p.authority_name,
      tier: p.tier,
      facts: programFacts(p, provenance),
      provenance,
      searchExtra: [p.name_as_published, p.authority_name, p.prefecture, p.municipality, p.program_kind],
      recordSource: 'programs.jsonl',
    });
    w.addKey(p.slug, p.unified_id, 'slug');
    const authority = parties.authority(p.authority_name);
    if (authority) links.administeredBy.push([p.unified_id, authority]);
    const name = normalizeText(p.primary_name);
    links.idsByName.set(name, [...(links.idsByName.get(name) ?? []), p.unified_id]);
  }
  return links;
}
