// GET /account: for a key holder, and for whoever wants a key. Logged out, a
// form posts the key once to POST /v1/session (browser/account.ts clears the
// field at once and keeps the key nowhere); logged in, the session cookie
// reads /v1/me, the dashboard and the invoices, and sets or removes the
// monthly cap. The markup holds both states; the script shows the one that
// applies. How to get a key is said in both.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { html } from '../html.ts';
import { pageText, renderPage } from '../layout.ts';

export function accountPage(app: FastifyInstance, request: FastifyRequest): string {
  const p = pageText(request);
  const payments = app.config.stripeSecretKey !== null && app.config.stripePriceId !== null;
  const main = html`
<h1>${p.t('accountTitle')}</h1>
<p id="account-status" class="status" role="status" aria-live="polite"></p>

<section id="login" class="panel" aria-labelledby="login-title" hidden>
  <h2 id="login-title">${p.t('loginTitle')}</h2>
  <form id="login-form" method="post" action="/v1/session" autocomplete="off">
    <label for="login-key">${p.t('apiKey')}</label>
    <input id="login-key" name="api_key" type="password" required minlength="10" maxlength="200" autocomplete="off" spellcheck="false" aria-describedby="login-hint">
    <p id="login-hint" class="hint">${p.t('loginHint')}</p>
    <button type="submit" class="primary">${p.t('login')}</button>
  </form>
</section>

<section id="get-key" class="panel" aria-labelledby="get-key-title">
  <h2 id="get-key-title">${p.t('getKeyTitle')}</h2>
  <ul class="get-key">
    <li>${payments ? p.rich('getKeyPaid') : p.t('getKeyPaidOff')}</li>
    <li>${p.rich('getKeyFree')}</li>
    <li>${p.rich('getKeyOwn')}</li>
  </ul>
  <p><a href="${p.href('/docs')}">${p.t('navDocs')}</a></p>
</section>

<div id="account" class="account" hidden>
  <section class="panel" aria-labelledby="key-title">
    <h2 id="key-title">${p.t('keyCard')}</h2>
    <dl class="facts">
      <div><dt>${p.t('keyPrefix')}</dt><dd><code id="key-prefix"></code></dd></div>
      <div><dt>${p.t('keyTier')}</dt><dd id="key-tier"></dd></div>
      <div><dt>${p.t('keyCreated')}</dt><dd id="key-created"></dd></div>
      <div><dt>${p.t('sessionExpires')}</dt><dd id="session-expires"></dd></div>
    </dl>
    <button type="button" id="logout">${p.t('logout')}</button>
  </section>

  <section class="panel" aria-labelledby="spend-title">
    <h2 id="spend-title">${p.t('spendTitle')}</h2>
    <dl class="facts">
      <div><dt>${p.t('spend')}</dt><dd id="spend"></dd></div>
      <div><dt>${p.t('cap')}</dt><dd id="cap"></dd></div>
      <div><dt>${p.t('remaining')}</dt><dd id="remaining"></dd></div>
    </dl>
    <div id="spend-bar" class="bar" role="img"><span></span></div>
    <form id="cap-form" class="cap-form">
      <label for="cap-input">${p.t('capInput')}</label>
      <input id="cap-input" name="monthly_cap_yen" type="number" min="1" max="1000000000" step="1" required inputmode="numeric" aria-describedby="cap-hint">
      <button type="submit" class="primary">${p.t('setCap')}</button>
      <button type="button" id="remove-cap">${p.t('removeCap')}</button>
    </form>
    <p id="cap-hint" class="hint">${p.t('capHint')}</p>
    <p id="cap-status" class="status" role="status" aria-live="polite"></p>
  </section>

  <section class="panel wide" aria-labelledby="usage-title">
    <h2 id="usage-title">${p.t('usageTitle')}</h2>
    <p id="usage-total"></p>
    <div id="usage-chart" class="chart"></div>
    <ul class="legend"><li class="calls">${p.t('legendCalls')}</li><li class="billable">${p.t('legendBillable')}</li></ul>
    <details>
      <summary>${p.t('usageTable')}</summary>
      <table id="usage-table"><thead><tr><th scope="col">${p.t('date')}</th><th scope="col">${p.t('calls')}</th><th scope="col">${p.t('billable')}</th></tr></thead><tbody></tbody></table>
    </details>
    <h3>${p.t('topEndpoints')}</h3>
    <ol id="top-endpoints" class="top-endpoints"></ol>
  </section>

  <section class="panel wide" aria-labelledby="invoices-title">
    <h2 id="invoices-title">${p.t('invoicesTitle')}</h2>
    <div id="invoices"></div>
  </section>
</div>
<noscript><p>${p.t('failed')}</p></noscript>`;
  return renderPage({ page: 'account', text: p, title: 'accountTitle', main });
}
