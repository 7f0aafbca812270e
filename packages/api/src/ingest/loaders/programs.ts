// The programs table, its derived fields and its trigram full-text index.
import { Type } from 'typebox';
import { schemaValidator, json, bool, insertOrReject, type Loader } from './types.ts';
import {
  aliasesFor,
  amountBand,
  applicationWindow,
  coverageFrom,
  enrichedDimensions,
  tierAndExclusion,
  trustLevel,
  TIER_ORDER,
  type RawProgram,
} from '../derive.ts';
import { compactKey, searchColumns, searchedValues, searchNormalize } from '../../catalog/search-text.ts';
import { AUDIENCES, PURPOSES } from '@jp-support/vocab';
import { cleanProgramName, fiscalYear } from '../names.ts';
import { classifyRecord, readClassOverrides, withClassExclusion } from '../classify.ts';
import { buildPlaceMaster, hostPlaces, type HostEvidence, type Municipality, type PlaceMaster } from '../places.ts';
import { placeAndLevel } from '../authority-level.ts';
import { readingTokenizer, type ReadingTokenizer } from '../readings.ts';
import { tagProgramme, type TaggedField } from '../tagging.ts';
import { CORRECTED, readTagCorrections, withTagCorrections } from '../tag-corrections.ts';
import { writeCanonicalProgrammes } from '../canonical-records.ts';
import { writeImportance } from '../importance.ts';
import { writeDerivedTiers } from '../derived-tier.ts';
import { httpUrlOrNull } from '../../lib/untrusted-text.ts';
import { datasetFile, readJsonl } from '../jsonl.ts';
import { DUPLICATE_NAMES, type DuplicateNames } from './duplicates.ts';
import { LAW_REFS, type LawRefsByProgram } from './program-law-refs.ts';

const Str = Type.Union([Type.String(), Type.Null()]);
const Num = Type.Union([Type.Number(), Type.Null()]);
const StrList = Type.Union([Type.Array(Type.String()), Type.Null()]);

const ProgramRecord = Type.Object({
  unified_id: Type.String({ pattern: '^UNI-[A-Za-z0-9-]+$' }),
  primary_name: Type.String({ minLength: 1 }),
  authority_level: Type.Optional(
    Type.Union([Type.Literal('national'), Type.Literal('prefecture'), Type.Literal('municipality'), Type.Literal('financial'), Type.Null()]),
  ),
  authority_name: Type.Optional(Str),
  prefecture: Type.Optional(Str),
  municipality: Type.Optional(Str),
  program_kind: Type.Optional(Str),
  program_kind_group: Type.Optional(Str),
  official_url: Type.Optional(Str),
  amount_max_man_yen: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
  amount_min_man_yen: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
  subsidy_rate: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()])),
  tier: Type.Optional(Type.Union([Type.Literal('S'), Type.Literal('A'), Type.Literal('B'), Type.Literal('C'), Type.Literal('X'), Type.Null()])),
  excluded: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  exclusion_reason: Type.Optional(Str),
  target_types: Type.Optional(StrList),
  funding_purpose: Type.Optional(StrList),
  application_window: Type.Optional(Type.Union([Type.Object({}), Type.Null()])),
  source_url: Type.Optional(Str),
  source_fetched_at: Type.Optional(Str),
  source_checksum: Type.Optional(Str),
  source_last_check_status: Type.Optional(Num),
  in_public_index: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  local_gov_code: Type.Optional(Str),
  name_as_published: Type.Optional(Str),
  slug: Type.Optional(Str),
  jsic_majors: Type.Optional(StrList),
});

export const PROGRAMS_DDL = `
  CREATE TABLE programs (
    pid INTEGER PRIMARY KEY,
    unified_id TEXT NOT NULL UNIQUE,
    primary_name TEXT NOT NULL,
    aliases TEXT NOT NULL,
    authority_level TEXT,
    authority_name TEXT,
    prefecture TEXT,
    municipality TEXT,
    program_kind TEXT,
    program_kind_group TEXT,
    official_url TEXT,
    amount_max_man_yen REAL,
    amount_min_man_yen REAL,
    subsidy_rate REAL,
    trust_level TEXT NOT NULL,
    tier TEXT NOT NULL,
    tier_order INTEGER NOT NULL,
    coverage_score REAL NOT NULL,
    gap_to_tier_s TEXT NOT NULL,
    a_to_j_coverage TEXT NOT NULL,
    excluded INTEGER NOT NULL,
    exclusion_reason TEXT,
    crop_categories TEXT NOT NULL,
    equipment_category TEXT,
    target_types TEXT NOT NULL,
    funding_purpose TEXT NOT NULL,
    amount_band TEXT NOT NULL,
    application_window TEXT NOT NULL,
    window_start TEXT,
    window_end TEXT,
    enriched TEXT,
    source_mentions TEXT,
    source_url TEXT,
    source_fetched_at TEXT,
    source_checksum TEXT,
    jsic_majors TEXT NOT NULL,
    slug TEXT,
    in_public_index INTEGER,
    local_gov_code TEXT,
    -- Kept for the entity graph (ingest/entity-graph/programs.ts): the name
    -- before a code prefix was removed and the upstream liveness probe.
    name_as_published TEXT,
    source_last_check_status INTEGER,
    -- Normalised name and aliases (search-text.ts#searchNormalize).
    search_text TEXT NOT NULL,
    -- The name as the dataset published it (primary_name is the cleaned name, names.ts).
    published_name TEXT NOT NULL,
    -- What the programme is, from a primary source (jGrants overlay); null in the bundled dataset.
    description TEXT,
    -- What the record is (classify.ts): a programme or the class of page it is instead; non-programmes are tier X.
    record_class TEXT NOT NULL,
    fiscal_year INTEGER,
    -- Hiragana reading of the name (readings.ts), indexed for kana queries.
    name_reading TEXT NOT NULL,
    -- compactKey of the cleaned name: duplicate detection and the exact-name boost.
    name_key TEXT NOT NULL,
    -- Per-field source keys (JSON): the dataset's _provenance plus the cleaned:/derived: keys of ingest.
    provenance TEXT NOT NULL,
    -- One programme, one record (canonical-records.ts): pid of the group's canonical record, and this record's rank in it (0 = canonical).
    dup_group INTEGER NOT NULL DEFAULT 0,
    dup_rank INTEGER NOT NULL DEFAULT 0,
    -- unified_id of the canonical record of this record's programme; null on the canonical record itself.
    canonical_id TEXT,
    -- On a canonical record: its programme's other records (JSON [{unified_id, primary_name}], best first).
    also_listed_as TEXT NOT NULL DEFAULT '[]',
    -- Points of importance of the record's programme (importance.ts: national reach, several records, cited, large amount); a ranking prior.
    importance INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  -- Browse order (tier, name; rowid breaks ties) per visibility, so the
  -- default listing reads rows in order instead of sorting. search_text makes
  -- it covering for 1–2 character substring search (no row lookups).
  CREATE INDEX programs_order ON programs (excluded, tier_order, primary_name, search_text);
  CREATE INDEX programs_prefecture ON programs (prefecture, excluded, tier_order, primary_name);
  CREATE INDEX programs_authority_level ON programs (authority_level);
  CREATE INDEX programs_amount ON programs (amount_max_man_yen);
  CREATE INDEX programs_slug ON programs (slug);
  CREATE INDEX programs_name ON programs (primary_name);
  CREATE INDEX programs_window_end ON programs (window_end);
  -- Trigram index over the searchable text. rowid = programs.pid.
  CREATE VIRTUAL TABLE programs_fts USING fts5(
    primary_name, aliases, authority, other, description, reading,
    tokenize = 'trigram'
  );`;

const MUNICIPALITIES = 'municipalities';

/** The municipality master of the dataset (read here: its own loader runs later). */
async function readMunicipalities(datasetDir: string): Promise<Municipality[]> {
  const file = datasetFile(datasetDir, MUNICIPALITIES);
  const out: Municipality[] = [];
  if (!file) return out;
  for await (const line of readJsonl(file)) {
    if (!line.ok) continue;
    const { name, prefecture } = line.record as { name?: unknown; prefecture?: unknown };
    if (typeof name === 'string' && typeof prefecture === 'string') out.push({ name, prefecture });
  }
  return out;
}

/** What each programme record says of its place and its host (a first pass over the file, for places.ts#hostPlaces). */
async function readHostEvidence(datasetDir: string): Promise<HostEvidence[]> {
  const file = datasetFile(datasetDir, 'programs');
  const out: HostEvidence[] = [];
  if (!file) return out;
  for await (const line of readJsonl(file)) {
    if (!line.ok) continue;
    const r = line.record as { primary_name?: unknown; official_url?: unknown; source_url?: unknown };
    if (typeof r.primary_name !== 'string') continue;
    const url = (u: unknown): string | null => (typeof u === 'string' ? u : null);
    out.push({ name: cleanProgramName(r.primary_name).name, officialUrl: url(r.official_url), sourceUrl: url(r.source_url) });
  }
  return out;
}

interface NameAndPlace {
  name: string;
  prefecture: string | null;
  municipality: string | null;
  authorityLevel: string | null;
  provenance: Record<string, unknown>;
}

/** The cleaned name and the derived place of a record, with what ingest did to each in its provenance. */
function cleanedRecord(p: RawProgram & { _provenance?: unknown }, places: PlaceMaster, hosts: ReadonlyMap<string, Municipality>): NameAndPlace {
  const provenance: Record<string, unknown> = { ...((p._provenance as Record<string, unknown> | undefined) ?? {}) };
  const cleaned = cleanProgramName(p.primary_name);
  if (cleaned.rules.length > 0) provenance.primary_name = `cleaned:${cleaned.rules.join('+')}`;
  // Level and place from the record's own evidence (authority-level.ts), each change named in the provenance.
  const placed = placeAndLevel(
    {
      name: cleaned.name,
      authorityName: p.authority_name ?? null,
      authorityLevel: p.authority_level ?? null,
      prefecture: p.prefecture ?? null,
      municipality: p.municipality ?? null,
      officialUrl: p.official_url ?? null,
      sourceUrl: p.source_url ?? null,
    },
    places,
    hosts,
  );
  for (const [field, how] of Object.entries(placed.changed)) provenance[field] = how;
  const { prefecture, municipality, authorityLevel } = placed;
  return { name: cleaned.name, prefecture, municipality, authorityLevel, provenance };
}

/**
 * Purposes, audiences and industries in the vocabulary's terms (tagging.ts),
 * each filled field's rules in the provenance. `published` keeps only what the
 * record published (mapped onto the vocabulary): the A–J evidence counts facts
 * a source gave, not what ingest read into a name.
 */
function taggedRecord(
  p: RawProgram,
  provenance: Record<string, unknown>,
  publishedKind: string | null | undefined,
): { tagged: RawProgram; published: RawProgram } {
  const tags = tagProgramme({
    name: p.primary_name,
    description: p.description ?? null,
    // The published kind code says more (research_grant, fellowship) than the normalised one (grant).
    programKind: [publishedKind, p.program_kind].filter(Boolean).join(' ') || null,
    authorityName: p.authority_name ?? null,
    authorityLevel: p.authority_level ?? null,
    url: p.official_url ?? p.source_url ?? null,
    fundingPurpose: p.funding_purpose ?? null,
    targetTypes: p.target_types ?? null,
    jsicMajors: p.jsic_majors ?? null,
  });
  const isDerived = (tag: TaggedField): boolean => tag.how?.startsWith('derived:') ?? false;
  const publishedValues = (tag: TaggedField): string[] => (isDerived(tag) ? [] : tag.values);
  const record = (field: string, tag: TaggedField): void => {
    if (tag.how === null) return;
    // A reviewed correction (tag-corrections.ts) stays named before whatever the rules then did with the field.
    const corrected = provenance[field] === CORRECTED;
    provenance[field] = (isDerived(tag) && !corrected) || provenance[field] === undefined ? tag.how : `${String(provenance[field])}+${tag.how}`;
  };
  record('funding_purpose', tags.purposes);
  record('target_types', tags.audiences);
  record('jsic_majors', tags.industries);
  return {
    tagged: { ...p, funding_purpose: tags.purposes.values, target_types: tags.audiences.values, jsic_majors: tags.industries.values },
    published: {
      ...p,
      funding_purpose: publishedValues(tags.purposes),
      target_types: publishedValues(tags.audiences),
      jsic_majors: publishedValues(tags.industries),
    },
  };
}

export const programsLoader: Loader = {
  name: 'programs',
  file: 'programs',
  required: true,
  ddl: PROGRAMS_DDL,
  validate: schemaValidator(ProgramRecord),
  async prepare(ctx) {
    const tokenizer: ReadingTokenizer = await readingTokenizer();
    const places = buildPlaceMaster(await readMunicipalities(ctx.datasetDir), tokenizer);
    const hosts = hostPlaces(await readHostEvidence(ctx.datasetDir), places);
    const dupNames = (ctx.shared.get(DUPLICATE_NAMES) as DuplicateNames | undefined) ?? new Map();
    const lawRefs = (ctx.shared.get(LAW_REFS) as LawRefsByProgram | undefined) ?? new Map();
    const classOverrides = readClassOverrides();
    const tagCorrections = readTagCorrections();
    const columns = [
      'unified_id',
      'primary_name',
      'aliases',
      'authority_level',
      'authority_name',
      'prefecture',
      'municipality',
      'program_kind',
      'program_kind_group',
      'official_url',
      'amount_max_man_yen',
      'amount_min_man_yen',
      'subsidy_rate',
      'trust_level',
      'tier',
      'tier_order',
      'coverage_score',
      'gap_to_tier_s',
      'a_to_j_coverage',
      'excluded',
      'exclusion_reason',
      'crop_categories',
      'equipment_category',
      'target_types',
      'funding_purpose',
      'amount_band',
      'application_window',
      'window_start',
      'window_end',
      'enriched',
      'source_mentions',
      'source_url',
      'source_fetched_at',
      'source_checksum',
      'jsic_majors',
      'slug',
      'in_public_index',
      'local_gov_code',
      'name_as_published',
      'source_last_check_status',
      'search_text',
      'published_name',
      'description',
      'record_class',
      'fiscal_year',
      'name_reading',
      'name_key',
      'provenance',
    ];
    const insert = ctx.db.prepare(`INSERT INTO programs (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) RETURNING pid`);
    const insertFts = ctx.db.prepare(
      'INSERT INTO programs_fts (rowid, primary_name, aliases, authority, other, description, reading) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    return (record) => {
      // URLs are served as links and written into calendars and exports: only http(s) ones are kept.
      const given = record as unknown as RawProgram;
      // Purposes, audiences and industries the dataset gives wrongly, as reviewed (tag-corrections.ts).
      const reviewed = withTagCorrections(given, tagCorrections);
      const raw: RawProgram = { ...reviewed.record, official_url: httpUrlOrNull(given.official_url), source_url: httpUrlOrNull(given.source_url) };
      const { name, prefecture, municipality, authorityLevel, provenance } = cleanedRecord(raw, places, hosts);
      for (const field of reviewed.corrected) provenance[field] = CORRECTED;
      // What the record is and its kind in the one vocabulary (classify.ts).
      const classified = classifyRecord(
        {
          unified_id: raw.unified_id,
          publishedName: raw.primary_name,
          name,
          programKind: raw.program_kind,
          officialUrl: raw.official_url,
          sourceUrl: raw.source_url,
        },
        classOverrides,
      );
      if (classified.programKind !== (raw.program_kind ?? null)) provenance.program_kind = `derived:${classified.kindRule ?? 'kind_map'}`;
      if (classified.recordClass !== 'programme') provenance.record_class = `derived:${classified.classRule}`;
      // Every later derivation sees the cleaned name, the derived place, the normalised kind and the tagged purposes.
      const { tagged: p, published } = taggedRecord(
        { ...raw, primary_name: name, prefecture, municipality, authority_level: authorityLevel, program_kind: classified.programKind },
        provenance,
        raw.program_kind,
      );
      const groupNames = (dupNames.get(p.unified_id) ?? []).map((n: string) => cleanProgramName(n).name);
      const aliases = aliasesFor(p, groupNames).filter((a) => a !== raw.primary_name);
      const reading = tokenizer.reading(name);
      const enriched = enrichedDimensions(published, { laws: lawRefs.get(p.unified_id) ?? [] });
      const coverage = coverageFrom(enriched);
      const { tier, excluded, exclusion_reason } = withClassExclusion(tierAndExclusion(p), classified.recordClass);
      const window = applicationWindow(p);
      const mentions = sourceMentions(p);
      let pid = 0;
      const problem = insertOrReject(() => {
        const row = insert.get(
          p.unified_id,
          p.primary_name,
          json(aliases),
          p.authority_level ?? null,
          p.authority_name ?? null,
          p.prefecture ?? null,
          p.municipality ?? null,
          p.program_kind ?? null,
          p.program_kind_group ?? null,
          p.official_url ?? null,
          p.amount_max_man_yen ?? null,
          p.amount_min_man_yen ?? null,
          p.subsidy_rate ?? null,
          trustLevel(p),
          tier,
          TIER_ORDER[tier],
          coverage.coverage_score,
          json(coverage.gap_to_tier_s),
          json(coverage.a_to_j_coverage),
          excluded ? 1 : 0,
          exclusion_reason,
          '[]',
          null,
          json(p.target_types ?? []),
          json(p.funding_purpose ?? []),
          amountBand(p.amount_max_man_yen),
          json(window),
          window.start,
          window.end,
          json(enriched),
          json(mentions),
          p.source_url ?? null,
          p.source_fetched_at ?? null,
          p.source_checksum ?? null,
          json(p.jsic_majors ?? []),
          p.slug ?? null,
          bool(p.in_public_index),
          p.local_gov_code ?? null,
          p.name_as_published ?? null,
          p.source_last_check_status ?? null,
          searchNormalize([p.primary_name, ...aliases].join(' | ')),
          raw.primary_name,
          p.description ?? null,
          classified.recordClass,
          fiscalYear(raw.primary_name, window.start, window.end),
          reading,
          compactKey(name),
          JSON.stringify(provenance),
        ) as { pid: number };
        pid = row.pid;
      }, `unified_id ${p.unified_id}`);
      if (problem) return problem;
      // The index holds the search normalisation; queries are normalised the same way (search-text.ts).
      const text = searchColumns(
        {
          ...p,
          target_types: searchedValues(p.target_types, provenance.target_types, AUDIENCES),
          funding_purpose: searchedValues(p.funding_purpose, provenance.funding_purpose, PURPOSES),
        },
        aliases,
        reading,
      );
      insertFts.run(pid, text.name, text.aliases, text.authority, text.other, text.description, text.reading);
      return null;
    };
  },
  finalize(ctx) {
    // Before the merge: a programme upstream left untiered gets the tier its like have, and is served.
    writeDerivedTiers(ctx.db);
    writeCanonicalProgrammes(ctx.db);
    // Read after the merge: the number of a programme's records is one of its points.
    writeImportance(ctx.db);
    // The reference date of the data: the newest source fetch of any program.
    const row = ctx.db
      .prepare("SELECT max(substr(source_fetched_at, 1, 10)) AS d FROM programs WHERE source_fetched_at GLOB '[0-9][0-9][0-9][0-9]-*'")
      .get() as { d: string | null };
    ctx.db.prepare("INSERT OR REPLACE INTO catalog_meta (key, value) VALUES ('data_as_of', ?)").run(row.d ?? '');
  },
};

/** Where the record's facts were seen: its primary source, then its official page. */
function sourceMentions(p: RawProgram): { url: string; fetched_at: string | null; confidence: number }[] | null {
  const out: { url: string; fetched_at: string | null; confidence: number }[] = [];
  if (p.source_url) {
    out.push({ url: p.source_url, fetched_at: p.source_fetched_at ?? null, confidence: p.source_last_check_status === 200 ? 1 : 0.8 });
  }
  if (p.official_url && p.official_url !== p.source_url) out.push({ url: p.official_url, fetched_at: null, confidence: 0.6 });
  return out.length > 0 ? out : null;
}
