// Candidate pool for one query of the judged set
// (packages/api/test/fixtures/judged_queries.jsonl; method in judged_queries.md).
//
//   node scripts/judged-pool.ts "<query>" [term…] [--pref 北海道] [--muni 札幌市] [--limit 40]
//     [--tier S,A] [--level national] [--amount-min 500] [--filter-pref 東京都]
//     [--national] [--flagship 持続化|ものづくり] [--json]
//   node scripts/judged-pool.ts --verify [judged_queries.jsonl | judged_profiles.jsonl] [--since 166]
//
// A term may list synonyms separated by `|` (省エネ|省エネルギー); without terms the
// query's space-separated words are used. Several independent methods each
// rank the catalogue, their lists are fused by reciprocal rank, the first
// `limit` candidates are kept and every member of a duplicate group of a kept
// candidate is added. Deterministic: ties are broken by unified_id. Reads the
// built test catalogue read-only and shares no code with the search ranking,
// so that the pool does not lean towards what the ranking already returns.
import { DatabaseSync } from 'node:sqlite';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { searchNormalize } from '../packages/api/src/catalog/search-text.ts';

export interface PoolOptions {
  terms?: string[];
  prefecture?: string;
  municipality?: string;
  limit?: number;
  dbPath?: string;
  /** Structured filters of the query's params, applied to every method. */
  tiers?: string[];
  authorityLevel?: string;
  amountMin?: number;
  /** The `prefecture` filter: only programmes of that prefecture can be returned. */
  prefectureFilter?: string;
  /**
   * Name fragments of the national programmes a consultant names first for
   * the need (`小規模事業者持続化|ものづくり|IT導入`): an independent list of
   * nationwide rows whose name carries one of them, so that a need written
   * without programme words (an industry, a sentence, English) still pools
   * the general programmes that serve it.
   */
  flagship?: string[];
  /** Add the list of nationwide rows matching any term (method 5); later queries of the set use it. */
  national?: boolean;
}

export interface Candidate {
  unified_id: string;
  tier: string;
  kind: string | null;
  prefecture: string | null;
  municipality: string | null;
  authority: string | null;
  name: string;
  dupGroups: number[];
  methods: string[];
}

const DEFAULT_DB = path.resolve(import.meta.dirname, '..', 'var', 'test-catalog', 'catalog.sqlite');
const PER_METHOD = 40;
// Reciprocal-rank fusion constant: small, so each method's first hits count.
const RRF_K = 10;
const PLACE_METHODS = new Set(['place', 'place:prefecture', 'nationwide']);
// A nationwide row: run by a national body, or a row with no place at all.
const NATIONWIDE = `(p.authority_level IN ('national', 'financial') OR (p.prefecture IS NULL AND p.municipality IS NULL AND coalesce(p.authority_level, '') = ''))`;
const PLACE_WEIGHT = 3;
const OTHER_PLACE_FACTOR = 0.3;

interface Row {
  pid: number;
  unified_id: string;
  tier: string;
  tier_order: number;
  program_kind: string | null;
  prefecture: string | null;
  municipality: string | null;
  authority_name: string | null;
  authority_level: string | null;
  primary_name: string;
}

// The index holds names folded as search-text.ts#searchNormalize does (NFKC,
// lower case, katakana as hiragana); terms are folded the same way so that
// キャリアアップ finds きゃりああっぷ. Text normalisation only, no ranking.
function norm(text: string): string {
  return searchNormalize(text).replace(/\s+/g, ' ').trim();
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** 東京都 → 東京, 大阪府 → 大阪, 北海道 stays. */
function shortPrefecture(full: string): string {
  return full === '北海道' ? full : full.replace(/[都府県]$/, '');
}

/** Prefecture or municipality named in the query (full names; 東京 → 東京都 etc.). */
function placesIn(query: string, db: DatabaseSync): { prefecture?: string; municipality?: string; rest: string } {
  const prefectures = (db.prepare('SELECT DISTINCT prefecture FROM municipalities ORDER BY prefecture').all() as { prefecture: string }[]).map(
    (r) => r.prefecture,
  );
  let rest = query;
  let prefecture: string | undefined;
  for (const full of prefectures) {
    if (rest.includes(full)) {
      prefecture = full;
      rest = rest.replace(full, ' ');
      break;
    }
  }
  if (!prefecture) {
    for (const full of prefectures) {
      const short = shortPrefecture(full);
      if (rest.includes(short)) {
        prefecture = full;
        rest = rest.replace(short, ' ');
        break;
      }
    }
  }
  let municipality: string | undefined;
  const munis = db.prepare('SELECT DISTINCT name, prefecture FROM municipalities ORDER BY length(name) DESC, name').all() as {
    name: string;
    prefecture: string;
  }[];
  for (const m of munis) {
    if (m.name.length >= 3 && rest.includes(m.name) && (!prefecture || prefecture === m.prefecture)) {
      municipality = m.name;
      prefecture ??= m.prefecture;
      rest = rest.replace(m.name, ' ');
      break;
    }
  }
  return { prefecture, municipality, rest };
}

export function pool(query: string, options: PoolOptions = {}): Candidate[] {
  const db = new DatabaseSync(options.dbPath ?? DEFAULT_DB, { readOnly: true });
  try {
    return poolFrom(db, query, options);
  } finally {
    db.close();
  }
}

function poolFrom(db: DatabaseSync, query: string, options: PoolOptions): Candidate[] {
  const q = norm(query);
  const detected = placesIn(q, db);
  const prefecture = options.prefectureFilter ?? options.prefecture ?? detected.prefecture;
  const municipality = options.municipality ?? detected.municipality;
  const groups: string[][] = (
    options.terms && options.terms.length > 0
      ? options.terms.map((t) => t.split('|'))
      : norm(detected.rest)
          .split(' ')
          .filter((t) => t.length >= 2)
          .map((t) => [t])
  )
    .map((alternatives) => alternatives.map(norm).filter((t) => t !== ''))
    .filter((alternatives) => alternatives.length > 0);
  const allTerms = [...new Set(groups.flat())];

  const cols = `p.pid, p.unified_id, p.tier, p.tier_order, p.program_kind, p.prefecture, p.municipality,
    p.authority_name, p.authority_level, p.primary_name`;
  const text = `(f.primary_name || ' | ' || f.aliases || ' | ' || f.authority || ' | ' || f.other)`;
  const filters = [
    options.tiers?.length ? `p.tier IN (${options.tiers.map((t) => `'${t.replace(/[^A-Z]/g, '')}'`).join(', ')})` : '',
    options.authorityLevel ? `p.authority_level = '${options.authorityLevel.replace(/[^a-z]/g, '')}'` : '',
    options.amountMin !== undefined ? `p.amount_max_man_yen >= ${Number(options.amountMin)}` : '',
    options.prefectureFilter ? `p.prefecture = '${options.prefectureFilter.replace(/'/g, "''")}'` : '',
  ]
    .filter(Boolean)
    .map((f) => ` AND ${f}`)
    .join('');
  const base = `FROM programs_fts f JOIN programs p ON p.pid = f.rowid WHERE p.excluded = 0${filters}`;
  const stableOrder = 'p.tier_order, length(p.primary_name), p.unified_id';
  const lists = new Map<string, Row[]>();
  const limit = options.limit ?? 40;

  // 1. bm25 over the trigram index: the whole query, and each term of 3+ characters.
  const bm25 = (phrase: string): Row[] =>
    db.prepare(`SELECT ${cols} ${base} AND programs_fts MATCH ? ORDER BY bm25(programs_fts), p.unified_id LIMIT ${PER_METHOD}`).all(phrase) as unknown as Row[];
  const words = q.split(' ').filter((w) => w.length >= 3);
  if (words.length > 0) lists.set('fts:query', bm25(words.map(ftsPhrase).join(' AND ')));
  for (const term of allTerms) {
    if (term.length >= 3) lists.set(`fts:${term}`, bm25(ftsPhrase(term)));
  }

  // 2. Substring match of each term in the name and aliases (2-character terms included).
  for (const term of allTerms) {
    lists.set(
      `name:${term}`,
      db
        .prepare(`SELECT ${cols} ${base} AND (f.primary_name LIKE ? ESCAPE '\\' OR f.aliases LIKE ? ESCAPE '\\') ORDER BY ${stableOrder} LIMIT ${PER_METHOD}`)
        .all(likePattern(term), likePattern(term)) as unknown as Row[],
    );
  }

  // 3. Every term group present somewhere in the indexed text (any synonym of each group).
  const groupSql = groups.map((g) => `(${g.map(() => `${text} LIKE ? ESCAPE '\\'`).join(' OR ')})`).join(' AND ');
  const groupArgs = groups.flatMap((g) => g.map(likePattern));
  if (groups.length > 1) {
    lists.set(
      'all-terms',
      db.prepare(`SELECT ${cols} ${base} AND ${groupSql} ORDER BY ${stableOrder} LIMIT ${PER_METHOD * 2}`).all(...groupArgs) as unknown as Row[],
    );
  }

  // 4. The named place: programmes of that prefecture or municipality matching any term,
  //    most term groups first; and nationwide ones matching every group.
  if (prefecture || municipality) {
    const anyTerm = allTerms.map(() => `${text} LIKE ? ESCAPE '\\'`).join(' OR ') || '1';
    const hits = groups.map((g) => `(${g.map(() => `${text} LIKE ? ESCAPE '\\'`).join(' OR ')})`).join(' + ') || '0';
    // Many local programmes carry no prefecture; their name names the place.
    const place = municipality
      ? `(p.municipality = ? OR f.primary_name LIKE ? ESCAPE '\\')`
      : `(p.prefecture = ? OR f.primary_name LIKE ? ESCAPE '\\'
          OR EXISTS (SELECT 1 FROM municipalities m WHERE m.prefecture = ? AND length(m.name) >= 3 AND instr(p.primary_name, m.name) > 0))`;
    const placeArgs = municipality ? [municipality, likePattern(municipality)] : [prefecture!, likePattern(shortPrefecture(prefecture!)), prefecture!];
    lists.set(
      'place',
      db
        .prepare(`SELECT ${cols} ${base} AND ${place} AND (${anyTerm}) ORDER BY (${hits}) DESC, ${stableOrder} LIMIT ${Math.max(PER_METHOD * 2, limit)}`)
        .all(...placeArgs, ...allTerms.map(likePattern), ...groupArgs) as unknown as Row[],
    );
    if (municipality && prefecture) {
      lists.set(
        'place:prefecture',
        db
          .prepare(
            `SELECT ${cols} ${base} AND p.prefecture = ? AND (p.municipality IS NULL OR p.municipality = ?) AND (${anyTerm})
         ORDER BY (${hits}) DESC, ${stableOrder} LIMIT ${PER_METHOD}`,
          )
          .all(prefecture, municipality, ...allTerms.map(likePattern), ...groupArgs) as unknown as Row[],
      );
    }
    if (groups.length > 0) {
      lists.set(
        'nationwide',
        db
          .prepare(`SELECT ${cols} ${base} AND p.prefecture IS NULL AND ${groupSql} ORDER BY ${stableOrder} LIMIT ${PER_METHOD}`)
          .all(...groupArgs) as unknown as Row[],
      );
    }
  }

  // 5. Nationwide rows matching any term, most term groups first: without a
  //    named place a consultant names the national programmes first, and the
  //    text lists alone are dominated by the many local pages.
  if (options.national && groups.length > 0) {
    const anyTerm = allTerms.map(() => `${text} LIKE ? ESCAPE '\\'`).join(' OR ');
    const hits = groups.map((g) => `(${g.map(() => `${text} LIKE ? ESCAPE '\\'`).join(' OR ')})`).join(' + ');
    lists.set(
      'national',
      db
        .prepare(`SELECT ${cols} ${base} AND ${NATIONWIDE} AND (${anyTerm}) ORDER BY (${hits}) DESC, ${stableOrder} LIMIT ${PER_METHOD}`)
        .all(...allTerms.map(likePattern), ...groupArgs) as unknown as Row[],
    );
  }

  // 6. Flagship national programmes named for the need (by name fragment).
  for (const fragment of (options.flagship ?? []).map(norm).filter((f) => f !== '')) {
    lists.set(
      `flagship:${fragment}`,
      db
        .prepare(
          `SELECT ${cols} ${base} AND ${NATIONWIDE} AND (f.primary_name LIKE ? ESCAPE '\\' OR f.aliases LIKE ? ESCAPE '\\') ORDER BY ${stableOrder} LIMIT 8`,
        )
        .all(likePattern(fragment), likePattern(fragment)) as unknown as Row[],
    );
  }

  // Reciprocal-rank fusion of the lists.
  // The place lists weigh more: a named place is the strongest part of such a need,
  // and the text lists alone would fill the pool with other prefectures.
  const byPid = new Map<number, { row: Row; score: number; methods: string[] }>();
  for (const [method, rows] of lists) {
    const weight = PLACE_METHODS.has(method) ? PLACE_WEIGHT : 1;
    rows.forEach((row, rank) => {
      const entry = byPid.get(row.pid) ?? { row, score: 0, methods: [] };
      entry.score += weight / (RRF_K + rank + 1);
      entry.methods.push(method);
      byPid.set(row.pid, entry);
    });
  }
  // Programmes of another prefecture cannot meet a need tied to a named place;
  // a few stay in the pool (judged 0), but they should not crowd out the place.
  if (prefecture) {
    for (const entry of byPid.values()) {
      if (entry.row.prefecture && entry.row.prefecture !== prefecture) entry.score *= OTHER_PLACE_FACTOR;
    }
  }
  const kept = [...byPid.values()].sort((a, b) => b.score - a.score || (a.row.unified_id < b.row.unified_id ? -1 : 1)).slice(0, limit);

  // 7. Duplicate groups of the kept candidates (they share one grade).
  const groupsOf = duplicateGroups(db);
  const seen = new Set(kept.map((k) => k.row.unified_id));
  const extra: { row: Row; methods: string[] }[] = [];
  const byUid = db.prepare(`SELECT ${cols} FROM programs p WHERE p.unified_id = ?`);
  for (const k of kept) {
    for (const g of groupsOf.get(k.row.unified_id) ?? []) {
      for (const uid of g.members) {
        if (seen.has(uid)) continue;
        const row = byUid.get(uid) as unknown as Row | undefined;
        if (!row) continue;
        seen.add(uid);
        extra.push({ row, methods: [`dup:${g.id}`] });
      }
    }
  }
  return [...kept, ...extra].map(({ row, methods }) => ({
    unified_id: row.unified_id,
    tier: row.tier,
    kind: row.program_kind,
    prefecture: row.prefecture,
    municipality: row.municipality,
    authority: row.authority_name ?? row.authority_level,
    name: row.primary_name,
    dupGroups: (groupsOf.get(row.unified_id) ?? []).map((g) => g.id),
    methods,
  }));
}

function duplicateGroups(db: DatabaseSync): Map<string, { id: number; members: string[] }[]> {
  const out = new Map<string, { id: number; members: string[] }[]>();
  const rows = db.prepare('SELECT group_id, unified_ids FROM program_duplicates ORDER BY group_id').all() as { group_id: number; unified_ids: string }[];
  for (const r of rows) {
    const members = JSON.parse(r.unified_ids) as string[];
    for (const uid of members) out.set(uid, [...(out.get(uid) ?? []), { id: r.group_id, members }]);
  }
  return out;
}

export function line(c: Candidate): string {
  const place = [c.prefecture, c.municipality].filter(Boolean).join('/') || '-';
  const name = c.name.replace(/\s+/g, ' ');
  const dup = c.dupGroups.length > 0 ? ` [dup ${c.dupGroups.join(',')}]` : '';
  return `${c.unified_id} | ${c.tier} | ${c.kind ?? '-'} | ${place} | ${c.authority ?? '-'} | ${name.length > 60 ? `${name.slice(0, 60)}…` : name}${dup}`;
}

export function parseArgs(argv: string[]): { query: string; options: PoolOptions; json: boolean } {
  const positional: string[] = [];
  const options: PoolOptions = {};
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--pref') options.prefecture = argv[++i];
    else if (a === '--muni') options.municipality = argv[++i];
    else if (a === '--limit') options.limit = Number(argv[++i]);
    else if (a === '--db') options.dbPath = argv[++i];
    else if (a === '--tier') options.tiers = argv[++i].split(',');
    else if (a === '--level') options.authorityLevel = argv[++i];
    else if (a === '--amount-min') options.amountMin = Number(argv[++i]);
    else if (a === '--filter-pref') options.prefectureFilter = argv[++i];
    else if (a === '--flagship') options.flagship = argv[++i].split('|');
    else if (a === '--national') options.national = true;
    else if (a === '--json') json = true;
    else positional.push(a);
  }
  const [query, ...terms] = positional;
  if (!query)
    throw new Error(
      'usage: node scripts/judged-pool.ts "<query>" [term…] [--pref P] [--muni M] [--limit N] [--tier S,A] [--level L] [--amount-min N] [--filter-pref P] [--national] [--flagship a|b] [--json]',
    );
  options.terms = terms;
  return { query, options, json };
}

/** A judged record's pool arguments: a query's `query`, or a profile's `pool_query`, then its `pool` string. */
export interface PooledRecord {
  id: string;
  query?: string;
  pool_query?: string;
  pool?: string;
  judgments: Record<string, number>;
}

/** Split recorded pool arguments the way a shell would: spaces separate, double quotes group. */
export function splitPoolArgs(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

/** Pooled candidates of one record that carry no judgment. */
export function unjudged(record: PooledRecord, dbPath?: string): string[] {
  const { query, options } = parseArgs([record.query ?? record.pool_query ?? '', ...splitPoolArgs(record.pool ?? '')]);
  if (dbPath) options.dbPath = dbPath;
  return pool(query, options)
    .map((c) => c.unified_id)
    .filter((id) => !(id in record.judgments));
}

/**
 * Re-create the pool of every record of a judged-set file (judged queries or
 * judged profiles) and list pooled candidates that carry no judgment.
 */
export function verify(file: string, since = 0): string[] {
  const problems: string[] = [];
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    const record = JSON.parse(text) as PooledRecord;
    if (Number(record.id.slice(3, 6)) < since) continue;
    for (const id of unjudged(record)) problems.push(`${record.id}: ${id} pooled but not judged`);
  }
  return problems;
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  if (argv[0] === '--verify') {
    // --since N: only records numbered N and later (jq-166 on were pooled on the current catalogue).
    const sinceAt = argv.indexOf('--since');
    const since = sinceAt >= 0 ? Number(argv[sinceAt + 1]) : 0;
    const file =
      argv[1] && !argv[1].startsWith('--') ? argv[1] : path.resolve(import.meta.dirname, '..', 'packages', 'api', 'test', 'fixtures', 'judged_queries.jsonl');
    const problems = verify(file, since);
    for (const p of problems) console.log(p);
    console.log(problems.length === 0 ? 'every pooled candidate is judged' : `${problems.length} pooled candidates without a judgment`);
    process.exitCode = problems.length === 0 ? 0 : 1;
  } else {
    const { query, options, json } = parseArgs(argv);
    const candidates = pool(query, options);
    if (json) console.log(JSON.stringify(candidates.map((c) => c.unified_id)));
    else candidates.forEach((c, i) => console.log(`${String(i + 1).padStart(2)} ${line(c)}`));
  }
}
