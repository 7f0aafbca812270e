// Advisors: signup (pending until verified), listing (verified only, AdvisorOut
// exactly), the operator CLI, referral tracking, conversion reports with the
// advisor's commission model, and the dashboard bound to the advisor's own key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { build, body } from '../helper.ts';
import { advisorsCommand } from '../../src/cli/advisors.ts';
import { generateApiKey } from '../../src/access/keys.ts';

const ADVISOR_KEYS = [
  'address',
  'city',
  'commission_model',
  'commission_rate_pct',
  'commission_yen_per_intro',
  'contact_email',
  'contact_phone',
  'contact_url',
  'firm_name',
  'firm_name_kana',
  'firm_type',
  'id',
  'industries',
  'intro_blurb',
  'prefecture',
  'specialties',
  'success_count',
  'verified_at',
];

const SIGNUP = {
  firm_name: '山田税理士法人',
  firm_type: '税理士法人',
  specialties: ['事業承継', '補助金申請'],
  prefecture: '東京都',
  contact_email: 'info@yamada-tax.example.jp',
  city: '千代田区',
};

async function setup(t: Parameters<typeof build>[0]) {
  const app = await build(t, { ANON_DAILY_LIMIT: '100000' });
  const config = app.config;
  const run = async (...args: string[]) => {
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const writeErr = process.stderr.write.bind(process.stderr);
    process.stdout.write = ((s: string) => {
      out.push(String(s));
      return true;
    }) as typeof process.stdout.write;
    process.stderr.write = ((s: string) => {
      out.push(String(s));
      return true;
    }) as typeof process.stderr.write;
    try {
      return { code: await advisorsCommand.run(args, config), out: out.join('') };
    } finally {
      process.stdout.write = write;
      process.stderr.write = writeErr;
    }
  };
  return { app, run };
}

async function signup(app: FastifyInstance, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await app.inject({ method: 'POST', url: '/v1/advisors/signup', payload: { ...SIGNUP, ...extra } });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(body(res).status, 'pending');
  return body(res).id;
}

test('signup is validated, pending advisors are not listed, verified ones are, as AdvisorOut exactly', async (t) => {
  const { app, run } = await setup(t);
  for (const bad of [
    { ...SIGNUP, firm_type: '占い師' },
    { ...SIGNUP, prefecture: '東京' },
    { ...SIGNUP, contact_email: 'not-an-email' },
    { ...SIGNUP, specialties: [] },
    { ...SIGNUP, firm_name: '' },
    { ...SIGNUP, stripe_account_id: 'acct_1' },
    { ...SIGNUP, commission_rate_pct: 150 },
    { firm_name: 'x' },
  ]) {
    const res = await app.inject({ method: 'POST', url: '/v1/advisors/signup', payload: bad });
    assert.equal(res.statusCode, 400, JSON.stringify(bad));
    assert.equal(typeof body(res).detail, 'string');
  }
  const id = await signup(app);
  assert.equal(body(await app.inject('/v1/advisors')).total, 0, 'pending advisors are not listed');
  const listed = await run('list');
  assert.match(listed.out, new RegExp(`^${id}\\tpending\\t税理士法人`, 'm'));
  assert.equal((await run('verify', String(id))).code, 0);
  assert.equal((await run('verify', '99999')).code, 1);
  assert.equal((await run('verify', 'abc')).code, 2);
  const page = body(await app.inject('/v1/advisors'));
  assert.equal(page.total, 1);
  assert.deepEqual(Object.keys(page.results[0]).sort(), ADVISOR_KEYS);
  const a = page.results[0];
  assert.equal(a.id, id);
  assert.equal(a.commission_model, 'flat');
  assert.equal(a.commission_rate_pct, 5);
  assert.equal(a.commission_yen_per_intro, 3000);
  assert.equal(a.success_count, 0);
  assert.ok(a.verified_at);
  assert.doesNotMatch(JSON.stringify(page), /stripe|disabled|owner|key_hash/i);

  const other = await signup(app, { firm_name: '大阪診断士事務所', firm_type: '中小企業診断士', prefecture: '大阪府', specialties: ['DX'] });
  await run('verify', String(other));
  const names = async (qs: string) => body(await app.inject(`/v1/advisors?${qs}`)).results.map((r: any) => r.id);
  assert.deepEqual(await names(`prefecture=${encodeURIComponent('大阪府')}`), [other]);
  assert.deepEqual(await names(`firm_type=${encodeURIComponent('税理士法人')}`), [id]);
  assert.deepEqual(await names(`specialty=${encodeURIComponent('事業承継')}`), [id]);
  assert.equal((await app.inject(`/v1/advisors?firm_type=${encodeURIComponent('占い師')}`)).statusCode, 400);
  assert.equal((await app.inject('/v1/advisors?limit=0')).statusCode, 400);
});

test('track issues a token once (stored hashed); report-conversion pays by the commission model; dashboard needs the owner key', async (t) => {
  const { app, run } = await setup(t);
  const flat = await signup(app);
  const percent = await signup(app, { firm_name: '割合法人', commission_model: 'percent', commission_rate_pct: 10 });
  const pending = await signup(app, { firm_name: '未確認' });
  const owner = generateApiKey();
  await app.state.keys.create({ keyHash: owner.hash, prefix: owner.prefix, tier: 'free' } as never);
  const stranger = generateApiKey();
  await app.state.keys.create({ keyHash: stranger.hash, prefix: stranger.prefix, tier: 'free' } as never);
  assert.equal((await run('verify', String(flat), '--owner-key-prefix', owner.prefix)).code, 0);
  const percentOwner = generateApiKey();
  await app.state.keys.create({ keyHash: percentOwner.hash, prefix: percentOwner.prefix, tier: 'free' } as never);
  assert.equal((await run('verify', String(percent), '--owner-key-prefix', 'am_nope')).code, 1);
  assert.equal((await run('verify', String(percent), '--owner-key-prefix', percentOwner.prefix)).code, 0);

  const track = async (advisorId: number, extra: Record<string, unknown> = {}) =>
    app.inject({ method: 'POST', url: '/v1/advisors/track', payload: { advisor_id: advisorId, ...extra } });
  assert.equal((await track(pending)).statusCode, 404, 'unverified advisors take no referrals');
  assert.equal((await track(123456)).statusCode, 404);
  assert.equal((await track(flat, { source_program_id: 'x'.repeat(500) })).statusCode, 400);
  const t1 = body(await track(flat, { source_program_id: 'UNI-00f985541f' }));
  const t2 = body(await track(flat));
  assert.match(t1.token, /^ref_/);
  assert.notEqual(t1.token, t2.token);
  assert.ok(t1.token.startsWith(t1.token_prefix) && t1.token_prefix.length < t1.token.length);
  const stored = await app.state.referrals.findByTokenHash(t1.token);
  assert.equal(stored, null, 'the plaintext token is not what is stored');

  const convert = (token: string, value: number, key: string | null = owner.key) =>
    app.inject({
      method: 'POST',
      url: '/v1/advisors/report-conversion',
      headers: key ? { 'x-api-key': key } : {},
      payload: { token, conversion_value_yen: value },
    });
  // Only the advisor's own key records a conversion (issue 11, finding 8).
  assert.equal((await convert(t1.token, 1_000_000, null)).statusCode, 401, 'anonymous callers cannot record conversions');
  assert.equal((await convert(t1.token, 1_000_000, stranger.key)).statusCode, 403, 'a key bound to no advisor');
  assert.equal((await convert(t1.token, 1_000_000, percentOwner.key)).statusCode, 404, "another advisor's token is unknown to it");
  assert.equal((await convert(t1.token, 1_000_000_000_000)).statusCode, 400, 'the value is bounded');
  const c1 = body(await convert(t1.token, 1_000_000));
  assert.equal(c1.commission_yen, 3000, 'flat model: commission_yen_per_intro');
  assert.equal((await convert(t1.token, 1_000_000)).statusCode, 409, 'a token converts once');
  assert.equal((await convert('ref_unknown_token_xyz', 5)).statusCode, 404);
  assert.equal((await convert(t2.token, -1)).statusCode, 400);
  const tp = body(await track(percent));
  assert.equal(body(await convert(tp.token, 250_000, percentOwner.key)).commission_yen, 25_000, 'percent model: 10 % of the value');

  const dash = (key?: string) => app.inject({ url: `/v1/advisors/${flat}/dashboard`, headers: key ? { 'x-api-key': key } : {} });
  assert.equal((await dash()).statusCode, 401);
  assert.equal((await dash(stranger.key)).statusCode, 404, 'another key cannot see the dashboard');
  assert.equal((await app.inject({ url: `/v1/advisors/${percent}/dashboard`, headers: { 'x-api-key': owner.key } })).statusCode, 404);
  const res = await dash(owner.key);
  assert.equal(res.statusCode, 200, res.body);
  const d = body(res);
  assert.deepEqual(Object.keys(d).sort(), ['advisor', 'referrals', 'summary']);
  assert.deepEqual(d.summary, { clicks: 2, conversions: 1, paid_yen: 0, unpaid_yen: 3000 });
  assert.deepEqual(Object.keys(d.advisor).sort(), ADVISOR_KEYS);
  assert.equal(d.referrals.length, 2);
  const r1 = d.referrals.find((r: any) => r.token_prefix === t1.token_prefix);
  assert.equal(r1.source_program_id, 'UNI-00f985541f');
  assert.equal(r1.conversion_value_yen, 1_000_000);
  assert.doesNotMatch(res.body, new RegExp(t1.token.slice(12)), 'the full token is never shown again');
  assert.equal((await app.inject({ url: '/v1/advisors/abc/dashboard', headers: { 'x-api-key': owner.key } })).statusCode, 400);
});
