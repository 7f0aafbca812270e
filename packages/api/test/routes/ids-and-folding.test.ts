// One id per record and one text fold, across REST and /v1/am
// (docs/record-sets.md, "Ids" and "Text folding"):
// - a loan and a law have one id on both sides; the older forms (LOAN-<n> of
//   /v1/am/loans, a law's bare page slug) still name the record wherever an
//   id is accepted;
// - every search over the record sets and the graph folds katakana to
//   hiragana as programme search does: a query in one script finds a record
//   written in the other, on each record-set search and each /v1/am search.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { build, body } from '../helper.ts';

const ENV = { ANON_DAILY_LIMIT: '1000000' };

async function get(app: FastifyInstance, url: string, status = 200): Promise<any> {
  const res = await app.inject(url);
  assert.equal(res.statusCode, status, `${url} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
  return body(res);
}

const enc = encodeURIComponent;
const KATAKANA_RUN = /[\u30a1-\u30f6ー]{3,}/gu;
const HIRAGANA_RUN = /[\u3041-\u3096ー]{3,}/gu;
const toHiragana = (s: string) => s.replace(/[\u30a1-\u30f6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));
const toKatakana = (s: string) => s.replace(/[\u3041-\u3096]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60));

/** Both directions: a run written in katakana queried in hiragana, and one written in hiragana queried in katakana. */
const DIRECTIONS = [
  { written: 'katakana', run: KATAKANA_RUN, glob: '*[ァ-ヶ][ァ-ヶ][ァ-ヶ]*', other: toHiragana },
  { written: 'hiragana', run: HIRAGANA_RUN, glob: '*[ぁ-ゖ][ぁ-ゖ][ぁ-ゖ]*', other: toKatakana },
] as const;

/**
 * For records whose `text` holds a 3+ character run of one script, the run
 * written in the other script is queried (`find` returns the ids it finds,
 * or null when the query is too common to check); asserts that some such
 * query finds its record and finds exactly what the run as written finds.
 */
async function foldedQueryFinds(
  records: { id: string; text: string }[],
  direction: (typeof DIRECTIONS)[number],
  find: (query: string) => Promise<string[] | null>,
  what: string,
): Promise<void> {
  for (const record of records) {
    for (const [run] of record.text.matchAll(direction.run)) {
      const query = direction.other(run);
      if (query === run) continue;
      const found = await find(query);
      if (found === null || !found.includes(record.id)) continue;
      assert.deepEqual(found, await find(run), `${what}: ${query} and ${run} find the same`);
      return;
    }
  }
  assert.fail(`${what}: no record written in ${direction.written} was found by its words in the other script`);
}

const RECORD_SETS = [
  { name: 'loans', table: 'loans_mutual_aid', id: 'id', text: 'name' },
  { name: 'tax_rulesets', table: 'tax_rulesets', id: 'unified_id', text: 'ruleset_name' },
  { name: 'enforcement', table: 'enforcement', id: 'enforcement_id', text: 'title' },
  { name: 'laws', table: 'laws', id: 'id', text: 'title' },
  { name: 'case_studies', table: 'case_studies', id: 'case_id', text: 'title' },
  { name: 'certifications', table: 'certifications', id: 'unified_id', text: 'name' },
];

test('every record-set search folds katakana and hiragana: a query in one script finds the record written in the other', async (t) => {
  const app = await build(t, ENV);
  for (const set of RECORD_SETS) {
    for (const direction of DIRECTIONS) {
      const records = app.catalog.db.all<{ id: string; text: string }>(
        `SELECT ${set.id} AS id, ${set.text} AS text FROM ${set.table} WHERE ${set.text} GLOB ? ORDER BY row_id LIMIT 40`,
        direction.glob,
      );
      await foldedQueryFinds(
        records,
        direction,
        async (q) => {
          const page = await get(app, `/v1/${set.name}/search?q=${enc(q)}&limit=100`);
          return page.total > 100 ? null : page.results.map((r: Record<string, string>) => String(r[set.id]));
        },
        `/v1/${set.name}/search (${direction.written})`,
      );
    }
  }
});

test('every /v1/am search folds katakana and hiragana as programme search does', async (t) => {
  const app = await build(t, ENV);
  const db = app.catalog.db;
  for (const direction of DIRECTIONS) {
    // loans and mutual plans: the name words (name_query) are the loans set's free text.
    for (const [path, planType] of [
      ['/v1/am/loans', 'loan'],
      ['/v1/am/mutual_plans', 'mutual_aid'],
    ]) {
      const records = db.all<{ id: string; text: string }>(
        'SELECT id, name AS text FROM loans_mutual_aid WHERE plan_type = ? AND name GLOB ? ORDER BY row_id LIMIT 40',
        planType,
        direction.glob,
      );
      await foldedQueryFinds(
        records,
        direction,
        async (q) => {
          const res = await get(app, `${path}?name_query=${enc(q)}&limit=100`);
          return res.total > 100 ? null : res.results.map((r: { id: string }) => r.id);
        },
        `${path} (${direction.written})`,
      );
    }
    // tax_rule: the words of a measure.
    await foldedQueryFinds(
      db.all('SELECT unified_id AS id, ruleset_name AS text FROM tax_rulesets WHERE ruleset_name GLOB ? ORDER BY row_id', direction.glob),
      direction,
      async (q) => (await get(app, `/v1/am/tax_rule?measure_name_or_id=${enc(q)}&limit=100`)).results.map((r: { unified_id: string }) => r.unified_id),
      `/v1/am/tax_rule (${direction.written})`,
    );
    // enforcement: a company name through the enforcement set's free text.
    await foldedQueryFinds(
      db.all('SELECT enforcement_id AS id, title AS text FROM enforcement WHERE title GLOB ? ORDER BY row_id LIMIT 40', direction.glob),
      direction,
      async (q) => {
        const res = await get(app, `/v1/am/enforcement?target_name=${enc(q)}&as_of_date=2026-01-01`);
        return res.all_count > 10 ? null : res.recent_history.map((r: { entity_id: string }) => r.entity_id);
      },
      `/v1/am/enforcement (${direction.written})`,
    );
    // The graph's listings (active_at, open_programs, gx_programs): the words of a program's name.
    const programs = db.all<{ id: string; text: string }>(
      `SELECT entity_id AS id, name AS text FROM am_entities
       WHERE record_kind = 'program' AND valid_until >= '2026-05-01' AND (valid_from IS NULL OR valid_from <= '2026-05-01') AND name GLOB ?
       ORDER BY entity_id LIMIT 40`,
      direction.glob,
    );
    for (const path of ['/v1/am/active_at?date=2026-05-01&kinds=program', '/v1/am/open_programs?pivot_date=2026-05-01']) {
      await foldedQueryFinds(
        programs,
        direction,
        async (q) => {
          const res = await get(app, `${path}&query=${enc(q)}&limit=100`);
          return res.total > 100 ? null : res.results.map((r: { entity_id: string }) => r.entity_id);
        },
        `${path.split('?')[0]} (${direction.written})`,
      );
    }
    const gx = (await get(app, '/v1/am/gx_programs?theme=renewable&limit=100')).results as { entity_id: string; name: string }[];
    await foldedQueryFinds(
      gx.filter((r) => r.name.match(direction.run)).map((r) => ({ id: r.entity_id, text: r.name })),
      direction,
      async (q) => (await get(app, `/v1/am/gx_programs?theme=renewable&query=${enc(q)}&limit=100`)).results.map((r: { entity_id: string }) => r.entity_id),
      `/v1/am/gx_programs (${direction.written})`,
    );
  }
});

test('a loan has one id in REST and /v1/am; LOAN-<loan_id> (the old /v1/am form) still names it', async (t) => {
  const app = await build(t, ENV);
  const jfc = await get(app, `/v1/am/loans?provider=${enc('日本政策金融公庫')}&limit=100`);
  const ids = jfc.results.map((r: { id: string }) => r.id);
  assert.ok(ids.includes('1') && ids.includes('12'), 'the JFC products carry their loan_id as their id');
  assert.ok(!ids.some((id: string) => id.startsWith('LOAN-')));
  // Every id /v1/am/loans publishes is the id GET /v1/loans/{id} takes.
  const page = await get(app, '/v1/am/loans?limit=20');
  for (const row of [...jfc.results, ...page.results]) {
    const rest = await get(app, `/v1/loans/${enc(row.id)}`);
    assert.equal(rest.id, row.id);
    assert.equal(rest.name, row.name);
  }
  // The alias, in the path of the detail (and so of get_loan_program).
  const canonical = await get(app, '/v1/loans/12');
  assert.deepEqual(await get(app, '/v1/loans/LOAN-12'), canonical);
  assert.deepEqual(await get(app, '/v1/loans/loan-12'), canonical);
  assert.equal(canonical.id, '12');
  await get(app, '/v1/loans/LOAN-99999', 404);
  await get(app, '/v1/loans/LOAN-', 404);
});

test('a law has one id in REST and /v1/am (law_id, else LAWSLUG-<slug>); the bare slug still names it', async (t) => {
  const app = await build(t, ENV);
  const slugOnly = app.catalog.db.get<{ law_slug: string }>(
    'SELECT law_slug FROM laws WHERE law_id IS NULL AND articles_included = 1 ORDER BY row_id LIMIT 1',
  ) as { law_slug: string };
  const slug = slugOnly.law_slug;
  const id = `LAWSLUG-${slug}`;

  // REST: the id in the row, and both forms in every path that takes a law.
  const law = await get(app, `/v1/laws/${id}`);
  assert.equal(law.id, id);
  assert.equal(law.law_id, null);
  assert.deepEqual(await get(app, `/v1/laws/${slug}`), law);
  assert.ok(law.article_count > 0);
  const articles = await get(app, `/v1/laws/${id}/articles?limit=1`);
  assert.deepEqual(await get(app, `/v1/laws/${slug}/articles?limit=1`), articles);
  const key = articles.results[0].article_key;
  const article = await get(app, `/v1/laws/${id}/articles/${enc(key)}`);
  assert.deepEqual(await get(app, `/v1/laws/${slug}/articles/${enc(key)}`), article);
  assert.equal((await get(app, '/v1/laws/LAW-1c1831a72e')).id, 'LAW-1c1831a72e');

  // /v1/am: the same id published, both forms accepted in query parameters and paths.
  const number = article.article_label;
  const byId = await get(app, `/v1/am/law_article?law_name_or_canonical_id=${id}&article_number=${enc(number)}`);
  assert.equal(byId.found, true, JSON.stringify(byId.error));
  assert.equal(byId.law.law_id, id);
  assert.equal(byId.text_full, article.text);
  const bySlug = await get(app, `/v1/am/law_article?law_name_or_canonical_id=${slug}&article_number=${enc(number)}`);
  assert.equal(bySlug.article_id, byId.article_id);
  const byLaw = await get(app, `/v1/am/by_law?law_name=${id}`);
  assert.deepEqual((await get(app, `/v1/am/by_law?law_name=${slug}`)).meta, byLaw.meta);
  for (const path of ['related', 'provenance', 'annotations']) {
    const canonical = await get(app, `/v1/am/${path}/${id}`);
    assert.equal(canonical.error, null, `${path}/${id}`);
    const alias = await get(app, `/v1/am/${path}/${slug}`);
    assert.equal(alias.error, null, `${path}/${slug}`);
    if (path === 'related') {
      assert.equal(alias.seed_kind, 'law');
      assert.deepEqual(alias.nodes, canonical.nodes);
    } else assert.deepEqual(alias.results, canonical.results);
  }
  // A program's slug is not an alias of anything.
  const programSlug = app.catalog.db.get<{ key: string }>("SELECT key FROM am_entity_keys WHERE key_kind = 'slug' AND entity_id LIKE 'UNI-%' LIMIT 1");
  assert.equal((await get(app, `/v1/am/related/${enc(programSlug!.key)}`)).error.code, 'seed_not_found');
});

test('one reading of an article number: GET /v1/laws/{id}/articles/{art} and /v1/am/law_article resolve alike', async (t) => {
  const app = await build(t, ENV);
  for (const number of ['第十七条', '17', '17条', '第17条']) {
    const am = await get(app, `/v1/am/law_article?law_name_or_canonical_id=LAW-1c1831a72e&article_number=${enc(number)}`);
    const rest = await get(app, `/v1/laws/LAW-1c1831a72e/articles/${enc(number)}`);
    assert.equal(am.article_id, `LAW-1c1831a72e#${rest.article_key}`, number);
    assert.equal(am.text_full, rest.text, number);
  }
});
