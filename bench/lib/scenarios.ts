// The benchmark's workloads, built deterministically from the catalogue and
// the gold queries so every run sends the same requests:
// - detail: GET /v1/programs/{id} over 8 ids;
// - search-mix: 50+ realistic searches (the gold queries plus common terms,
//   with filters, shapes and paging);
// - long-tail: 2,500 distinct searches drawn from programme names (no cache
//   can hold them all, and each is sent once per 2,500 requests);
// - batch-50, exclusion check, MCP tools/call search_programs over /mcp;
// - the same detail + search traffic anonymously and with a free key.
import { DatabaseSync } from 'node:sqlite';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchRequest } from './recording.ts';
import { REPO_ROOT } from './processes.ts';
import { prng } from './random.ts';

export interface Scenario {
  name: string;
  /** What the scenario stands for, for the report. */
  about: string;
  requests: BenchRequest[];
  /** Target ratio of req/s to the bare replay (paid scenarios of the speed issue). */
  target?: { rps?: number; p99Times?: number };
}

type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

export function searchPath(query: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
  }
  const qs = params.toString();
  return `/v1/programs/search${qs ? `?${qs}` : ''}`;
}

const COMMON_TERMS = [
  '補助金',
  'IT導入',
  '省エネ',
  '新規就農',
  '事業承継',
  '創業',
  'スマート農業',
  '設備投資',
  '賃上げ',
  'DX',
  '観光',
  '輸出',
  '研究開発',
  '空き家',
  '子育て',
  '防災',
  '再生可能エネルギー',
  '人材育成',
  '販路開拓',
  '商店街',
];
const PREFECTURES = ['東京都', '北海道', '大阪府', '福岡県', '愛知県', '長野県'];

/** The gold queries of `search_programs` as REST query strings. */
function goldSearches(): Query[] {
  const file = path.join(REPO_ROOT, 'packages', 'api', 'test', 'fixtures', 'eval_queries.jsonl');
  const out: Query[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const g = JSON.parse(line) as { tool_name: string; tool_args: Record<string, unknown> };
    if (g.tool_name !== 'search_programs') continue;
    const a = g.tool_args;
    out.push({
      q: a.q as string | undefined,
      tier: a.tier as string[] | undefined,
      prefecture: a.prefecture as string | undefined,
      authority_level: a.authority_level as string | undefined,
      funding_purpose: a.funding_purpose as string[] | undefined,
      amount_max: a.amount_max_man_yen as number | undefined,
      limit: a.limit as number | undefined,
      fields: a.fields as string | undefined,
    });
  }
  return out;
}

/** 50+ searches a person would send: gold queries, common terms with filters, shapes and pages. */
export function searchMix(): Query[] {
  const mix: Query[] = goldSearches();
  COMMON_TERMS.forEach((q, i) => {
    mix.push({
      q,
      ...(i % 3 === 0 ? { tier: ['S', 'A'] } : {}),
      ...(i % 4 === 1 ? { prefecture: PREFECTURES[i % PREFECTURES.length] } : {}),
      ...(i % 5 === 2 ? { amount_min: 100 } : {}),
      fields: (['minimal', 'default', 'full'] as const)[i % 3],
      limit: [10, 20, 50][i % 3],
      offset: i % 4 === 3 ? 20 : 0,
    });
  });
  // Browsing without free text: filters and pages only.
  for (const prefecture of PREFECTURES) mix.push({ prefecture, tier: ['S', 'A', 'B'], limit: 20, fields: 'minimal' });
  mix.push({ authority_level: 'national', limit: 20 }, { tier: ['S'], limit: 50, offset: 0 }, { limit: 20, offset: 100 });
  return mix;
}

/** Characters that do not make a sensible search term on their own. */
const NOT_TERM = /[\s・、。「」『』（）()【】［］[\]｜|／/:：,，.．\-－ー〜~!！?？"'’”]/u;

/** `count` distinct searches drawn from programme names, with filters on some. */
export function longTail(db: DatabaseSync, count: number): Query[] {
  const names = db.prepare("SELECT primary_name, prefecture, tier FROM programs WHERE tier <> 'X' ORDER BY pid").all() as {
    primary_name: string;
    prefecture: string | null;
    tier: string;
  }[];
  const random = prng(20261123);
  const seen = new Set<string>();
  const out: Query[] = [];
  let guard = 0;
  while (out.length < count && guard++ < count * 50) {
    const row = names[Math.floor(random() * names.length)];
    const chars = [...row.primary_name];
    const len = 2 + Math.floor(random() * 5);
    if (chars.length < len) continue;
    const start = Math.floor(random() * (chars.length - len + 1));
    const term = chars.slice(start, start + len).join('');
    if (NOT_TERM.test(term)) continue;
    const r = random();
    const query: Query = { q: term };
    if (r < 0.2 && row.prefecture) query.prefecture = row.prefecture;
    else if (r < 0.35) query.tier = ['S', 'A', 'B'];
    if (random() < 0.3) query.fields = 'minimal';
    if (random() < 0.15) query.offset = 20;
    const key = searchPath(query);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(query);
  }
  if (out.length < count) throw new Error(`long tail: only ${out.length} distinct searches`);
  return out;
}

export interface Keys {
  paid: string;
  free: string;
}

export function buildScenarios(catalogFile: string, keys: Keys, longTailCount: number): Scenario[] {
  const db = new DatabaseSync(catalogFile, { readOnly: true });
  try {
    const ids = (db.prepare("SELECT unified_id FROM programs WHERE tier IN ('S','A') ORDER BY pid LIMIT 58").all() as { unified_id: string }[]).map(
      (r) => r.unified_id,
    );
    const rules = db.prepare('SELECT program_a, program_b FROM exclusion_rules WHERE program_a IS NOT NULL AND program_b IS NOT NULL LIMIT 4').all() as {
      program_a: string;
      program_b: string;
    }[];
    const paid = { 'x-api-key': keys.paid };
    const free = { 'x-api-key': keys.free };
    const json = { 'content-type': 'application/json' };
    const get = (p: string, headers: Record<string, string>): BenchRequest => ({ method: 'GET', path: p, body: null, headers });
    const post = (p: string, body: unknown, headers: Record<string, string>): BenchRequest => ({
      method: 'POST',
      path: p,
      body: JSON.stringify(body),
      headers: { ...json, ...headers },
    });

    const detailIds = ids.slice(0, 8);
    const details = (h: Record<string, string>) => detailIds.map((id) => get(`/v1/programs/${id}`, h));
    const mix = searchMix();
    const searches = (h: Record<string, string>, queries: Query[]) => queries.map((q) => get(searchPath(q), h));
    const mcpArgs = COMMON_TERMS.slice(0, 8).map((q, i) => ({ q, limit: 10, ...(i % 2 ? { tier: ['S', 'A'] } : {}) }));
    const mcpHeaders = { ...paid, accept: 'application/json, text/event-stream' };

    return [
      {
        name: 'detail',
        about: 'GET /v1/programs/{id}, 8 ids, paid key',
        requests: details(paid),
        target: { rps: 0.6 },
      },
      {
        name: 'search-mix',
        about: `${mix.length} realistic searches (gold queries, common terms, filters, shapes, paging), paid key`,
        requests: searches(paid, mix),
        target: { rps: 0.5, p99Times: 3 },
      },
      {
        name: 'long-tail',
        about: `${longTailCount} distinct searches from programme names, paid key`,
        requests: searches(paid, longTail(db, longTailCount)),
        target: { rps: 0.2 },
      },
      {
        name: 'batch-50',
        about: 'POST /v1/programs/batch with 50 ids, paid key',
        requests: [post('/v1/programs/batch', { unified_ids: ids.slice(0, 50) }, paid)],
      },
      {
        name: 'exclusion-check',
        about: 'POST /v1/exclusions/check, pairs from the rules, paid key',
        requests: rules.map((r, i) => post('/v1/exclusions/check', { program_ids: [r.program_a, r.program_b, ids[i]] }, paid)),
      },
      {
        name: 'mcp-search',
        about: 'POST /mcp tools/call search_programs, paid key',
        requests: mcpArgs.map((args, i) =>
          post('/mcp', { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'search_programs', arguments: args } }, mcpHeaders),
        ),
        target: { rps: 0.3 },
      },
      {
        name: 'anonymous',
        about: 'detail + 20 searches of the mix, no key',
        requests: [...details({}), ...searches({}, mix.slice(0, 20))],
      },
      {
        name: 'free-key',
        about: 'detail + 20 searches of the mix, free key',
        requests: [...details(free), ...searches(free, mix.slice(0, 20))],
      },
    ];
  } finally {
    db.close();
  }
}
