// Issue 20's "done when": no default page of common searches shows page
// debris, a non-programme or two records of one programme. The searches: every
// judged query (test/fixtures/judged_queries.jsonl, with its filters) and
// every purpose of the programme vocabulary, as free text and as the purpose
// filter, through the HTTP API; each first page (the default 20 rows, the
// default shape) is read by patterns of its own, not by the classifier's rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PURPOSE_TERMS } from '@jp-support/vocab';
import { body, build, testCatalog } from '../helper.ts';
import { programmeIdentity } from './programme-identity.ts';

interface Row {
  unified_id: string;
  primary_name: string;
  prefecture: string | null;
  municipality: string | null;
  official_url: string | null;
}

/** The page a row links to, compared without scheme, www. or a trailing slash. */
const page = (r: Row): string | null => r.official_url?.replace(/^https?:\/\/(?:www\.)?/iu, '').replace(/\/+$/u, '') ?? null;

/** What a person would not write as a programme's name: the page's furniture and announcements. */
export const DEBRIS: Record<string, RegExp> = {
  announcement:
    /(?:について|お知らせ|の公募について|を募集します|を公募します|を決定しました|決定しました|を開始します|のご案内|を支援します|を実施します)[!！。]?$/u,
  'site title': /ホームページ|ウェブサイト|公式サイト|トップページ|Government|あきたネット|[|｜]/iu,
  breadcrumb: /\s[>＞»]\s|^[^（(]*[＞>][^（(]*[＞>]/u,
  banner: /^【|【[^】]*(?:募集|公募|受付|締切|終了|更新|NEW|new|重要)[^】]*】/u,
};

/** What is not a programme though a page may list it beside them: licences, duties, bodies, documents, calls for tenders. */
export const NOT_A_PROGRAMME: Record<string, RegExp> = {
  permit: /(?:許可|届出|届け出|免許)$/u,
  'counselling desk': /相談窓口$/u,
  handbook: /(?:ハンドブック|ガイドブック|パンフレット)$/u,
  committee: /(?:審議会|協議会|委員会)$/u,
  ordinance: /条例$/u,
  procurement: /公募型プロポーザル|企画提案競技|(?:業務|調査)委託|委託業務|入札/u,
  'survey contract': /調査[・及び]*分析$|調査業務$|調査事業$/u,
};

const JUDGED = readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'judged_queries.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { id: string; params: Record<string, string | number | boolean | string[]> });

function searches(): { label: string; qs: string }[] {
  const out: { label: string; qs: string }[] = [];
  for (const q of JUDGED) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(q.params)) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, String(x));
    out.push({ label: q.id, qs: qs.toString() });
  }
  for (const term of PURPOSE_TERMS) {
    out.push({ label: `q=${term}`, qs: new URLSearchParams({ q: term }).toString() });
    out.push({ label: `funding_purpose=${term}`, qs: new URLSearchParams({ funding_purpose: term }).toString() });
  }
  return out;
}

const compact = (name: string): string =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

test('common searches: no first page shows page debris, a non-programme or two records of one programme', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000000' });
  const same = programmeIdentity((await testCatalog()).db);
  const problems: string[] = [];
  const all = searches();
  for (const { label, qs } of all) {
    const res = await app.inject(`/v1/programs/search?${qs}`);
    assert.equal(res.statusCode, 200, `${label}: ${res.body}`);
    const rows = body<{ results: Row[] }>(res).results;
    for (const r of rows) {
      for (const [what, re] of Object.entries(DEBRIS)) if (re.test(r.primary_name)) problems.push(`${label}: ${what}: ${r.unified_id} ${r.primary_name}`);
      for (const [what, re] of Object.entries(NOT_A_PROGRAMME)) {
        if (re.test(r.primary_name)) problems.push(`${label}: not a programme (${what}): ${r.unified_id} ${r.primary_name}`);
      }
      // One programme: the evaluation's identity, one name on one page, or one name in one place (a missing
      // municipality agrees with any). A national programme and a prefecture's page of it are two places.
      for (const o of rows.slice(0, rows.indexOf(r))) {
        const oneName = compact(o.primary_name) === compact(r.primary_name);
        const onePlace = o.prefecture === r.prefecture && (o.municipality === null || r.municipality === null || o.municipality === r.municipality);
        if (same(o.unified_id) === same(r.unified_id) || (oneName && (onePlace || page(o) === page(r)))) {
          problems.push(`${label}: one programme twice: ${o.unified_id} ${o.primary_name} / ${r.unified_id} ${r.primary_name}`);
        }
      }
    }
  }
  const unique = [...new Set(problems)];
  t.diagnostic(`${all.length} searches, ${unique.length} problems`);
  for (const p of unique) t.diagnostic(p);
  assert.deepEqual(unique, []);
});
