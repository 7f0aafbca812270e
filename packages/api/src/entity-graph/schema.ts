// The entity graph's own tables and its 12 record kinds. The record sets the
// /v1/am tools read (loans, tax rulesets, enforcement, laws and their
// articles) are read through their specs (catalog/queries/record-sets.ts);
// enums, municipalities and programs from the catalogue's tables.
//
// - am_entities: one row per entity of any kind; `facts` is the record's
//   non-empty fields as JSON, `provenance` the per-field source keys of a
//   program (its dataset `_provenance`), `search_text` the normalised name and
//   the words the tools match against.
// - am_relations: typed edges between entities, with the dataset field they
//   come from (`source`) and a confidence.
// - am_entity_keys: other keys an entity is found by (slugs, titles, e-Gov
//   ids, law numbers, corporate numbers), normalised.

export const RECORD_KINDS = [
  'program',
  'tax_measure',
  'certification',
  'law',
  'enforcement',
  'case_study',
  'adoption',
  'authority',
  'corporate_entity',
  'statistic',
  'invoice_registrant',
  'document',
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export const ENTITY_GRAPH_DDL = `
  CREATE TABLE am_entities (
    entity_id TEXT PRIMARY KEY,
    record_kind TEXT NOT NULL,
    name TEXT NOT NULL,
    name_norm TEXT NOT NULL,
    source_url TEXT,
    fetched_at TEXT,
    valid_from TEXT,
    valid_until TEXT,
    status TEXT,
    prefecture TEXT,
    authority_name TEXT,
    tier TEXT,
    search_text TEXT NOT NULL,
    facts TEXT NOT NULL,
    provenance TEXT NOT NULL,
    record_source TEXT
  ) STRICT;
  CREATE INDEX am_entities_kind ON am_entities (record_kind, name_norm);
  CREATE INDEX am_entities_name ON am_entities (name_norm);
  CREATE INDEX am_entities_valid ON am_entities (record_kind, valid_until);
  CREATE INDEX am_entities_source ON am_entities (source_url);
  CREATE TABLE am_relations (
    src_id TEXT NOT NULL,
    dst_id TEXT NOT NULL,
    relation TEXT NOT NULL,
    source TEXT NOT NULL,
    confidence REAL NOT NULL,
    PRIMARY KEY (src_id, dst_id, relation)
  ) STRICT;
  CREATE INDEX am_relations_dst ON am_relations (dst_id, relation);
  CREATE INDEX am_relations_rel ON am_relations (relation);
  CREATE TABLE am_entity_keys (
    key TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    key_kind TEXT NOT NULL,
    PRIMARY KEY (key, entity_id)
  ) STRICT;`;
