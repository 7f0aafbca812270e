// GET /account: for a key holder. Logged out, a form posts the key once to
// POST /v1/session (browser/account.ts clears the field at once and keeps the
// key nowhere); logged in, the session cookie reads /v1/me, the dashboard and
// the invoices, and sets or removes the monthly cap. The markup holds both
// states; the script shows the one that applies.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { html } from '../html.ts';
import { label, renderPage } from '../layout.ts';

export function accountPage(_app: FastifyInstance, _request: FastifyRequest): string {
  const main = html`
<h1>${label('accountTitle')}</h1>
<p id="account-status" class="status" role="status" aria-live="polite"></p>

<section id="login" class="panel" aria-labelledby="login-title" hidden>
  <h2 id="login-title">${label('loginTitle')}</h2>
  <form id="login-form" method="post" action="/v1/session" autocomplete="off">
    <label for="login-key">${label('apiKey')}</label>
    <input id="login-key" name="api_key" type="password" required minlength="10" maxlength="200" autocomplete="off" spellcheck="false" aria-describedby="login-hint">
    <p id="login-hint" class="hint">${label('loginHint')}</p>
    <button type="submit" class="primary">${label('login')}</button>
  </form>
</section>

<div id="account" class="account" hidden>
  <section class="panel" aria-labelledby="key-title">
    <h2 id="key-title">${label('keyPrefix')}</h2>
    <dl class="facts">
      <div><dt>${label('keyPrefix')}</dt><dd><code id="key-prefix"></code></dd></div>
      <div><dt>${label('keyTier')}</dt><dd id="key-tier"></dd></div>
      <div><dt>${label('keyCreated')}</dt><dd id="key-created"></dd></div>
      <div><dt>${label('sessionExpires')}</dt><dd id="session-expires"></dd></div>
    </dl>
    <button type="button" id="logout">${label('logout')}</button>
  </section>

  <section class="panel" aria-labelledby="spend-title">
    <h2 id="spend-title">${label('spendTitle')}</h2>
    <dl class="facts">
      <div><dt>${label('spend')}</dt><dd id="spend"></dd></div>
      <div><dt>${label('cap')}</dt><dd id="cap"></dd></div>
      <div><dt>${label('remaining')}</dt><dd id="remaining"></dd></div>
    </dl>
    <div id="spend-bar" class="bar" role="img"><span></span></div>
    <form id="cap-form" class="cap-form">
      <label for="cap-input">${label('capInput')}</label>
      <input id="cap-input" name="monthly_cap_yen" type="number" min="1" max="1000000000" step="1" required inputmode="numeric" aria-describedby="cap-hint">
      <button type="submit" class="primary">${label('setCap')}</button>
      <button type="button" id="remove-cap">${label('removeCap')}</button>
    </form>
    <p id="cap-hint" class="hint">${label('capHint')}</p>
    <p id="cap-status" class="status" role="status" aria-live="polite"></p>
  </section>

  <section class="panel wide" aria-labelledby="usage-title">
    <h2 id="usage-title">${label('usageTitle')}</h2>
    <p id="usage-total"></p>
    <div id="usage-chart" class="chart"></div>
    <ul class="legend"><li class="calls">${label('legendCalls')}</li><li class="billable">${label('legendBillable')}</li></ul>
    <details>
      <summary>${label('usageTable')}</summary>
      <table id="usage-table"><thead><tr><th scope="col">${label('date')}</th><th scope="col">${label('calls')}</th><th scope="col">${label('billable')}</th></tr></thead><tbody></tbody></table>
    </details>
    <h3>${label('topEndpoints')}</h3>
    <ol id="top-endpoints" class="top-endpoints"></ol>
  </section>

  <section class="panel wide" aria-labelledby="invoices-title">
    <h2 id="invoices-title">${label('invoicesTitle')}</h2>
    <div id="invoices"></div>
  </section>
</div>
<noscript><p>${label('failed')}</p></noscript>`;
  return renderPage({ page: 'account', title: 'accountTitle', main });
}
