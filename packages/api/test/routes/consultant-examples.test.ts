// The README's examples of issue 21 give first pages a consultant would
// accept: a situation finds the programmes that serve it, English finds
// programmes, a shared noun is not a match, licences do not open an
// industry's page. Through the real app over the bundled dataset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import { build, body } from '../helper.ts';

type Row = { primary_name: string; prefecture: string | null };

const names = async (app: Awaited<ReturnType<typeof build>>, q: string, limit = 5): Promise<string[]> => {
  const res = await app.inject(`/v1/programs/search?${new URLSearchParams({ q, limit: String(limit) })}`);
  assert.equal(res.statusCode, 200, res.body);
  return body<{ results: Row[] }>(res).results.map((r) => r.primary_name);
};

test('situations: 美容院を開きたい finds founding support, 古い機械を入れ替えたい equipment-renewal subsidies', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '10000' });
  const salon = await names(app, '美容院を開きたい');
  // JFC's start-up loan is named スタートアップ支援資金 since 2024 (新規開業・スタートアップ支援資金).
  assert.ok(salon.length > 0 && salon.every((n) => /創業|開業|起業|スタートアップ/.test(n)), salon.join(' / '));
  const machines = await names(app, '古い機械を入れ替えたい');
  assert.ok(
    machines.every((n) => /ものづくり|省力化|設備/.test(n)),
    machines.join(' / '),
  );
});

test('パートを正社員にしたい: キャリアアップ助成金, not what shares the letters パート', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '10000' });
  const page = await names(app, 'パートを正社員にしたい', 10);
  assert.match(page[0], /キャリアアップ/);
  assert.ok(!page.some((n) => /パートナー|エキスパート/.test(n)), page.join(' / '));
});

test('English: solar panel subsidy and hiring subsidy find programmes of the need', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '10000' });
  const solar = await names(app, 'solar panel subsidy');
  // Solar first; the rest solar or the renewable-energy schemes that fund it (再エネ).
  assert.ok(solar.length === 5 && /太陽光/.test(solar[0]) && solar.every((n) => /太陽光|再エネ|再生可能エネルギー/.test(n)), solar.join(' / '));
  const hiring = await names(app, 'hiring subsidy');
  assert.ok(hiring.length === 5 && hiring.every((n) => /雇|採用/.test(n)), hiring.join(' / '));
});

test('自動車整備: support for the trade before its licences and registrations', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '10000' });
  const page = await names(app, '自動車整備', 10);
  assert.ok(!page.slice(0, 5).some((n) => /認証工場|指定工場|資格/.test(n)), page.join(' / '));
});

test("the README's table of first rows holds: each row it names is on its example's first page of five", async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '10000' });
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('| asked | among the first five rows |')).split('\n\n')[0];
  const rows = [...table.matchAll(/^\| (`q=[^|]+`|`match`[^|]*) \| ([^|]+) \|$/gmu)];
  assert.ok(rows.length >= 5, "the README lists its examples' first rows");
  const match = JSON.parse(/programs\/match[^\n]*\n\s*-d '([^']+)'/u.exec(readme)![1]) as Record<string, unknown>;
  for (const [, asked, listed] of rows) {
    let first: string[];
    if (asked.startsWith('`match`')) {
      const res = await app.inject({ method: 'POST', url: '/v1/programs/match', payload: { ...match, limit: 5 } });
      assert.equal(res.statusCode, 200, res.body);
      first = body<{ results: Row[] }>(res).results.map((r) => r.primary_name);
    } else {
      const params = new URLSearchParams(asked.slice(1, -1));
      params.set('limit', '5');
      const res = await app.inject(`/v1/programs/search?${params}`);
      assert.equal(res.statusCode, 200, res.body);
      first = body<{ results: Row[] }>(res).results.map((r) => r.primary_name);
    }
    for (const name of listed.split(' · ').map((n) => n.trim())) assert.ok(first.includes(name), `${asked}: ${name} in ${first.join(' / ')}`);
  }
});
