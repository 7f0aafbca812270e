// Inserts into the graph tables. An entity id is written once (the first
// record wins); a relation is written only when both ends exist and is
// counted once. Names, search text and keys are folded by programme search's
// rule (search-text.ts#searchNormalize), as the tools' queries are.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { searchNormalize } from '../../catalog/search-text.ts';
import type { Rec } from './rows.ts';

export interface NewEntity {
  id: string;
  kind: string;
  name: string;
  sourceUrl?: string | null;
  fetchedAt?: string | null;
  validFrom?: string | null;
  validUntil?: string | null;
  status?: string | null;
  prefecture?: string | null;
  authority?: string | null;
  tier?: string | null;
  /** Words besides the name that the tools' term search matches. */
  searchExtra?: (string | null | undefined)[];
  facts: Rec;
  provenance?: Rec;
  recordSource?: string | null;
}

export class GraphWriter {
  readonly db: DatabaseSync;
  /** Relations written so far. */
  relations = 0;
  private readonly entity: StatementSync;
  private readonly relation: StatementSync;
  private readonly key: StatementSync;
  private readonly exists: StatementSync;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.entity = db.prepare(`INSERT OR IGNORE INTO am_entities
      (entity_id, record_kind, name, name_norm, source_url, fetched_at, valid_from, valid_until, status, prefecture,
       authority_name, tier, search_text, facts, provenance, record_source)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.relation = db.prepare('INSERT OR IGNORE INTO am_relations (src_id, dst_id, relation, source, confidence) VALUES (?, ?, ?, ?, ?)');
    this.key = db.prepare('INSERT OR IGNORE INTO am_entity_keys (key, entity_id, key_kind) VALUES (?, ?, ?)');
    this.exists = db.prepare('SELECT 1 FROM am_entities WHERE entity_id = ?');
  }

  /** False when an entity with this id was already written. */
  addEntity(e: NewEntity): boolean {
    const result = this.entity.run(
      e.id,
      e.kind,
      e.name,
      searchNormalize(e.name),
      e.sourceUrl ?? null,
      e.fetchedAt ?? null,
      e.validFrom ?? null,
      e.validUntil ?? null,
      e.status ?? null,
      e.prefecture ?? null,
      e.authority ?? null,
      e.tier ?? null,
      searchNormalize([e.name, ...(e.searchExtra ?? [])].filter(Boolean).join(' | ')),
      JSON.stringify(e.facts),
      JSON.stringify(e.provenance ?? {}),
      e.recordSource ?? null,
    );
    return Number(result.changes) > 0;
  }

  addRelation(src: string, dst: string, relation: string, source: string, confidence: number): void {
    if (src === dst) return;
    if (!this.exists.get(src) || !this.exists.get(dst)) return;
    const result = this.relation.run(src, dst, relation, source, confidence);
    this.relations += Number(result.changes);
  }

  addKey(key: string | null | undefined, id: string, kind: string): void {
    const k = key ? searchNormalize(key) : '';
    if (k) this.key.run(k, id, kind);
  }
}
