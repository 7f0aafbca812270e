// The four pages in a real browser, on a server started as `npm start`
// starts it (over the bundled data, with the local fake of Stripe for
// invoices): load every page at desktop and phone width, run a search, open
// a detail, check programmes for exclusions, log in with a key, set and
// remove the cap, log out. Each step saves a screenshot (test-results/);
// axe-core finds no serious violation; no page shows a raw key, a stack
// trace or SQL, loads anything from another host or breaks its CSP.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runCli, startServer, type Started } from '../../../../bench/lib/processes.ts';
import { ensureTestCatalog } from '../catalog-fixture.ts';
import { FakeStripe } from '../fakes/stripe-server.ts';
import { browserSkip, launchBrowser, leaks, screenshot, seriousViolations, VIEWPORTS, watch } from './browser.ts';

const MUTEX_PAIR = ['UNI-194743d166', 'UNI-76ff1702bc'];

let server: Started;
let stripe: FakeStripe;
let browser: Browser;
let dataDir: string;
let paidKey: string;
let origin: string;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

before(async () => {
  if (browserSkip) return;
  dataDir = mkdtempSync(path.join(tmpdir(), 'jpsp-browser-'));
  const catalog = await ensureTestCatalog();
  try {
    linkSync(catalog, path.join(dataDir, 'catalog.sqlite'));
  } catch {
    copyFileSync(catalog, path.join(dataDir, 'catalog.sqlite'));
  }
  stripe = await new FakeStripe().start();
  const customer = stripe.createCustomer({ email: 'portal@example.jp' });
  stripe.addInvoice(customer.id, { created: Math.floor(Date.now() / 1000) - 40 * 86400, amount_due: 1500, amount_paid: 1500 });
  stripe.addInvoice(customer.id, { created: Math.floor(Date.now() / 1000) - 10 * 86400, amount_due: 2400, amount_paid: 0, status: 'open' });
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    STRIPE_SECRET_KEY: 'sk_test_portal',
    STRIPE_API_BASE: stripe.baseUrl,
    STRIPE_PRICE_ID: 'price_test_metered',
    STRIPE_METER_FLUSH_SECONDS: '0',
  };
  paidKey = runCli(['keys', 'create', '--tier', 'paid', '--customer-id', customer.id], env).trim().split('\n').pop()!;
  server = await startServer(await freePort(), env);
  origin = server.url;
  // Some usage for the account page's chart: five billable searches with the key.
  for (let i = 0; i < 5; i++) {
    const res = await fetch(`${origin}/v1/programs/search?q=補助金&limit=1`, { headers: { 'x-api-key': paidKey } });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  }
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await stripe?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A page at one width, watched; the test fails on anything `watch` saw. */
async function open(viewport: keyof typeof VIEWPORTS, url: string, expectedStatuses: number[] = []) {
  const context: BrowserContext = await browser.newContext({ viewport: VIEWPORTS[viewport], locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
  const page = await context.newPage();
  const watcher = watch(page, origin, expectedStatuses);
  await page.goto(`${origin}${url}`);
  return {
    page,
    context,
    async done() {
      assert.deepEqual(watcher.problems, [], `${url} at ${viewport} width`);
      await context.close();
    },
  };
}

async function assertAccessible(page: Page, what: string): Promise<void> {
  const violations = await seriousViolations(page);
  assert.deepEqual(violations, [], `${what}: serious or critical accessibility violations`);
}

async function assertNoLeaks(page: Page, what: string): Promise<void> {
  assert.deepEqual(await leaks(page, [paidKey]), [], `${what} shows what it must not`);
}

test('landing page: counts from /meta, examples for this server, links to the pages', { skip: browserSkip }, async () => {
  const meta = (await (await fetch(`${origin}/meta`)).json()) as { total_programs: number };
  for (const viewport of ['desktop', 'phone'] as const) {
    const { page, context, done } = await open(viewport, '/');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    assert.equal(await page.title(), '日本の公的支援制度データAPI / Japanese public support programs API');
    await page.getByText(meta.total_programs.toLocaleString('en-US'), { exact: true }).first().waitFor();
    const mcp = JSON.parse(await page.locator('#example-mcp').innerText()) as { mcpServers: Record<string, { env: Record<string, string> }> };
    assert.equal(mcp.mcpServers['jp-support'].env.JPSP_API_BASE_URL, origin, 'the MCP example points at this server');
    assert.match(await page.locator('#example-curl').innerText(), new RegExp(`curl '${origin}/v1/programs/search`));
    for (const href of ['/docs', '/explore', '/account', '/v1/openapi.json']) assert.ok(await page.locator(`a[href="${href}"]`).count(), href);
    await assertAccessible(page, `/ (${viewport})`);
    await assertNoLeaks(page, '/');
    await screenshot(page, `landing-${viewport}`);
    await page.locator('button[data-copy="example-mcp-http"]').click();
    await page.locator('button[data-copy="example-mcp-http"]', { hasText: 'コピーしました' }).waitFor();
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), /"url": ".*\/mcp"/);
    await done();
  }
});

test('docs: Swagger UI from this server, a try-it request with the key field, the key never shown', { skip: browserSkip }, async () => {
  for (const viewport of ['desktop', 'phone'] as const) {
    const { page, done } = await open(viewport, '/docs');
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    assert.ok((await page.locator('.opblock').count()) >= 50, 'every operation is listed');
    await assertAccessible(page, `/docs (${viewport})`);
    await screenshot(page, `docs-${viewport}`);
    if (viewport === 'desktop') {
      await page.locator('#api-key').fill(paidKey);
      await page.locator('#api-key-state', { hasText: 'キー使用中' }).waitFor();
      const ping = page.locator('#operations-meta-ping');
      await ping.locator('.opblock-summary-control').click();
      await ping.locator('button.execute').click();
      const response = ping.locator('.live-responses-table .response-col_description pre').first();
      await response.waitFor({ timeout: 30_000 });
      const answer = JSON.parse(await response.innerText()) as { authenticated: boolean; tier: string };
      assert.deepEqual([answer.authenticated, answer.tier], [true, 'paid'], 'the try-it request carried the key');
      assert.match(await ping.locator('.curl-command').innerText(), /X-API-Key: \$JPSP_API_KEY/, 'curl shows a variable, not the key');
      await assertNoLeaks(page, '/docs after a try-it request');
      await assertAccessible(page, '/docs with an executed operation');
      await ping.locator('.curl-command').scrollIntoViewIfNeeded();
      await screenshot(page, 'docs-try-it-desktop');
    }
    await done();
  }
});

test('explore: search, shareable URL, detail with lineage, exclusion check of two programmes', { skip: browserSkip }, async () => {
  const { page, done } = await open('desktop', '/explore');
  await page.locator('#result-list li').first().waitFor();
  await page.locator('#q').fill('スマート農業');
  await page.locator('input[name="tier"][value="A"]').check();
  await page.locator('#search button[type="submit"]').click();
  await page.waitForURL(/q=%E3%82%B9/);
  await page.locator('#status', { hasText: '件中' }).waitFor();
  const url = new URL(page.url());
  assert.deepEqual([url.searchParams.get('q'), url.searchParams.getAll('tier')], ['スマート農業', ['A']], 'the URL holds the query');
  const names = await page.locator('#result-list button.link').allInnerTexts();
  assert.ok(names.length > 0, 'the search found programmes');

  // Detail: source link and lineage.
  await page.locator('#result-list button.link').first().click();
  const dialog = page.locator('dialog#detail');
  await dialog.locator('.lineage').waitFor();
  assert.equal(await dialog.locator('#detail-title').innerText(), names[0]);
  assert.ok(new URL(page.url()).searchParams.get('id'), 'the open detail is in the URL');
  assert.ok(await dialog.locator('.lineage a[href^="http"]').count(), 'a source link');
  await assertAccessible(page, '/explore with a detail open');
  await screenshot(page, 'explore-detail-desktop');
  await dialog.locator('#detail-close').click();
  await page.waitForURL((u) => !u.searchParams.has('id'));
  assert.equal(await dialog.isVisible(), false);

  // Two programmes from the results, checked for exclusions.
  const boxes = page.locator('#result-list input[data-select]');
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await page.locator('#selection-count', { hasText: '2 件選択中' }).waitFor();
  await page.locator('#check').click();
  await page.locator('#check-result', { hasText: 'ルールを確認し' }).waitFor();
  assert.equal(new URL(page.url()).searchParams.get('sel')?.split(',').length, 2, 'the selection is in the URL');

  // The shared URL of a known mutually exclusive pair restores the selection and reports the rule.
  await page.goto(`${origin}/explore?q=${encodeURIComponent('補助金')}&sel=${MUTEX_PAIR.join(',')}`);
  await page.locator('#selection-list li').nth(1).waitFor();
  await page.locator('#check').click();
  await page.locator('#check-result .hit-mutex').first().waitFor();
  assert.match(await page.locator('#check-result').innerText(), /併給不可/);
  await assertAccessible(page, '/explore with a check result');
  await assertNoLeaks(page, '/explore');
  await page.locator('#results-title').evaluate((heading) => heading.scrollIntoView());
  await screenshot(page, 'explore-desktop');
  await done();

  const phone = await open('phone', `/explore?q=${encodeURIComponent('省エネ')}&sel=${MUTEX_PAIR.join(',')}`);
  await phone.page.locator('#result-list li').first().waitFor();
  await assertAccessible(phone.page, '/explore (phone)');
  await screenshot(phone.page, 'explore-phone');
  await phone.done();
});

test('account: log in with a key, usage and invoices, set and remove the cap, log out; the key is kept nowhere', { skip: browserSkip }, async () => {
  // 401s are expected: the first GET /v1/session (logged out) and the wrong key.
  const { page, context, done } = await open('desktop', '/account', [401]);
  await page.locator('#login-form').waitFor();
  await assertAccessible(page, '/account, logged out');

  await page.locator('#login-key').fill('am_wrongwrongwrongwrongwrongwrongwrong00');
  await page.locator('#login-form button[type="submit"]').click();
  await page.locator('#account-status', { hasText: 'Invalid API key' }).waitFor();
  assert.equal(await page.locator('#login-key').inputValue(), '', 'the field is emptied at once');

  await page.locator('#login-key').fill(paidKey);
  await page.locator('#login-form button[type="submit"]').click();
  await page.locator('#key-prefix', { hasText: paidKey.slice(0, 11) }).waitFor();
  await page.locator('#invoices table').waitFor();
  assert.match(await page.locator('#invoices').innerText(), /FAKE-0001/);
  assert.ok((await page.locator('#usage-chart svg rect.calls').count()) >= 1, 'the chart has a bar');
  assert.match(await page.locator('#usage-total').innerText(), /5 回/);

  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === 'jpsp_session');
  assert.ok(session, 'a session cookie');
  assert.deepEqual([session.httpOnly, session.sameSite, session.path], [true, 'Strict', '/v1']);
  assert.ok(session.expires > Date.now() / 1000, 'it expires');
  assert.ok(!session.value.includes(paidKey));
  const stored = await page.evaluate(() => ({ cookie: document.cookie, local: JSON.stringify(localStorage), session: JSON.stringify(sessionStorage) }));
  assert.deepEqual(stored, { cookie: '', local: '{}', session: '{}' }, 'nothing readable by scripts, nothing stored');

  await page.locator('#cap-input').fill('500');
  await page.locator('#cap-form button[type="submit"]').click();
  await page.locator('#cap-status', { hasText: '500 円' }).waitFor();
  await page.locator('#cap', { hasText: '¥500' }).waitFor();
  await assertAccessible(page, '/account, logged in');
  await assertNoLeaks(page, '/account, logged in');
  await page.evaluate(() => scrollTo(0, 0));
  await screenshot(page, 'account-desktop');
  await page.locator('#remove-cap').click();
  await page.locator('#cap-status', { hasText: '月額上限を外しました' }).waitFor();
  await page.locator('#cap', { hasText: '上限なし' }).waitFor();

  await page.locator('#logout').click();
  await page.locator('#login-form').waitFor();
  await page.locator('#account-status', { hasText: 'ログアウトしました' }).waitFor();
  assert.equal(
    (await context.cookies()).find((c) => c.name === 'jpsp_session'),
    undefined,
    'the cookie is gone',
  );
  assert.equal(await page.evaluate(async () => (await fetch('/v1/me')).status), 401, 'the session has ended');
  await assertNoLeaks(page, '/account, logged out');
  await done();

  const phone = await open('phone', '/account', [401]);
  await phone.page.locator('#login-key').fill(paidKey);
  await phone.page.locator('#login-form button[type="submit"]').click();
  await phone.page.locator('#invoices table').waitFor();
  await assertAccessible(phone.page, '/account (phone)');
  await screenshot(phone.page, 'account-phone');
  await phone.done();
});
