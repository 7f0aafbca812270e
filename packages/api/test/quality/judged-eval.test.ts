// Ranking quality of GET /v1/programs/search on the judged set
// (fixtures/judged_queries.jsonl, graded judgments; method in
// judged_queries.md): nDCG@10, success@1 (first result graded ≥ 2),
// precision@10 (grade ≥ 2 relevant) and the duplicate rate, per category,
// for the tuned and the held-out part, and overall. Fails below the floors
// measured on the bundled data (docs/data.md, "Search quality"). No timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body, testCatalog } from '../helper.ts';
import { type JudgedQuery, judgedSearchQuery, loadJudgedQueries } from './judged.ts';
import { duplicateRows, judgedPrecisionAt10, mean, ndcgAt10, type ResultRow, successAt1 } from './ranking-metrics.ts';
import { programmeIdentity } from './programme-identity.ts';

// The 165 queries of issue 10 (jq-001 … jq-165) keep their floors.
// Measured on them: nDCG@10 0.670, precision@10 0.654, duplicate rate 0 (main before that ranking: 0.403, 0.361, 0.046).
const ORIGINAL_QUERIES = 165;
const MIN_ORIGINAL_NDCG_AT_10 = 0.66;
// 0.63 since one programme is one record (decision 0330): e.g. the seven records of
// 埼玉県中小企業人手不足対応支援事業補助金, judged one by one, are one row (0.644 -> 0.640).
const MIN_ORIGINAL_PRECISION_AT_10 = 0.63;
// The whole set (issue 21: 256 queries), measured when it was judged, before any tuning on it;
// whoever improves ranking raises these. Per part, so that the held-out part cannot sink unnoticed.
// Measured: all 0.486 / 0.582, tuned 0.481 / 0.567, held out 0.498 / 0.618 (nDCG@10 / success@1).
// After needs were read into the vocabulary (decision 0372), tuned on the tuned part only:
// all 0.586 / 0.723, tuned 0.607 / 0.744, held out 0.535 / 0.671; with licences below support and
// the hiring need named by its programmes: all 0.592 / 0.754, tuned 0.616 / 0.778, held out 0.534 / 0.697;
// with a city named without 市 as a place and loans as 貸付: all 0.597 / 0.762, tuned 0.624 / 0.789, held out 0.534 / 0.697.
// Who is asking read from q (askers: a business, an NPO, a farmer) into the fit part, a trade in a sentence that names a
// purpose ranks instead of filtering, abolished or ended measures below running ones, nationwide first 1 -> 1.5 (issue 21):
// all 0.606 / 0.766, tuned 0.635 / 0.794, held out 0.540 / 0.697; with a trade named with 業 also found by its stem
// (水産業 -> 水産), another prefecture's programmes below the nationwide ones when q names a place (-3 -> -6), nationwide
// first 2, スタートアップ also 創業: all 0.613 / 0.770, tuned 0.640 / 0.800, held out 0.547 / 0.697.
// With a programme's importance in the prior (decision 0302, chosen on the tuned part):
// all 0.619 / 0.777, tuned 0.647 / 0.806, held out 0.555 / 0.711.
// A need only an enterprise has (展示会, 事業承継, 賃上げ) read as asked by one, 高効率 a spelling of 省エネ (issue 21):
// all 0.624 / 0.777, tuned 0.651 / 0.806, held out 0.559 / 0.711; with an amount read (500万円くらい), untiered programmes
// tiered at ingest (decision 0303) and programmes named for large companies ranked as another applicant's:
// all 0.630 / 0.805, tuned 0.656 / 0.828, held out 0.568 / 0.750 (condensed nDCG@10 0.658: 0.685 / 0.592); with
// 190 more trades and situations in the needs table, written from how owners speak, not from the set (鉄工所, 電気代を削減,
// hair salon …): all 0.632 / 0.809, tuned 0.656 / 0.828 (no tuned query changes), held out 0.576 / 0.763.
// A sentence's hiragana inflections ranking only, a kind of support found by its kind (融資 finds loans named 資金,
// decision 0374): all 0.633 / 0.809, tuned 0.658 / 0.828, held out 0.575 / 0.763; with programmes for institutions alone
// (universities, students, local governments) ranked as another applicant's when q names nobody:
// all 0.637 / 0.809, tuned 0.659 / 0.828, held out 0.584 / 0.763; with about 50 more situations in the needs table,
// written from how owners speak (お客さんを増やし, 借金, 子育て中の社員 …): all 0.639 / 0.813, tuned unchanged,
// held out 0.590 / 0.776; with spellings a consultant knows (林業 = 間伐, 造林; 鳥獣被害 = 防護柵; EV = CEV; GX = 脱炭素 …)
// and one-way narrower names (賃上げ -> 業務改善助成金): all 0.650 / 0.809, tuned 0.674 / 0.828, held out 0.593 / 0.763;
// with ways of writing one word (障がい, こども) and words of action generic (対策, 導入, 活用 …):
// all 0.652 / 0.813, tuned 0.677 / 0.828, held out 0.592 / 0.776; with English and more situations owners write in the
// needs table (electricity bill, 買い替え, 税金を減らし …; no tuned query changes) on the catalogue of that day:
// all 0.655 / 0.816, tuned 0.679 / 0.833, held out 0.599 / 0.776.
// The pools completed with the 672 unjudged rows of those first pages (judged_queries.md, "Pool completion"; a change of
// measurement, not of ranking): all 0.746 / 0.871, tuned 0.769 / 0.878, held out 0.692 / 0.855. With the rows the
// rules below surface graded too (114 more), before -> after them: tuned 0.767 -> 0.780, held out 0.686 -> 0.698;
// with a place named in q its own programmes relaxed in before other places', nationwide first 2 -> 3, the place 4 -> 6,
// other places -6 -> -10, who asks 1 / -1.5 -> 1.5 / -2.5 (decision 0375): all 0.755 / 0.871, tuned 0.780 / 0.878,
// held out 0.698 / 0.855; with a generic word of q in the name 0.4 -> 1 (decision 0376, 19 more rows graded):
// all 0.759 / 0.887, tuned 0.782 / 0.894, held out 0.706 / 0.868; with English read as the Japanese an owner types,
// a trade typed alone read into its industry's programmes and awards below support (decision 0378, 32 rows graded;
// from main after decision 0319, all 0.758 / 0.887, tuned 0.781 / 0.894, held out 0.703 / 0.868):
// all 0.767 / 0.895, tuned 0.785 / 0.900, held out 0.723 / 0.882. With a business's need ranking programmes for
// farms, forests or fisheries as another trade's when q names no farming (decisions 0383 and 0384, 44 rows graded
// first): all 0.766 / 0.895 -> 0.772 / 0.898, tuned 0.783 / 0.900 -> 0.790 / 0.906, held out 0.725 / 0.882 -> 0.729 / 0.882.
// On 2026-12-04 (decisions 0333–0339, 0389, the hiring spellings; every first-page row graded before the figures of
// the change that brought it): all 0.785 / 0.914 -> 0.793 / 0.914, tuned 0.802 / 0.922 -> 0.810 / 0.922, held out
// 0.744 / 0.895 -> 0.755 / 0.895.
const FLOORS = {
  // 0.77 / 0.79 at all 0.776, tuned 0.793 (decisions 0385, 0386 and 0380); 0.785 / 0.80 at 0.793 / 0.810.
  all: { ndcg: 0.785, success: 0.9 },
  tuned: { ndcg: 0.8, success: 0.91 },
  // 0.52 since one programme is one record (decision 0330): records judged one by one at grade 3 (the seven of
  // 埼玉県中小企業人手不足対応支援事業補助金, jq-075) fill one row, not seven (held-out nDCG@10 0.5297 here); 0.565 at 0.576 (issue 21);
  // 0.575 at 0.584; 0.58 at 0.590 and 0.593; 0.59 at 0.599; 0.685 at 0.692 with the pools completed; 0.69 at 0.698;
  // 0.70 at 0.706; 0.715 at 0.723 (decision 0378); 0.73 at 0.738 (decisions 0379–0381 and 0384; 0.738 without jq-248
  // as well, whose wording guided decision 0380).
  // 0.745 at 0.755 (2026-12-04).
  holdout: { ndcg: 0.745, success: 0.88 },
};

// Per category (both parts), at what issue 21 reached; categories of fewer than ten queries have none.
// Issue 21's goal is success@1 >= 0.6 in every category: every category of ten queries or more reaches it now
// (conversational 0.667, the lowest); abbreviation (two queries) stands at 0.5.
// With the pools completed and decision 0375 (all queries): conversational 0.667 / 0.813, english 0.705 / 0.733,
// industry 0.678 / 0.805, purpose 0.716 / 0.912, place+purpose 0.866 / 0.957, filtered 0.828 / 0.970, nickname 0.932 / 1.
const CATEGORY_FLOORS: Record<string, { ndcg: number; success: number }> = {
  // 0.656 -> 0.669 / 0.792 with decision 0384 (farm programmes below a business's general need).
  conversational: { ndcg: 0.66, success: 0.79 },
  // success@1 0.800 -> 0.733 with nationwide first 3 (decision 0375): restaurant opening support (jq-244) opens with the
  // nationwide 小規模事業者持続化補助金 創業型 (飲食店向け), graded 0 in that query (2 in its Japanese siblings);
  // 0.713 / 0.767 with a generic word in the name 1 (decision 0376); 0.723 / 0.800 with decision 0378 (a held-out
  // query lost its first row, women entrepreneur support (jq-252) gained one with awards below support).
  // 0.720 / 0.800 -> 0.735 / 0.833 with decision 0384; 0.758 / 0.867 with decisions 0379–0381 (jq-248 0.00 -> 0.65 among
  // them, decision 0380: without it 0.762).
  english: { ndcg: 0.74, success: 0.83 },
  // success@1 0.756 -> 0.732 with importance in the prior (decision 0302): クリーニング業 (jq-217) shows
  // 小規模事業者持続化補助金 first, graded below the trade's own loans; the category's nDCG@10 rose to 0.531.
  // 0.687 / 0.854 and 0.731 / 0.941 with a generic word in the name 1 (decision 0376).
  // 0.729 / 0.902 with a trade typed alone read into its industry's programmes (decision 0378).
  industry: { ndcg: 0.72, success: 0.89 },
  // 0.736 -> 0.742 / 0.941 with decision 0384; 0.752 with 費用 and 経費 generic (decision 0385).
  purpose: { ndcg: 0.745, success: 0.92 },
  // 0.711 / 0.936 with places from evidence and canonical programmes (decisions 0312, 0330).
  // 0.728 / 0.936 with other prefectures below nationwide programmes and trades found by their stem (issue 21).
  // 0.747 / 0.957 with programmes named for large companies ranked as another applicant's.
  // 0.771 / 0.936 with spellings a consultant knows (decision 0374): one first row lost (福島県 再生可能エネルギー 導入);
  // 0.782 / 0.957 with words of action generic.
  // 0.866 / 0.957 with the pools completed and the place's programmes first (decision 0375).
  'place+purpose': { ndcg: 0.85, success: 0.95 },
  // 0.706 / 0.818 before places came from evidence (decision 0312): national programmes a contact address
  // had put in one prefecture are nationwide now, and a prefecture filter is exact.
  // With canonical programmes on top (decision 0330): 0.662 / 0.788.
  filtered: { ndcg: 0.81, success: 0.95 },
  // 0.912 -> 0.9097 with spellings a consultant knows (decision 0374): the held-out part 0.892 -> 0.886, the tuned part unchanged (0.920).
  nickname: { ndcg: 0.92, success: 1 },
};

interface Scored {
  q: JudgedQuery;
  ndcg: number;
  success: number | null;
  precision: number | null;
  duplicates: number;
  shown: number;
}

function summary(scored: Scored[]): { ndcg: number; success: number; precision: number; duplicateRate: number } {
  const shown = scored.reduce((s, x) => s + x.shown, 0);
  return {
    ndcg: mean(scored.map((s) => s.ndcg)),
    success: mean(scored.map((s) => s.success)),
    precision: mean(scored.map((s) => s.precision)),
    duplicateRate: scored.reduce((s, x) => s + x.duplicates, 0) / Math.max(1, shown),
  };
}

const line = (label: string, s: ReturnType<typeof summary>, n: number): string =>
  `${label}: nDCG@10=${s.ndcg.toFixed(3)} success@1=${s.success.toFixed(3)} precision@10=${s.precision.toFixed(3)} duplicate rate=${s.duplicateRate.toFixed(3)} over ${n}`;

test('judged set: nDCG@10, success@1, precision@10 and duplicate rate through the HTTP API, tuned and held-out parts', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000000' });
  const db = (await testCatalog()).db;
  // Duplicates by the evaluation's own identity; gains by the programmes the catalogue serves (programme-identity.ts).
  const same = programmeIdentity(db);
  const served = programmeIdentity(db, { servedMerges: true });
  const strict: number[] = [];
  // Condensed nDCG@10 (the page with its unjudged rows left out): how the judged rows are ordered, apart from the pools' gaps.
  const condensed: { holdout: boolean; ndcg: number }[] = [];
  const queries = loadJudgedQueries();
  assert.ok(queries.length >= 250);
  const scored: Scored[] = [];
  for (const q of queries) {
    const res = await app.inject(`/v1/programs/search?${judgedSearchQuery(q.params, 10)}`);
    assert.equal(res.statusCode, 200, `${q.id} answers 200`);
    const rows = body<{ results: ResultRow[] }>(res).results;
    const s: Scored = {
      q,
      ndcg: ndcgAt10(rows, q.judgments, served),
      success: successAt1(rows, q.judgments),
      precision: judgedPrecisionAt10(rows, q.judgments, served),
      duplicates: duplicateRows(rows, same),
      shown: Math.min(10, rows.length),
    };
    scored.push(s);
    strict.push(ndcgAt10(rows, q.judgments, same));
    const judgedRows = rows.filter((r) => [r.unified_id, ...(r.also_listed_as ?? []).map((a) => a.unified_id)].some((id) => id in q.judgments));
    condensed.push({ holdout: q.holdout === true, ndcg: ndcgAt10(judgedRows, q.judgments, served) });
    t.diagnostic(
      `${q.id}${q.holdout ? ' [held out]' : ''}: nDCG@10=${s.ndcg.toFixed(2)} success@1=${s.success ?? 'n/a'} p@10=${s.precision?.toFixed(2) ?? 'n/a'} (${q.query})`,
    );
  }
  const parts = { tuned: scored.filter((s) => !s.q.holdout), holdout: scored.filter((s) => s.q.holdout) };
  for (const category of [...new Set(queries.map((q) => q.category))].sort()) {
    for (const [part, list] of Object.entries(parts)) {
      const inCategory = list.filter((s) => s.q.category === category);
      if (inCategory.length > 0) t.diagnostic(line(`category ${category} (${part})`, summary(inCategory), inCategory.length));
    }
    const all = scored.filter((s) => s.q.category === category);
    t.diagnostic(line(`category ${category} (all)`, summary(all), all.length));
  }
  const results = { all: summary(scored), tuned: summary(parts.tuned), holdout: summary(parts.holdout) };
  t.diagnostic(line('tuned part', results.tuned, parts.tuned.length));
  t.diagnostic(line('held-out part', results.holdout, parts.holdout.length));
  t.diagnostic(line('judged set', results.all, scored.length));
  t.diagnostic(`judged set, strict identity (records merged at ingest still counted apart in the ideal): nDCG@10=${mean(strict).toFixed(3)}`);
  t.diagnostic(
    `judged set, judged rows only (condensed: unjudged rows left out, the pools' gaps apart): nDCG@10=${mean(condensed.map((c) => c.ndcg)).toFixed(3)} (tuned ${mean(
      condensed.filter((c) => !c.holdout).map((c) => c.ndcg),
    ).toFixed(3)}, held out ${mean(condensed.filter((c) => c.holdout).map((c) => c.ndcg)).toFixed(3)})`,
  );
  const original = scored.filter((s) => Number(s.q.id.slice(3, 6)) <= ORIGINAL_QUERIES);
  const originalSummary = summary(original);
  t.diagnostic(line('queries of issue 10', originalSummary, original.length));

  assert.equal(
    scored.reduce((s, x) => s + x.duplicates, 0),
    0,
    'no page shows two rows of one programme',
  );
  assert.ok(originalSummary.ndcg >= MIN_ORIGINAL_NDCG_AT_10, `original queries nDCG@10 ${originalSummary.ndcg.toFixed(3)} >= ${MIN_ORIGINAL_NDCG_AT_10}`);
  assert.ok(
    originalSummary.precision >= MIN_ORIGINAL_PRECISION_AT_10,
    `original queries precision@10 ${originalSummary.precision.toFixed(3)} >= ${MIN_ORIGINAL_PRECISION_AT_10}`,
  );
  for (const [part, floor] of Object.entries(FLOORS) as [keyof typeof FLOORS, { ndcg: number; success: number }][]) {
    assert.ok(results[part].ndcg >= floor.ndcg, `${part} nDCG@10 ${results[part].ndcg.toFixed(3)} >= ${floor.ndcg}`);
    assert.ok(results[part].success >= floor.success, `${part} success@1 ${results[part].success.toFixed(3)} >= ${floor.success}`);
  }
  for (const [category, floor] of Object.entries(CATEGORY_FLOORS)) {
    const m = summary(scored.filter((s) => s.q.category === category));
    assert.ok(m.ndcg >= floor.ndcg, `category ${category} nDCG@10 ${m.ndcg.toFixed(3)} >= ${floor.ndcg}`);
    assert.ok(m.success >= floor.success, `category ${category} success@1 ${m.success.toFixed(3)} >= ${floor.success}`);
  }
});
