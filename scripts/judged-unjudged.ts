// Pool completion for the judged set (packages/api/test/fixtures/judged_queries.jsonl;
// method in judged_queries.md, "Pool completion"): the rows of the current
// engine's first page that carry no judgment, as TREC adds a new run's top
// ten to the pool before scoring it.
//
//   node scripts/judged-unjudged.ts [--since 166] [--json]
//     lists, per query, its need, the judged rows of the page (grade in
//     brackets, to grade alike) and the unjudged ones (`??`) with the
//     record's tier, kind, prefecture, authority level and name, municipality,
//     maximum amount, the official URL's domain and name;
//   node scripts/judged-unjudged.ts --apply grades.txt
//     writes grades into the file: one line per query, `<id> <digits>`, one
//     digit (0–3) per unjudged row in page order, as listed. Refuses a line
//     whose digit count differs from the query's unjudged rows.
//   --profiles: the same for the judged company profiles
//     (judged_profiles.jsonl) and the first pages of POST /v1/programs/match.
//
// A grade is a judgement of the record against the query's `need`, never of
// its rank; grade the held-out queries too (grading is measurement, not
// tuning). Reads the test catalogue through the HTTP API (app.inject), so the
// page is exactly what the evaluation scores.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../packages/api/src/app.ts';
import { loadConfig } from '../packages/api/src/config.ts';
import { Catalog } from '../packages/api/src/catalog/catalog.ts';
import { ensureTestCatalog } from '../packages/api/test/catalog-fixture.ts';
import {
  JUDGED_PROFILES_FILE,
  JUDGED_QUERIES_FILE,
  judgedSearchQuery,
  loadJudgedProfiles,
  loadJudgedQueries,
  type JudgedProfile,
  type JudgedQuery,
} from '../packages/api/test/quality/judged.ts';
import { withMergedRecords } from '../packages/api/test/quality/programme-identity.ts';

interface RecordLine {
  unified_id: string;
  tier: string;
  program_kind: string | null;
  prefecture: string | null;
  authority_level: string | null;
  authority_name: string | null;
  municipality: string | null;
  amount_max_man_yen: number | null;
  official_url: string | null;
  primary_name: string;
}

interface PageRow {
  position: number;
  grade: number | null;
  record: RecordLine;
}

interface ResultRow {
  unified_id: string;
  also_listed_as?: { unified_id: string }[];
}

function domain(url: string | null): string {
  try {
    return url ? new URL(url).hostname : '';
  } catch {
    return '';
  }
}

export function describe(r: RecordLine): string {
  return [
    r.tier,
    r.program_kind ?? '-',
    r.prefecture ?? '-',
    r.authority_level ?? '-',
    r.authority_name ?? '-',
    r.municipality ?? '-',
    r.amount_max_man_yen ?? '-',
    domain(r.official_url),
    r.primary_name,
  ].join('|');
}

/** A judged query (its search) or a judged profile (its match), each with its judgments. */
type Judged = JudgedQuery | JudgedProfile;

async function firstPages(items: Judged[]): Promise<Map<string, PageRow[]>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jpsp-unjudged-'));
  const catalog = new Catalog(await ensureTestCatalog());
  const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, ANON_DAILY_LIMIT: '1000000' }), catalog });
  // match answers the default shape: the records merged into a row come from the catalogue, as its evaluation reads them.
  const merged = withMergedRecords(catalog.db);
  const pages = new Map<string, PageRow[]>();
  try {
    for (const q of items) {
      const res =
        'profile' in q
          ? await app.inject({ method: 'POST', url: '/v1/programs/match', payload: { ...q.profile, limit: 10 } })
          : await app.inject(`/v1/programs/search?${judgedSearchQuery(q.params, 10)}`);
      const answered = (JSON.parse(res.body) as { results: ResultRow[] }).results.slice(0, 10);
      const rows = 'profile' in q ? answered.map(merged) : answered;
      pages.set(
        q.id,
        rows.map((row, i) => {
          const judged = [row.unified_id, ...(row.also_listed_as ?? []).map((a) => a.unified_id)].find((id) => id in q.judgments);
          const record = catalog.db.get<RecordLine>(
            `SELECT unified_id, tier, program_kind, prefecture, authority_level, authority_name, municipality,
                    amount_max_man_yen, official_url, primary_name FROM programs WHERE unified_id = ?`,
            row.unified_id,
          );
          if (!record) throw new Error(`${q.id}: ${row.unified_id} is not in the catalogue`);
          return { position: i + 1, grade: judged === undefined ? null : q.judgments[judged], record };
        }),
      );
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return pages;
}

/** Grades `<id> <digits>` onto the unjudged rows, grade 3 first as the file keeps them. */
export function applyGrades(queries: Judged[], pages: Map<string, PageRow[]>, lines: string[]): { added: number; byGrade: number[] } {
  const byId = new Map(queries.map((q) => [q.id, q]));
  const byGrade = [0, 0, 0, 0];
  let added = 0;
  for (const line of lines.map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'))) {
    const [id, digits] = line.split(/\s+/);
    const q = byId.get(id);
    if (!q || !/^[0-3]+$/.test(digits ?? '')) throw new Error(`bad grade line: ${line}`);
    const unjudged = (pages.get(id) ?? []).filter((r) => r.grade === null);
    if (unjudged.length !== digits.length) throw new Error(`${id}: ${digits.length} grades for ${unjudged.length} unjudged rows`);
    unjudged.forEach((row, i) => {
      const grade = Number(digits[i]) as 0 | 1 | 2 | 3;
      q.judgments[row.record.unified_id] = grade;
      byGrade[grade]++;
      added++;
    });
    q.judgments = Object.fromEntries(Object.entries(q.judgments).sort(([, a], [, b]) => b - a));
  }
  return { added, byGrade };
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const flag = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const since = Number(flag('--since') ?? 0);
  const profiles = argv.includes('--profiles');
  const queries: Judged[] = profiles ? loadJudgedProfiles() : loadJudgedQueries();
  const chosen = queries.filter((q) => Number(q.id.slice(3, 6)) >= since);
  const pages = await firstPages(chosen);
  const gradesFile = flag('--apply');
  if (gradesFile) {
    const { added, byGrade } = applyGrades(queries, pages, readFileSync(gradesFile, 'utf8').split('\n'));
    writeFileSync(profiles ? JUDGED_PROFILES_FILE : JUDGED_QUERIES_FILE, `${queries.map((q) => JSON.stringify(q)).join('\n')}\n`);
    console.log(`${added} judgments added (grade 0/1/2/3: ${byGrade.join(' / ')})`);
  } else if (argv.includes('--json')) {
    console.log(JSON.stringify(Object.fromEntries(pages)));
  } else {
    let unjudged = 0;
    for (const q of chosen) {
      const page = pages.get(q.id) ?? [];
      if (!page.some((r) => r.grade === null)) continue;
      console.log(`\n=== ${q.id}${q.holdout ? ' [held out]' : ''} ${JSON.stringify('profile' in q ? q.profile : q.params)}\n need: ${q.need}`);
      for (const r of page) {
        if (r.grade === null) unjudged++;
        console.log(`  ${r.grade === null ? '??' : `[${r.grade}]`} ${r.position}. ${r.record.unified_id} ${describe(r.record)}`);
      }
    }
    console.log(`\n${unjudged} unjudged rows on the first pages of ${chosen.length} queries`);
  }
}
