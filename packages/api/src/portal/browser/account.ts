// The account page. The key typed into the login form is read once, the
// field is emptied at once, and the key goes to POST /v1/session in the
// request body; it is kept in no variable past that call, in no storage, in
// no URL. From then on the HttpOnly session cookie (which scripts cannot
// read) authenticates the /v1/me* calls.
import type { OpenAPI } from '@jp-support/client';
import { api } from './api.ts';
import { byId, el, formatNumber, formatTime, formatYen, label, setLabel, t } from './dom.ts';
import type { LabelKey } from './labels.ts';
import { wireLanguageSwitch } from './language.ts';
import { usageChart } from './usage-chart.ts';

wireLanguageSwitch();

// The API's own types (generated from the OpenAPI document); a type import is erased, so the browser never loads it.
type Session = OpenAPI.GetSessionResponse;
type Dashboard = OpenAPI.GetDashboardResponse;
type Invoice = OpenAPI.BillingInvoice;

const pageStatus = byId('account-status');
const loginSection = byId('login');
const loginForm = byId<HTMLFormElement>('login-form');
const loginKey = byId<HTMLInputElement>('login-key');
const account = byId('account');
const capForm = byId<HTMLFormElement>('cap-form');
const capInput = byId<HTMLInputElement>('cap-input');
const capStatus = byId('cap-status');
const removeCap = byId<HTMLButtonElement>('remove-cap');

function say(target: HTMLElement, key: LabelKey, values: Record<string, string | number> = {}, detail?: string): void {
  // The server's detail is English (error texts are): marked so, in either page language.
  target.replaceChildren(label(key, values), detail ? ' ' : '', detail ? el('span', { lang: 'en' }, detail) : '');
}

function showLogin(): void {
  account.hidden = true;
  loginSection.hidden = false;
  loginKey.focus();
}

// ---- logging in and out -----------------------------------------------------

loginForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const body = { api_key: loginKey.value.trim() };
  loginKey.value = '';
  say(pageStatus, 'loading');
  const result = await api<OpenAPI.CreateSessionResponse>('/v1/session', { method: 'POST', body });
  body.api_key = '';
  if (!result.ok) {
    say(pageStatus, 'failed', {}, result.detail);
    loginKey.focus();
    return;
  }
  pageStatus.replaceChildren();
  await showAccount(result.body);
});

byId('logout').addEventListener('click', async () => {
  const result = await api<OpenAPI.EndSessionResponse>('/v1/session/logout', { method: 'POST' });
  if (!result.ok) {
    say(pageStatus, 'failed', {}, result.detail);
    return;
  }
  for (const id of [
    'key-prefix',
    'key-tier',
    'key-created',
    'session-expires',
    'usage-total',
    'usage-chart',
    'top-endpoints',
    'spend',
    'cap',
    'remaining',
    'invoices',
    'cap-status',
  ])
    byId(id).replaceChildren();
  say(pageStatus, 'loggedOut');
  showLogin();
});

// ---- the account ------------------------------------------------------------

async function showAccount(session: Session): Promise<void> {
  loginSection.hidden = true;
  account.hidden = false;
  byId('session-expires').textContent = formatTime(session.expires_at);
  await Promise.all([loadMe(), loadDashboard(), loadInvoices()]);
}

async function loadMe(): Promise<void> {
  const result = await api<OpenAPI.GetMeResponse>('/v1/me');
  if (!result.ok) return void say(pageStatus, 'failed', {}, result.detail);
  const me = result.body;
  byId('key-prefix').textContent = `${me.key_prefix}…`;
  setLabel(byId('key-tier'), me.tier === 'paid' ? 'tierPaid' : 'tierFree');
  byId('key-created').textContent = formatTime(me.created_at);
}

async function loadDashboard(): Promise<void> {
  const result = await api<Dashboard>('/v1/me/dashboard');
  if (!result.ok) return void say(pageStatus, 'failed', {}, result.detail);
  const d = result.body;
  say(byId('usage-total'), 'usageTotal', { n: formatNumber(d.requests), b: formatNumber(d.billable_requests) });
  const days = monthDays(d.month, d.per_day);
  const chart = byId('usage-chart');
  // Drawn at the width it is shown at, so that its text stays legible on a phone.
  chart.replaceChildren(usageChart(days, `${t('usageTitle')} (${d.month})`, chart.clientWidth));
  byId('usage-table')
    .querySelector('tbody')!
    .replaceChildren(
      ...days
        .filter((day) => day.requests > 0)
        .map((day) => el('tr', {}, el('th', { scope: 'row' }, day.date), el('td', {}, formatNumber(day.requests)), el('td', {}, formatNumber(day.billable)))),
    );
  byId('top-endpoints').replaceChildren(...d.top_endpoints.map((t) => el('li', {}, el('code', {}, t.route), ` ${formatNumber(t.requests)}`)));

  byId('spend').textContent = formatYen(d.spend_yen);
  if (d.cap_yen === null) setLabel(byId('cap'), 'noCap');
  else byId('cap').textContent = formatYen(d.cap_yen);
  byId('remaining').textContent = d.remaining_yen === null ? '—' : formatYen(d.remaining_yen);
  const bar = byId('spend-bar');
  const share = d.cap_yen ? Math.min(1, d.spend_yen / d.cap_yen) : 0;
  (bar.firstElementChild as HTMLElement).style.width = `${Math.round(share * 100)}%`;
  bar.classList.toggle('full', share >= 1);
  bar.setAttribute('aria-label', d.cap_yen === null ? `${formatYen(d.spend_yen)} (${t('noCap')})` : `${formatYen(d.spend_yen)} / ${formatYen(d.cap_yen)}`);
  capInput.value = d.cap_yen === null ? '' : String(d.cap_yen);
  removeCap.disabled = d.cap_yen === null;
}

/** Every day of the (Japan-time) month, the days without calls at zero. */
function monthDays(month: string, perDay: Dashboard['per_day']): Dashboard['per_day'] {
  const [year, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  const byDate = new Map(perDay.map((d) => [d.date, d]));
  return Array.from({ length: last }, (_, i) => {
    const date = `${month}-${String(i + 1).padStart(2, '0')}`;
    return byDate.get(date) ?? { date, requests: 0, billable: 0 };
  });
}

async function loadInvoices(): Promise<void> {
  const target = byId('invoices');
  const result = await api<OpenAPI.GetBillingHistoryResponse>('/v1/me/billing_history');
  if (!result.ok) {
    target.replaceChildren(el('p', {}, label(result.status === 503 ? 'invoicesUnavailable' : 'failed')));
    return;
  }
  const invoices = result.body.invoices.slice(0, 12);
  if (!invoices.length) return void target.replaceChildren(el('p', {}, label('noInvoices')));
  const period = (i: Invoice) => [i.period_start, i.period_end].map((t) => (t ? t.slice(0, 10) : '…')).join(' – ');
  const header = (['invoiceNumber', 'invoicePeriod', 'invoiceAmount', 'invoicePaid', 'invoiceStatus', 'invoiceLink'] as const).map((key) =>
    el('th', { scope: 'col' }, label(key)),
  );
  const rows = invoices.map((i) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row' }, i.number ?? i.id),
      el('td', {}, period(i)),
      el('td', { class: 'num' }, formatYen(i.amount_due_yen)),
      el('td', { class: 'num' }, formatYen(i.amount_paid_yen)),
      el('td', {}, i.status),
      el(
        'td',
        {},
        i.hosted_invoice_url && /^https?:\/\//.test(i.hosted_invoice_url)
          ? el(
              'a',
              { href: i.hosted_invoice_url, rel: 'noopener noreferrer', target: '_blank' },
              label('invoiceLink'),
              el('span', { class: 'visually-hidden' }, ` ${i.number ?? i.id}`),
            )
          : '—',
      ),
    ),
  );
  target.replaceChildren(el('div', { class: 'table-scroll' }, el('table', {}, el('thead', {}, el('tr', {}, ...header)), el('tbody', {}, ...rows))));
}

// ---- the cap ------------------------------------------------------------------

async function setCap(cap: number | null): Promise<void> {
  const result = await api<OpenAPI.SetCapResponse>('/v1/me/cap', { method: 'POST', body: { monthly_cap_yen: cap } });
  if (!result.ok) return void say(capStatus, 'failed', {}, result.detail);
  if (result.body.monthly_cap_yen === null) say(capStatus, 'capRemoved');
  else say(capStatus, 'capSet', { n: formatNumber(result.body.monthly_cap_yen) });
  await loadDashboard();
}

capForm.addEventListener('submit', (event) => {
  event.preventDefault();
  if (!capForm.reportValidity()) return;
  void setCap(Number(capInput.value));
});
removeCap.addEventListener('click', () => void setCap(null));

// ---- start ----------------------------------------------------------------------

const current = await api<Session>('/v1/session');
if (current.ok) await showAccount(current.body);
else if (current.status === 401) showLogin();
else say(pageStatus, 'failed', {}, current.detail);
