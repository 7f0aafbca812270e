// The programme search's in-memory side of one read-only catalogue: per
// programme the few columns that filters and ranking read (about 12,000
// rows; a few MB), loaded once when the catalogue opens, and the postings of
// each searched term (which programmes contain it), cached. Only canonical
// records are programmes here (one programme, one record: ingest decides,
// ingest/canonical-records.ts); the others are readable by id only.
//
// Matching a term is a substring match on the search normalisation
// (catalog/search-text.ts) of name, aliases, authority and kind/target/
// purpose text, the reading too for kana-only terms: a term of 3+
// characters through the trigram index (the contract's rule; cost follows
// the term's matches), a shorter one by scanning the in-memory text.
import type { CatalogDatabase } from '../db.ts';
import { ftsPhrase } from '../text-query.ts';
import { isKanaOnly, searchColumns, searchedValues, searchNormalize } from '../search-text.ts';
import { peopleGroupsIn } from './people-groups.ts';
import { AUDIENCES, PURPOSES } from '@jp-support/vocab';
import { Lru } from '../../lib/lru.ts';
import { POSTING_BYTES, stringBytes } from '../../lib/cache-budget.ts';

export interface ProgramColumns {
  unifiedId: string;
  primaryName: string;
  tier: string;
  tierOrder: number;
  excluded: boolean;
  prefecture: string | null;
  municipality: string | null;
  authorityLevel: string | null;
  programKind: string | null;
  fundingPurpose: string[];
  targetTypes: string[];
  /** JSIC major letters of the industries the programme serves (empty: not stated). */
  jsicMajors: string[];
  amountMax: number | null;
  /** The application window's first and last day (YYYY-MM-DD), as the catalogue's window_start and window_end. */
  windowStart: string | null;
  windowEnd: string | null;
  recordClass: string;
  /** Points of importance of the programme (ingest/importance.ts): a ranking prior apart from the tier. */
  importance: number;
  /** A licence, registration, certification or legal duty, not support (rank.ts ranks it below support). */
  regulatory: boolean;
  /** Its name says it is for large companies (大企業向け, 大企業等の…): rank.ts ranks it down for a smaller applicant. */
  forLargeCompanies: boolean;
  /** Its name says it is for research-based start-ups (ディープテック, 大学発, 研究開発型スタートアップ): rank.ts ranks it down for a need naming no research. */
  forResearchStartups: boolean;
  /** The groups of people its name names (people-groups.ts): rank.ts ranks it down for a need naming only others. */
  peopleGroups: string[];
  /** Its name says it was abolished or its call has ended (廃止, 募集終了): rank.ts ranks it below running programmes. */
  ended: boolean;
  fiscalYear: number | null;
  /** Search-normalised text per field (what the index holds). */
  name: string;
  aliases: string;
  authority: string;
  other: string;
  /** A primary source's description (jGrants overlays); '' for the bundled dataset's records. */
  description: string;
  reading: string;
  nameKey: string;
  /** The record's page (official_url, else source_url; scheme, www. and trailing slashes dropped): engine.ts#sameNameLast. */
  page: string | null;
  /** nameKey of the programme's other records (merged at ingest): the exact-name boost reads them too, so a renamed or split programme is found by any of its names. */
  otherNameKeys: string[];
  /** Position in the contract's browse order (excluded, tier, primary_name, pid). */
  browseRank: number;
  /** Position in primary_name order (sort=name). */
  nameRank: number;
  /** name, aliases, authority, other, description, reading (FIELDS order): what scoring loops over. */
  fields: string[];
  /**
   * Length of each field over the field's average length (BM25's length
   * normalisation). A plain array of doubles: a Float64Array of six per row
   * cost ~300 bytes more (its ArrayBuffer and the backing store's C++
   * objects), ~3 MB a process over the catalogue (decision 0433).
   */
  relativeLength: number[];
}

// A licence, a registration, a certification or a legal duty names itself so
// (資格, 免許, 認証, 届出 …) and names no support (補助, 融資, 税制 …): 自動車整備業
// 認証工場 is what a garage must hold, not what helps it.
const REGULATORY = /資格|免許|許可|認証|指定工場|登録|届出|検定|試験|規制|義務/u;
const SUPPORT = /補助|助成|支援|融資|貸付|資金|奨励|給付|交付|減免|軽減|補給|保証|税制|控除|特例|優遇|ローン|促進/u;

// A name that says its applicants are large companies (賃上げ促進税制（大企業向け）,
// 大企業等のスタートアップ連携…), whatever its published applicant types say.
const LARGE_COMPANIES = /大企業/u;
const SMALL_COMPANIES = /中小|小規模/u;

// Programmes for start-ups built on research (university spin-offs, deep tech, drug discovery, research results):
// another applicant's for a founder or a firm that names no research (decision 0335).
const RESEARCH_STARTUPS = /ディープテック|研究開発型スタートアップ|大学発|創薬ベンチャー|研究成果/u;

// A name that says the measure was abolished or its call is over (DX投資促進税制（廃止）, （募集終了）…).
const ENDED = /廃止|終了/u;

/** A page address without its scheme, www. and trailing slashes, so that two spellings of one page compare equal. */
function pageKey(url: string | null): string | null {
  return url ? url.replace(/^https?:\/\/(?:www\.)?/iu, '').replace(/\/+$/u, '') : null;
}

/** Whether a programme's name says it is a licence, registration or duty rather than support. */
export function isRegulatory(name: string): boolean {
  return REGULATORY.test(name) && !SUPPORT.test(name);
}

/** The searchable fields, in the order of ProgramColumns.fields. */
export const FIELDS = ['name', 'aliases', 'authority', 'other', 'description', 'reading'] as const;
export const READING_FIELD = 5;

/** Posting lists: sorted pids. */
export type Postings = Int32Array;

const EMPTY: Postings = new Int32Array(0);
const TEXT_COLUMNS = '{primary_name aliases authority other description}';
const ALL_COLUMNS = '{primary_name aliases authority other description reading}';

export class SearchIndex {
  /** Columns by pid (sparse array: pid is the catalogue's rowid). */
  readonly rows: ProgramColumns[] = [];
  /** Every pid, ascending. */
  readonly pids: Int32Array;
  /** Every pid in the contract's browse order (excluded, tier, primary_name, pid). */
  readonly browseOrder: Int32Array;
  /** Rows per field, for BM25's length normalisation. */
  readonly averageLength: Record<(typeof FIELDS)[number], number>;
  /** The newest fiscal year any record names (recency is relative to the data). */
  readonly dataYear: number;
  private readonly postings = new Lru<string, Postings>(POSTING_BYTES);
  /** Work done reading posting lists (cache misses): lists read and pids in them (tests bound it per query). */
  readonly work = { postingLists: 0, postingRows: 0 };

  private readonly db: CatalogDatabase;

  /** Bytes of posting lists held, for /metrics. */
  get postingBytes(): number {
    return this.postings.weight;
  }

  private columnBytesCache: number | null = null;

  /**
   * Bytes the in-memory columns hold (estimate, for /metrics): their strings
   * at two bytes a character, about 400 bytes of object and array overhead per
   * row, and the typed arrays; computed once.
   */
  get columnBytes(): number {
    if (this.columnBytesCache === null) {
      let bytes = this.pids.byteLength + this.browseOrder.byteLength;
      for (const row of this.rows) {
        if (!row) continue;
        bytes += 400;
        for (const value of Object.values(row)) {
          if (typeof value === 'string') bytes += stringBytes(value);
          else if (Array.isArray(value)) for (const item of value) bytes += typeof item === 'string' ? stringBytes(item) + 16 : 8;
        }
      }
      this.columnBytesCache = bytes;
    }
    return this.columnBytesCache;
  }

  constructor(db: CatalogDatabase) {
    this.db = db;
    // Row by row, not all() at once: each row's text (its provenance JSON
    // above all) dies young instead of being promoted with every other row's,
    // which left tens of MB of old space resident after the build.
    const raw = db.db
      .prepare(
        `SELECT pid, unified_id, primary_name, tier, tier_order, excluded, prefecture, municipality, authority_level,
              program_kind, funding_purpose, target_types, amount_max_man_yen, window_start, window_end, record_class, fiscal_year,
              aliases, authority_name, description, name_reading, name_key, jsic_majors, provenance, importance, official_url, source_url
         FROM programs WHERE canonical_id IS NULL ORDER BY excluded, tier_order, primary_name, pid`,
      )
      .iterate() as IterableIterator<Record<string, string | number | null>>;
    const pids: number[] = [];
    let year = 0;
    const sums = { name: 0, aliases: 0, authority: 0, other: 0, description: 0, reading: 0 };
    let described = 0;
    let browseRank = 0;
    for (const r of raw) {
      const fundingPurpose = JSON.parse(r.funding_purpose as string) as string[];
      const targetTypes = JSON.parse(r.target_types as string) as string[];
      const aliases = JSON.parse(r.aliases as string) as string[];
      const provenance = JSON.parse(r.provenance as string) as Record<string, unknown>;
      const row: ProgramColumns = {
        unifiedId: r.unified_id as string,
        primaryName: r.primary_name as string,
        tier: r.tier as string,
        tierOrder: r.tier_order as number,
        excluded: r.excluded === 1,
        prefecture: r.prefecture as string | null,
        municipality: r.municipality as string | null,
        authorityLevel: r.authority_level as string | null,
        programKind: r.program_kind as string | null,
        fundingPurpose,
        targetTypes,
        jsicMajors: JSON.parse((r.jsic_majors as string | null) ?? '[]') as string[],
        amountMax: r.amount_max_man_yen as number | null,
        windowStart: r.window_start as string | null,
        windowEnd: r.window_end as string | null,
        recordClass: r.record_class as string,
        importance: r.importance as number,
        regulatory: isRegulatory(r.primary_name as string),
        ended: ENDED.test(r.primary_name as string),
        forLargeCompanies: LARGE_COMPANIES.test(r.primary_name as string) && !SMALL_COMPANIES.test(r.primary_name as string),
        forResearchStartups: RESEARCH_STARTUPS.test(r.primary_name as string),
        peopleGroups: peopleGroupsIn(searchNormalize(r.primary_name as string)),
        fiscalYear: r.fiscal_year as number | null,
        // The same text as the catalogue's FTS columns.
        ...searchColumns(
          {
            primary_name: r.primary_name as string,
            authority_name: r.authority_name as string | null,
            prefecture: r.prefecture as string | null,
            municipality: r.municipality as string | null,
            program_kind: r.program_kind as string | null,
            target_types: searchedValues(targetTypes, provenance.target_types, AUDIENCES),
            funding_purpose: searchedValues(fundingPurpose, provenance.funding_purpose, PURPOSES),
            description: r.description as string | null,
          },
          aliases,
          r.name_reading as string,
        ),
        nameKey: r.name_key as string,
        page: pageKey((r.official_url as string | null) ?? (r.source_url as string | null)),
        otherNameKeys: [],
        browseRank,
        nameRank: 0,
        fields: [],
        relativeLength: [],
      };
      row.fields = FIELDS.map((f) => row[f] as string);
      this.rows[r.pid as number] = row;
      pids.push(r.pid as number);
      if (row.fiscalYear && row.fiscalYear > year && row.fiscalYear < 2100) year = row.fiscalYear;
      sums.name += row.name.length;
      sums.aliases += row.aliases.length;
      sums.authority += row.authority.length;
      sums.other += row.other.length;
      sums.description += row.description.length;
      if (row.description !== '') described++;
      sums.reading += row.reading.length;
      browseRank++;
    }
    for (const m of db.db.prepare('SELECT dup_group, name_key FROM programs WHERE canonical_id IS NOT NULL').all() as {
      dup_group: number;
      name_key: string;
    }[]) {
      const row = this.rows[m.dup_group];
      if (row && m.name_key !== row.nameKey && !row.otherNameKeys.includes(m.name_key)) row.otherNameKeys.push(m.name_key);
    }
    // sort=name: primary_name in the catalogue's collation (code point order), pid breaking ties.
    const byName = db.db.prepare('SELECT pid FROM programs WHERE canonical_id IS NULL ORDER BY primary_name, pid').all() as { pid: number }[];
    byName.forEach((r, i) => {
      this.rows[r.pid].nameRank = i;
    });
    this.browseOrder = Int32Array.from(pids);
    this.pids = Int32Array.from(pids).sort();
    const n = Math.max(1, pids.length);
    this.averageLength = {
      name: sums.name / n,
      aliases: sums.aliases / n,
      authority: sums.authority / n,
      other: sums.other / n,
      // Over the records that have one: most have none, and an average near 0 would flatten every description's weight.
      description: sums.description / Math.max(1, described),
      reading: sums.reading / n,
    };
    this.dataYear = year || new Date().getUTCFullYear();
    // One text of the whole catalogue (the text fields of each row but the reading, rows
    // apart by a separator no term contains): a short term is found with one
    // native indexOf pass instead of a test per row and field.
    const parts: string[] = [];
    const starts: number[] = [];
    let offset = 0;
    for (const pid of this.pids) {
      const r = this.rows[pid];
      r.relativeLength = FIELDS.map((f, i) => r.fields[i].length / Math.max(1, this.averageLength[f]));
      const text = `${r.name}\u0001${r.aliases}\u0001${r.authority}\u0001${r.other}\u0001${r.description}\u0000`;
      starts.push(offset);
      parts.push(text);
      offset += text.length;
    }
    this.haystack = parts.join('');
    this.rowStarts = Int32Array.from(starts);
  }

  /** The catalogue's text for short-term scans, and where each row (in pids order) starts in it. */
  private readonly haystack: string;
  private readonly rowStarts: Int32Array;

  /** Pids whose text holds `term`, by scanning the catalogue text (terms of 1–2 characters). */
  private scan(term: string): Postings {
    const out: number[] = [];
    // A short Latin term (it, dx, ai) is a word, not a piece of one (credit, unit).
    const latin = /^[a-z0-9]+$/.test(term);
    const isLetter = (c: string | undefined): boolean => c !== undefined && c >= 'a' && c <= 'z';
    let row = -1;
    for (let at = this.haystack.indexOf(term); at !== -1; at = this.haystack.indexOf(term, at + 1)) {
      if (latin && (isLetter(this.haystack[at - 1]) || isLetter(this.haystack[at + term.length]))) continue;
      // The row holding this offset: the last start <= at (binary search from the previous row).
      let lo = Math.max(0, row);
      let hi = this.rowStarts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.rowStarts[mid] <= at) lo = mid;
        else hi = mid - 1;
      }
      if (lo !== row) {
        row = lo;
        out.push(this.pids[row]);
      }
      // Skip to the next row: one hit per row is enough.
      at = (row + 1 < this.rowStarts.length ? this.rowStarts[row + 1] : this.haystack.length) - 1;
    }
    return Int32Array.from(out);
  }

  get size(): number {
    return this.pids.length;
  }

  /** Pids whose text contains `term` (search-normalised), sorted; cached. */
  postingsOf(term: string): Postings {
    const withReading = isKanaOnly(term) && [...term].length >= 3;
    const key = `${withReading ? 'r' : 't'}:${term}`;
    let hit = this.postings.get(key);
    if (hit) return hit;
    if ([...term].length >= 3) {
      // One row holding the JSON array of the pids: about three times faster
      // than a row object per match for a term with thousands of matches.
      const ids =
        this.db.get<{ ids: string }>(
          'SELECT json_group_array(rowid) AS ids FROM programs_fts WHERE programs_fts MATCH ?',
          `${withReading ? ALL_COLUMNS : TEXT_COLUMNS}: ${ftsPhrase(term)}`,
        )?.ids ?? '[]';
      // Only programmes (canonical records) are searched; the index holds every record's text.
      hit = ids === '[]' ? EMPTY : Int32Array.from((JSON.parse(ids) as number[]).filter((pid) => this.rows[pid] !== undefined)).sort();
    } else {
      hit = this.scan(term);
    }
    this.work.postingLists++;
    this.work.postingRows += hit.length;
    // Weight: the list's bytes (+64 for the entry itself), so the cache is bounded in memory.
    this.postings.set(key, hit, hit.byteLength + 64);
    return hit;
  }
}

/** Union of sorted posting lists. */
export function unionAll(lists: Postings[]): Postings {
  if (lists.length === 1) return lists[0];
  const set = new Set<number>();
  for (const l of lists) for (const pid of l) set.add(pid);
  return Int32Array.from(set).sort();
}

/** Intersection of sorted posting lists, smallest first. */
export function intersectAll(lists: Postings[]): Postings {
  if (lists.length === 0) return EMPTY;
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let acc = sorted[0];
  for (let k = 1; k < sorted.length && acc.length > 0; k++) {
    const other = sorted[k];
    const out: number[] = [];
    let j = 0;
    for (let i = 0; i < acc.length; i++) {
      const pid = acc[i];
      while (j < other.length && other[j] < pid) j++;
      if (j < other.length && other[j] === pid) out.push(pid);
    }
    acc = Int32Array.from(out);
  }
  return acc;
}
