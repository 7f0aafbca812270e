// The four pages in a real browser, on a server started as `npm start`
// starts it (over the bundled data, with the local fake of Stripe for
// invoices), each in Japanese and in English at a desktop's 1366 px and a
// phone's 390 px: what each page must do, that it is wholly in its language
// (data as published aside), that nothing scrolls sideways, a screenshot of
// each (test-results/, or docs/screenshots with SCREENSHOT_DIR). On every
// page: axe-core finds no serious violation; no raw key, stack trace or SQL
// is shown; nothing is loaded from another host; the CSP holds.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../free-port.ts';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runCli, startServer, type Started } from '../../../../bench/lib/processes.ts';
import { placeTestCatalog } from '../catalog-fixture.ts';
import { FakeStripe } from '../fakes/stripe-server.ts';
import { browserSkip, foreignText, horizontalOverflow, launchBrowser, leaks, screenshot, seriousViolations, VIEWPORTS, watch } from './browser.ts';

/** Two programmes one known rule makes mutually exclusive, and two no rule names. */
const MUTEX_PAIR = ['UNI-194743d166', 'UNI-76ff1702bc'];
const UNRULED_PAIR = ['UNI-8442fea547', 'UNI-59b448854f'];
/** The anonymous allowance of the test server: enough for the tests before the last, which uses it up. */
const ANON_LIMIT = 80;
type Lang = 'ja' | 'en';
type Viewport = keyof typeof VIEWPORTS;
const LANGS: Lang[] = ['ja', 'en'];
const WIDTHS: Viewport[] = ['desktop', 'phone'];
/** Names a Japanese page may show as they are (products, protocols, the Swagger UI button it refers to). */
const NAMES = ['Swagger UI', 'Try it out', 'JSON API', 'OpenAPI', 'TypeScript', 'Streamable HTTP', 'API', 'MCP', 'CC BY'];

let server: Started;
let stripe: FakeStripe;
let browser: Browser;
let dataDir: string;
let paidKey: string;
let freeKey: string;
let origin: string;

before(async () => {
  if (browserSkip) return;
  dataDir = mkdtempSync(path.join(tmpdir(), 'jpsp-browser-'));
  await placeTestCatalog(dataDir);
  stripe = await new FakeStripe().start();
  const customer = stripe.createCustomer({ email: 'portal@example.jp' });
  stripe.addInvoice(customer.id, { created: Math.floor(Date.now() / 1000) - 40 * 86400, amount_due: 1500, amount_paid: 1500 });
  stripe.addInvoice(customer.id, { created: Math.floor(Date.now() / 1000) - 10 * 86400, amount_due: 2400, amount_paid: 0, status: 'open' });
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ANON_DAILY_LIMIT: String(ANON_LIMIT),
    STRIPE_SECRET_KEY: 'sk_test_portal',
    STRIPE_API_BASE: stripe.baseUrl,
    STRIPE_PRICE_ID: 'price_test_metered',
    STRIPE_METER_FLUSH_SECONDS: '0',
  };
  paidKey = runCli(['keys', 'create', '--tier', 'paid', '--customer-id', customer.id], env).trim().split('\n').pop()!;
  freeKey = runCli(['keys', 'create', '--tier', 'free'], env).trim().split('\n').pop()!;
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

/**
 * A page at one width, watched; the test fails on anything `watch` saw. The
 * language comes from the browser's (Accept-Language), as a reader's would.
 */
async function open(viewport: Viewport, lang: Lang, url: string, expectedStatuses: number[] = []) {
  const context: BrowserContext = await browser.newContext({
    viewport: VIEWPORTS[viewport],
    locale: lang === 'ja' ? 'ja-JP' : 'en-US',
    timezoneId: 'Asia/Tokyo',
  });
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

const shotName = (name: string, viewport: Viewport, lang: Lang) => `${name}-${viewport}${lang === 'en' ? '-en' : ''}`;

/** What every page must be, whatever it shows: accessible, leak-free, in one language, nothing sideways. */
async function assertPage(page: Page, what: string, lang: Lang, options: { exempt?: string } = {}): Promise<void> {
  assert.equal(await page.evaluate(() => document.documentElement.lang), lang, `${what} is in ${lang}`);
  assert.deepEqual(await seriousViolations(page), [], `${what}: serious or critical accessibility violations`);
  assert.deepEqual(await leaks(page, [paidKey, freeKey]), [], `${what} shows what it must not`);
  assert.deepEqual(await foreignText(page, lang, { allowed: NAMES, exempt: options.exempt }), [], `${what}: text in the other language`);
  assert.deepEqual(await horizontalOverflow(page), [], `${what}: nothing scrolls sideways`);
}

test('landing: counts, examples for this server, in either language by the browser or the switch, at both widths', { skip: browserSkip }, async () => {
  const meta = (await (await fetch(`${origin}/meta`)).json()) as { total_programs: number };
  for (const lang of LANGS) {
    for (const viewport of WIDTHS) {
      const { page, context, done } = await open(viewport, lang, '/');
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
      assert.equal(await page.title(), lang === 'ja' ? '日本の公的支援制度データAPI' : 'Japanese public support programs API');
      await page.getByText(meta.total_programs.toLocaleString('en-US'), { exact: true }).first().waitFor();
      const mcp = JSON.parse(await page.locator('#example-mcp-http').innerText()) as { mcpServers: Record<string, { url: string }> };
      assert.equal(mcp.mcpServers['jp-support'].url, `${origin}/mcp`, 'the MCP example points at this server');
      assert.match(await page.locator('#example-curl').innerText(), new RegExp(`curl '${origin}/v1/programs/search\\?q=スマート農業`));
      assert.match(await page.locator('#example-client').innerText(), /^import \{ JpSupportClient \}/, 'plain JavaScript (example.mjs)');
      for (const href of ['/docs', '/explore', '/account', '/v1/openapi.json']) assert.ok(await page.locator(`a[href="${href}"]`).count(), href);
      await assertPage(page, `/ (${lang}, ${viewport})`, lang);
      await screenshot(page, shotName('landing', viewport, lang));
      await page.locator('button[data-copy="example-mcp-http"]').click();
      await page.locator('button[data-copy="example-mcp-http"]', { hasText: lang === 'ja' ? 'コピーしました' : 'Copied' }).waitFor();
      assert.match(await page.evaluate(() => navigator.clipboard.readText()), /"url": ".*\/mcp"/);
      if (viewport === 'desktop' && lang === 'ja') {
        // The switch: the same page in English, and the navigation keeps the choice.
        await page.locator('#lang-switch').click();
        await page.waitForURL(/\?lang=en$/);
        assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
        assert.equal(await page.locator('#lang-switch').innerText(), '日本語');
        await page.locator('nav a[href="/docs?lang=en"]').click();
        await page.waitForURL(/\/docs\?lang=en$/);
        assert.equal(await page.locator('main > h1').first().innerText(), 'API reference');
      }
      await done();
    }
  }
});

test('docs: groups explained, enums listed, wrapping tables, no empty box, a try-it request whose curl runs as pasted; page weight', {
  skip: browserSkip,
}, async () => {
  for (const lang of LANGS) {
    for (const viewport of WIDTHS) {
      const { page, done } = await open(viewport, lang, '/docs');
      const started = Date.now();
      await page.locator('.opblock-tag').first().waitFor({ timeout: 60_000 });
      const firstGroupMs = Date.now() - started;
      assert.equal(await page.locator('.opblock-tag').count(), 17, 'every group is listed, collapsed');
      const am = page.locator('.opblock-tag-section', { has: page.locator('h3 a span', { hasText: /^am$/ }) });
      assert.match(await am.locator('small').innerText(), lang === 'ja' ? /エンティティグラフ/ : /entity graph/, 'the am group is explained');
      assert.equal(await page.locator('.swagger-ui .scheme-container').isVisible(), false, 'no empty box under the introduction');
      await assertPage(page, `/docs (${lang}, ${viewport})`, lang);
      await screenshot(page, shotName('docs', viewport, lang));

      if (viewport === 'desktop' && lang === 'ja') {
        // Page weight, on the first load of this browser context (nothing cached).
        const weight = await page.evaluate(() =>
          performance.getEntriesByType('resource').reduce(
            (sum, e) => {
              const r = e as PerformanceResourceTiming;
              return { transferred: sum.transferred + r.transferSize, decoded: sum.decoded + r.decodedBodySize };
            },
            { transferred: 0, decoded: 0 },
          ),
        );
        console.log(`# /docs weight: ${weight.transferred} bytes transferred, ${weight.decoded} decoded; first group after ${firstGroupMs} ms on this machine`);
        assert.ok(weight.transferred < 600_000, `transferred ${weight.transferred} bytes`);
      }

      // The programme search: its parameters wrap at this width, and tier lists its values.
      await page.locator('.opblock-tag', { has: page.locator('a span', { hasText: /^programs$/ }) }).click();
      const search = page.locator('#operations-programs-searchPrograms');
      await search.locator('.opblock-summary-control').click();
      await search.locator('table.parameters').waitFor();
      const tier = search.locator('tr[data-param-name="tier"]');
      assert.deepEqual(
        (await tier.locator('select option').allInnerTexts()).filter((o) => o !== '--'),
        ['S', 'A', 'B', 'C', 'X'],
        'tier shows its values',
      );
      assert.deepEqual(await horizontalOverflow(page), [], `/docs (${lang}, ${viewport}) with the search open: nothing scrolls sideways`);
      if (viewport === 'phone') {
        await search.locator('table.parameters').scrollIntoViewIfNeeded();
        await screenshot(page, shotName('docs-parameters', viewport, lang));
      }

      if (viewport === 'desktop' && lang === 'ja') {
        await page.locator('#api-key').fill(paidKey);
        await page.locator('#api-key-state', { hasText: 'キー使用中' }).waitFor();
        await page.locator('.opblock-tag', { has: page.locator('a span', { hasText: /^meta$/ }) }).click();
        const ping = page.locator('#operations-meta-ping');
        await ping.locator('.opblock-summary-control').click();
        await ping.locator('button.execute').click();
        const response = ping.locator('.live-responses-table .response-col_description pre').first();
        await response.waitFor({ timeout: 30_000 });
        const answer = JSON.parse(await response.innerText()) as { authenticated: boolean; tier: string };
        assert.deepEqual([answer.authenticated, answer.tier], [true, 'paid'], 'the try-it request carried the key');
        const curl = await ping.locator('.curl-command pre').innerText();
        assert.match(curl, /"X-API-Key: \$JPSP_API_KEY"/, 'curl shows the variable in double quotes');
        // Pasted into a shell with the variable set, the command works.
        const pasted = execFileSync('bash', ['-c', curl], { env: { PATH: process.env.PATH, JPSP_API_KEY: paidKey }, encoding: 'utf8' });
        assert.equal((JSON.parse(pasted) as { authenticated: boolean }).authenticated, true, 'the pasted curl is authenticated');
        assert.deepEqual(await leaks(page, [paidKey]), [], '/docs after a try-it request');
        assert.deepEqual(await seriousViolations(page), [], '/docs with an executed operation');
        await ping.locator('.curl-command').scrollIntoViewIfNeeded();
        await screenshot(page, 'docs-try-it-desktop');
      }
      await done();
    }
  }
});

test('explore: search, a detail in the reader language with what is not published, an exclusion result that is no green light, suggestions', {
  skip: browserSkip,
}, async () => {
  // 401: the page asks GET /v1/session whether a key is logged in.
  const { page, done } = await open('desktop', 'ja', '/explore', [401]);
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
  assert.match(await page.locator('#caller-status').innerText(), /キーなし.*本日の残り/s, 'whose allowance, and what is left');

  // The detail: every fact labelled, the kind in Japanese, what the catalogue lacks said so.
  await page.locator('#result-list button.link').first().click();
  const dialog = page.locator('dialog#detail');
  await dialog.locator('.lineage').waitFor();
  assert.equal(await dialog.locator('#detail-title').innerText(), names[0]);
  assert.ok(new URL(page.url()).searchParams.get('id'), 'the open detail is in the URL');
  const terms = await dialog.locator('.facts dt').allInnerTexts();
  for (const term of ['種別', '実施機関', '地域', '対象', '目的', '募集期間', '上限額', '補助率']) assert.ok(terms.includes(term), `the detail names ${term}`);
  assert.ok(await dialog.locator('.description h3', { hasText: '概要' }).count(), 'a description, or its absence');
  assert.ok(await dialog.locator('.lineage a[href^="http"]').count(), 'a source link');
  await assertPage(page, '/explore with a detail open', 'ja');
  await screenshot(page, 'explore-detail-desktop');
  await dialog.locator('#detail-close').click();
  await page.waitForURL((u) => !u.searchParams.has('id'));

  // Selecting from the results puts the selection in the URL.
  const boxes = page.locator('#result-list input[data-select]');
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await page.locator('#selection-count', { hasText: '2 件選択中' }).waitFor();
  assert.equal(new URL(page.url()).searchParams.get('sel')?.split(',').length, 2, 'the selection is in the URL');

  // Two programmes no rule names: the answer says what was checked, and that it is no confirmation.
  await page.goto(`${origin}/explore?q=${encodeURIComponent('スマート農業')}&sel=${UNRULED_PAIR.join(',')}`);
  await page.locator('#selection-list li').nth(1).waitFor();
  await page.locator('#check').click();
  const result = page.locator('#check-result p.notice');
  await result.waitFor();
  assert.match(await result.innerText(), /登録済みの \d+ 件のルールを確認し、該当はありませんでした。これは併給できることの確認ではありません/);
  assert.equal(await page.locator('#check-result .ok').count(), 0, 'no green "ok"');

  // The shared URL of a known mutually exclusive pair restores the selection and reports the rule.
  await page.goto(`${origin}/explore?q=${encodeURIComponent('補助金')}&sel=${MUTEX_PAIR.join(',')}`);
  await page.locator('#selection-list li').nth(1).waitFor();
  await page.locator('#check').click();
  await page.locator('#check-result .hit-mutex').first().waitFor();
  assert.match(await page.locator('#check-result').innerText(), /併給不可/);
  await assertPage(page, '/explore with a check result', 'ja');
  await page.locator('#results-title').evaluate((heading) => heading.scrollIntoView());
  await screenshot(page, 'explore-desktop');

  // Nothing matches: what to try, and trying it finds programmes.
  // The form's place is applicable_in (the prefecture's programmes with the nationwide ones).
  await page.goto(`${origin}/explore?q=${encodeURIComponent('ぴよぴよ架空制度')}&applicable_in=${encodeURIComponent('東京都')}`);
  await page.locator('#status', { hasText: '該当する制度はありません' }).waitFor();
  const tries = await page.locator('#suggestions li').allInnerTexts();
  assert.ok(
    tries.some((s) => s.includes('都道府県') && s.includes('東京都')),
    `drop the prefecture: ${tries}`,
  );
  assert.ok(
    tries.some((s) => s.includes('全国')),
    'nationwide programmes',
  );
  assert.ok(
    tries.some((s) => s.includes('補助金')),
    'a broader word',
  );
  await assertPage(page, '/explore with no result', 'ja');
  await screenshot(page, 'explore-no-result-desktop');
  await page.locator('#suggestions a', { hasText: '補助金' }).click();
  await page.locator('#status', { hasText: '件中' }).waitFor();
  assert.deepEqual(
    [new URL(page.url()).searchParams.get('q'), new URL(page.url()).searchParams.get('applicable_in')],
    ['補助金', '東京都'],
    'the broader word, the filters kept',
  );
  await done();

  // In English: the same detail, every label English, the kind through the label table, data as published.
  for (const viewport of WIDTHS) {
    const en = await open(viewport, 'en', `/explore?q=${encodeURIComponent('経営開始資金')}&id=${MUTEX_PAIR[0]}`, [401]);
    const detail = en.page.locator('dialog#detail');
    await detail.locator('.lineage').waitFor();
    const facts = Object.fromEntries(
      await detail
        .locator('.facts > div')
        .evaluateAll((rows) => rows.map((row) => [row.querySelector('dt')?.textContent, row.querySelector('dd')?.textContent])),
    );
    assert.equal(facts.Kind, 'Subsidy', 'program_kind subsidy through the label table');
    assert.equal(facts['Application window'], 'not published', 'an absent window says so');
    assert.equal(facts.Place, 'Nationwide');
    await assertPage(en.page, `/explore detail (en, ${viewport})`, 'en');
    await screenshot(en.page, shotName('explore-detail', viewport, 'en'));
    await en.page.locator('#detail-close').click();
    await en.page.locator('#result-list li').first().waitFor();
    await assertPage(en.page, `/explore (en, ${viewport})`, 'en');
    await screenshot(en.page, shotName('explore', viewport, 'en'));
    await en.done();
  }
  const phone = await open('phone', 'ja', `/explore?q=${encodeURIComponent('省エネ')}&sel=${MUTEX_PAIR.join(',')}`, [401]);
  await phone.page.locator('#result-list li').first().waitFor();
  await assertPage(phone.page, '/explore (ja, phone)', 'ja');
  await screenshot(phone.page, 'explore-phone');
  await phone.page.locator('#result-list button.link').first().click();
  await phone.page.locator('dialog#detail .lineage').waitFor();
  await screenshot(phone.page, 'explore-detail-phone');
  await phone.done();
});

/** The key card's dates keep to one line at this width, and the chart is drawn at the width it is shown. */
async function assertAccountLayout(page: Page, what: string): Promise<void> {
  for (const id of ['key-created', 'session-expires', 'key-prefix']) {
    const lines = await page
      .locator(`#${id}`)
      .evaluate((dd) => Math.round(dd.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(dd).lineHeight)));
    assert.equal(lines, 1, `${what}: #${id} on one line`);
  }
  const chart = await page.locator('#usage-chart svg').evaluate((svg) => ({
    shown: Math.round(svg.getBoundingClientRect().width),
    drawn: Number(svg.getAttribute('viewBox')?.split(' ')[2]),
  }));
  assert.ok(Math.abs(chart.shown - chart.drawn) <= 2, `${what}: the chart is drawn at its shown width (${JSON.stringify(chart)})`);
}

test('account: how to get a key; log in, usage and invoices, set and remove the cap, log out; key card and chart at both widths; the key kept nowhere', {
  skip: browserSkip,
}, async () => {
  // 401s are expected: the first GET /v1/session (logged out) and the wrong key.
  const { page, context, done } = await open('desktop', 'ja', '/account', [401]);
  await page.locator('#login-form').waitFor();
  assert.match(await page.locator('#get-key').innerText(), /APIキーの入手方法[\s\S]*\/v1\/billing\/checkout[\s\S]*keys create/, 'how to get a key');
  await assertPage(page, '/account, logged out', 'ja');
  await screenshot(page, 'account-logged-out-desktop');

  await page.locator('#login-key').fill('am_wrongwrongwrongwrongwrongwrongwrong00');
  await page.locator('#login-form button[type="submit"]').click();
  await page.locator('#account-status', { hasText: 'Invalid API key' }).waitFor();
  assert.equal(await page.locator('#login-key').inputValue(), '', 'the field is emptied at once');

  await page.locator('#login-key').fill(paidKey);
  await page.locator('#login-form button[type="submit"]').click();
  await page.locator('#key-prefix', { hasText: paidKey.slice(0, 11) }).waitFor();
  await page.locator('#invoices table').waitFor();
  assert.match(await page.locator('#invoices').innerText(), /FAKE-0001/);
  // The dashboard, the key and the invoices load side by side: wait for the chart itself.
  await page.locator('#usage-chart svg').waitFor();
  const bars = await page.locator('#usage-chart svg rect.calls').evaluateAll((rects) => rects.filter((r) => Number(r.getAttribute('height')) > 0).length);
  assert.ok(bars >= 1, 'the chart has a bar');
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
  await assertPage(page, '/account, logged in', 'ja');
  await assertAccountLayout(page, '/account (desktop)');
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
  await done();

  for (const lang of LANGS) {
    for (const viewport of WIDTHS) {
      if (lang === 'ja' && viewport === 'desktop') continue;
      const other = await open(viewport, lang, '/account', [401]);
      await other.page.locator('#login-key').fill(paidKey);
      await other.page.locator('#login-form button[type="submit"]').click();
      await other.page.locator('#invoices table').waitFor();
      await other.page.locator('#usage-chart svg').waitFor();
      await assertPage(other.page, `/account (${lang}, ${viewport})`, lang);
      await assertAccountLayout(other.page, `/account (${lang}, ${viewport})`);
      await screenshot(other.page, shotName('account', viewport, lang));
      await other.done();
    }
  }
});

test('explore keeps working past the anonymous allowance: with the logged-in session, or a key entered on the page', { skip: browserSkip }, async () => {
  // Use up this address's anonymous allowance.
  for (let i = 0; i <= ANON_LIMIT; i++) {
    const res = await fetch(`${origin}/meta`);
    await res.arrayBuffer();
    if (res.status === 429) break;
  }
  const used = await fetch(`${origin}/meta`);
  assert.equal(used.status, 429, 'the anonymous allowance is used up');

  // Anonymous: the page says the allowance is used up and offers a key.
  const anonymous = await open('desktop', 'en', '/explore?q=%E8%A3%9C%E5%8A%A9%E9%87%91', [401, 429]);
  await anonymous.page.locator('#status .error', { hasText: 'daily allowance is used up' }).waitFor();
  assert.equal(await anonymous.page.locator('#key-box').getAttribute('open'), '', 'the key box opens');
  await screenshot(anonymous.page, 'explore-limit-desktop-en');
  // A key entered on the page: the searches use it.
  await anonymous.page.locator('#explore-key').fill(freeKey);
  await anonymous.page.locator('#explore-key').press('Enter');
  await anonymous.page.locator('#search button[type="submit"]').click();
  await anonymous.page.locator('#status', { hasText: /of [\d,]+/ }).waitFor();
  assert.match(await anonymous.page.locator('#caller-status').innerText(), /key entered here.*Left today: \d+/s);
  assert.deepEqual(await leaks(anonymous.page, [freeKey]), [], 'the entered key is not shown');
  await anonymous.done();

  // Logged in on the account page: the explore page's searches use the session's key.
  const { page, done } = await open('phone', 'ja', '/account', [401]);
  await page.locator('#login-key').fill(paidKey);
  await page.locator('#login-form button[type="submit"]').click();
  await page.locator('#key-prefix', { hasText: paidKey.slice(0, 11) }).waitFor();
  await page.goto(`${origin}/explore?q=${encodeURIComponent('補助金')}`);
  await page.locator('#status', { hasText: '件中' }).waitFor();
  // The session and the first search are asked for side by side; either may answer first.
  await page.locator('#caller-status', { hasText: new RegExp(`ログイン中のキー ${paidKey.slice(0, 11)}…`) }).waitFor();
  for (let i = 0; i < 3; i++) {
    await page.locator('#next').click();
    await page.locator('#status', { hasText: `${20 * (i + 1) + 1}–` }).waitFor();
  }
  await page.locator('#result-list button.link').first().click();
  await page.locator('dialog#detail .lineage').waitFor();
  await assertPage(page, '/explore logged in, past the anonymous allowance', 'ja');
  await screenshot(page, 'explore-session-phone');
  await done();
});
