// Ranking measures of the programme search on the evaluation sets: the
// upstream gold queries (precision@10 of expected ids) and the judged set
// (nDCG@10 and precision@10 on graded judgments), plus the duplicate rate
// of result pages. Pure functions over what the API returned.
//
// A result row stands for one programme; the records merged into it at
// ingest are listed in `also_listed_as` (full shape). For the gold queries,
// whose expected ids list records (two records of one programme are two
// ids), the first ten rows are read with the ids each stands for: a row
// holding two expected records counts both, as the person finds both on that
// row, but no more than ten ids are ever counted (eval.ts#score). For the
// judged set, a row's grade is the
// best grade of the records it stands for (duplicates carry one grade).

export interface ResultRow {
  unified_id: string;
  also_listed_as?: { unified_id: string }[];
}

/** Record ids in the order a page shows them: each row, then the records collapsed into it. */
export function shownIds(rows: ResultRow[]): string[] {
  return rows.flatMap((r) => [r.unified_id, ...(r.also_listed_as ?? []).map((a) => a.unified_id)]);
}

const log2 = (x: number): number => Math.log(x) / Math.LN2;

/** Grade of a row: the best judged grade of the records it stands for (unjudged = 0). */
export function rowGrade(row: ResultRow, judgments: Record<string, number>): number {
  return Math.max(0, ...[row.unified_id, ...(row.also_listed_as ?? []).map((a) => a.unified_id)].map((id) => judgments[id] ?? 0));
}

/**
 * nDCG@10 with gains 2^grade − 1. The ideal ranking takes the judged grades
 * best first, counting once the records the evaluation knows to be one
 * programme (`sameProgramme`), since a list without duplicates cannot show
 * a programme twice.
 */
export function ndcgAt10(rows: ResultRow[], judgments: Record<string, number>, programmeOf: (id: string) => string): number {
  const gain = (g: number): number => 2 ** g - 1;
  const dcg = rows.slice(0, 10).reduce((sum, row, i) => sum + gain(rowGrade(row, judgments)) / log2(i + 2), 0);
  const best = new Map<string, number>();
  for (const [id, grade] of Object.entries(judgments)) {
    const key = programmeOf(id);
    best.set(key, Math.max(best.get(key) ?? 0, grade));
  }
  const ideal = [...best.values()]
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((sum, g, i) => sum + gain(g) / log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** precision@10 on the judged set: rows of grade ≥ 2 among the first ten, over min(10, programmes of grade ≥ 2). */
export function judgedPrecisionAt10(rows: ResultRow[], judgments: Record<string, number>, programmeOf: (id: string) => string): number | null {
  const relevant = new Set(
    Object.entries(judgments)
      .filter(([, g]) => g >= 2)
      .map(([id]) => programmeOf(id)),
  );
  if (relevant.size === 0) return null;
  const hits = rows.slice(0, 10).filter((row) => rowGrade(row, judgments) >= 2).length;
  return hits / Math.min(10, relevant.size);
}

/**
 * success@1 ("the first result is right"): 1 when the first row is graded
 * 2 or 3 (what the person needs, or clearly relevant and useful), 0 when it
 * is graded 0 or 1, unjudged, or the page is empty. Null for a query with
 * no programme of grade ≥ 2, which no ranking can get right.
 */
export function successAt1(rows: ResultRow[], judgments: Record<string, number>): number | null {
  if (!Object.values(judgments).some((g) => g >= 2)) return null;
  return rows.length > 0 && rowGrade(rows[0], judgments) >= 2 ? 1 : 0;
}

/** Rows among the first ten that show a programme an earlier row of the page already shows. */
export function duplicateRows(rows: ResultRow[], programmeOf: (id: string) => string): number {
  const seen = new Set<string>();
  let dups = 0;
  for (const row of rows.slice(0, 10)) {
    const key = programmeOf(row.unified_id);
    if (seen.has(key)) dups++;
    seen.add(key);
  }
  return dups;
}

export const mean = (values: (number | null)[]): number => {
  const nums = values.filter((v): v is number => v !== null);
  return nums.length === 0 ? 0 : nums.reduce((a, b) => a + b, 0) / nums.length;
};
