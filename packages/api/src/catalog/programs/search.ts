// Programme search has one owner: this. Given a query read once
// (query.ts), it runs the engine (catalog/search/engine.ts) and returns what
// every caller needs, top to bottom:
//   page(query, page)   the JSON text of a GET /v1/programs/search answer
//   stream(query, …)    every match with its row, page after page (exports,
//                       deadline calendars)
//   matchingIds(…)      which of some programmes a query matches (the change
//                       feed's saved-search fan-out)
//   detail / batch      records as JSON (GET /v1/programs/{id}, the batch)
// HTTP concerns (the answer cache, ETags, compression) are the caller's
// (http/answers.ts). One instance per catalogue (Catalog#programs): its
// caches live and die with the file.
import type { CatalogDatabase } from '../db.ts';
import { ATTRIBUTION, JGRANTS_CREDIT, programAttribution } from '../attribution.ts';
import type { ProgramSearch, SearchHit } from '../search/engine.ts';
import { readProgramQuery, type PageRequest, type ProgramQuery } from './query.ts';
import type { Place } from '@jp-support/vocab';
import type { UnderstoodQuery } from '../search/understand.ts';
import { matchNotes, type MatchRequest } from './match.ts';
import { getProgramRowsByPid, hitMembers, ProgramRecords, withMembers, type ProgramRow, type RecordView } from './records.ts';

const ATTRIBUTION_JSON = JSON.stringify(ATTRIBUTION);

/** What a search's q was read as (explain=true): the terms that must match, those that only rank, and the signals. */
export function readNeed(q: UnderstoodQuery, place: Place | null) {
  return {
    terms: q.required.map((g) => g.term),
    ranking_terms: q.optional.map((g) => g.term),
    generic: q.generic,
    prefectures: q.prefectures,
    municipalities: q.municipalities.map((m) => ({ prefecture: m.prefecture, municipality: m.municipality! })),
    applicable_in: place,
    purposes: q.purposes,
    kinds: q.kinds,
    audiences: q.audiences,
    amount_man_yen: q.amountManYen,
  };
}

/** Hits per page read from the engine while streaming (the rows of a page are read in one query: export-sender.ts sends them in chunks of 50). */
const STREAM_PAGE = 100;

export interface StreamedHit {
  row: ProgramRow;
  hit: SearchHit;
}

export class ProgramCatalog {
  readonly engine: ProgramSearch;
  readonly records: ProgramRecords;
  private readonly db: CatalogDatabase;
  private pidById: Map<string, number> | null = null;
  private readonly provenanceHas = new Map<string, boolean>();
  /** Reads of the whole programmes table: the id map and provenance scans (once each per catalogue; Catalog#warm does them before serving). */
  readonly work = { tableReads: 0 };

  constructor(db: CatalogDatabase, engine: ProgramSearch) {
    this.db = db;
    this.engine = engine;
    this.records = new ProgramRecords(db);
  }

  /** One page of a search as the JSON text of its answer (members in the SearchResponse order). */
  page(query: ProgramQuery, page: PageRequest): string {
    const found = this.engine.search({ query, limit: page.limit, offset: page.offset, cursor: page.cursor, facets: page.facets, explain: page.explain });
    const pids = found.hits.map((h) => h.pid);
    const records = this.records.json(pids, page.fields);
    // explain: each row says the need q was read as beside its score parts.
    const need = page.explain && found.understood ? readNeed(found.understood, query.place ?? null) : undefined;
    const results = found.hits.map((hit) => withMembers(records.get(hit.pid)!, hitMembers(hit, need)));
    const facets = found.facets ? `,"facets":${JSON.stringify(found.facets)}` : '';
    return (
      `{"total":${found.total},"limit":${page.limit},"offset":${page.offset},"results":[${results.join(',')}],` +
      `"attribution":${this.attributionJson(pids)},"next_cursor":${JSON.stringify(found.nextCursor)}${facets}}`
    );
  }

  /**
   * A match answer (POST /v1/programs/match) as JSON text: the engine's page
   * for the profile's query, each row the default shape plus `reasons` and
   * `unknowns` (and with explain the need read and the score parts), and what
   * the profile was read as.
   */
  match(req: MatchRequest): string {
    const { query, profile, page } = req;
    const found = this.engine.search({ query, limit: page.limit, offset: page.offset, explain: page.explain });
    const pids = found.hits.map((h) => h.pid);
    const records = this.records.json(pids, 'default');
    const readAs = {
      place: profile.place,
      industry: profile.industry,
      size: profile.size,
      stage: profile.stage,
      purposes: profile.read.purposes,
      audiences: profile.read.audiences,
      industries: profile.read.industries,
      terms: profile.text ? [...profile.text.required, ...profile.text.optional].map((g) => g.term) : [],
    };
    const results = found.hits.map((hit) => {
      const { reasons, unknowns } = matchNotes(this.engine.index.rows[hit.pid], profile, query.today);
      const members = hitMembers(hit);
      return withMembers(records.get(hit.pid)!, {
        reasons,
        unknowns,
        ...(page.explain ? { need: readAs, score: members.score ?? null } : {}),
      });
    });
    return (
      `{"total":${found.total},"limit":${page.limit},"offset":${page.offset},"results":[${results.join(',')}],` +
      `"read_as":${JSON.stringify(readAs)},"attribution":${this.attributionJson(pids)}}`
    );
  }

  /** The matches from `offset`, at most `limit`, with their rows, read a page at a time through the engine's keyset cursor. */
  stream(query: ProgramQuery, window: { offset: number; limit: number }): { total: number; hits: Iterable<StreamedHit> } {
    const engine = this.engine;
    const db = this.db;
    const first = engine.search({ query, limit: Math.min(STREAM_PAGE, window.limit), offset: window.offset });
    return {
      total: first.total,
      hits: (function* () {
        let found = first;
        let left = window.limit;
        for (;;) {
          const hits = found.hits.slice(0, left);
          left -= hits.length;
          const rows = getProgramRowsByPid(
            db,
            hits.map((h) => h.pid),
          );
          for (const hit of hits) yield { row: rows.get(hit.pid)!, hit };
          if (left <= 0 || found.nextCursor === null || found.hits.length === 0) return;
          found = engine.search({ query, limit: Math.min(STREAM_PAGE, left), offset: 0, cursor: found.nextCursor });
        }
      })(),
    };
  }

  /** Which of `ids` the query matches (programmes only: a record merged into another programme's is never a match of its own). */
  matchingIds(query: ProgramQuery, ids: ReadonlySet<string>): Set<string> {
    const out = new Set<string>();
    if (ids.size === 0) return out;
    const rows = this.engine.index.rows;
    const all = this.engine.search({ query, limit: Number.MAX_SAFE_INTEGER, offset: 0 });
    for (const hit of all.hits) if (ids.has(rows[hit.pid].unifiedId)) out.add(rows[hit.pid].unifiedId);
    return out;
  }

  /**
   * Reads now what the first detail and the first page would read
   * (Catalog#warm), and runs one text search in each shape, so that the first
   * request does not also pay for compiling the search's code (the first of
   * the bench's long tail held the loop ~90 ms of CPU, the next ones ~3 ms).
   */
  warm(): void {
    this.pidOf('');
    this.anyProvenanceWith(JGRANTS_CREDIT);
    const query = readProgramQuery({ q: '補助金' }, '2000-01-01');
    for (const fields of ['minimal', 'default', 'full'] as const) this.page(query, { limit: 10, offset: 0, fields, explain: false, facets: [] });
  }

  /** The catalogue's pid of a unified_id of any record, canonical or not, or undefined (read once per catalogue). */
  pidOf(unifiedId: string): number | undefined {
    if (!this.pidById) {
      this.work.tableReads++;
      this.pidById = new Map(this.db.all<{ pid: number; unified_id: string }>('SELECT pid, unified_id FROM programs').map((r) => [r.unified_id, r.pid]));
    }
    return this.pidById.get(unifiedId);
  }

  /** Records as JSON in `view`, by pid (the detail route and the batch). */
  json(pids: readonly number[], view: RecordView): Map<number, string> {
    return this.records.json(pids, view);
  }

  /**
   * The attribution block of an answer with these records, as JSON: the
   * constant one, unless the catalogue holds records a source asks credit for
   * (catalog/attribution.ts) — then the records' provenance is read.
   */
  attributionJson(pids: readonly number[]): string {
    if (!this.anyProvenanceWith(JGRANTS_CREDIT) || pids.length === 0) return ATTRIBUTION_JSON;
    const rows = this.db.all<{ pid: number; provenance: string }>(
      'SELECT p.pid, p.provenance FROM programs p WHERE p.pid IN (SELECT value FROM json_each(?))',
      JSON.stringify(pids),
    );
    return JSON.stringify(programAttribution(rows));
  }

  /** Whether any record's provenance holds `text` (once per catalogue and text). */
  private anyProvenanceWith(text: string): boolean {
    let hit = this.provenanceHas.get(text);
    if (hit === undefined) {
      this.work.tableReads++;
      hit = this.db.get<{ one: number }>('SELECT 1 AS one FROM programs WHERE instr(provenance, ?) > 0 LIMIT 1', text) !== undefined;
      this.provenanceHas.set(text, hit);
    }
    return hit;
  }
}
