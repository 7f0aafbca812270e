// The explore page: searches /v1/programs/search from the state in the URL,
// pages through results (and says what to try when nothing matches), opens
// a programme's detail in a dialog, and checks the selected programmes
// against the exclusion rules. Every change of the search is a new history
// entry, so Back and a shared link both restore it.
//
// Whose allowance: a key typed into the key box (kept in this module's
// memory only, sent as X-API-Key); else the session cookie of a login on the
// account page, which the programme routes accept from this server's own
// pages (their `session: 'pages'` declaration); else the address's anonymous
// allowance.
import type { OpenAPI } from '@jp-support/client';
import { api, type ApiResult } from './api.ts';
import { byId, el, externalLink, formatNumber, formatTime, label, setLabel, t } from './dom.ts';
import { LABELS, PARAMETER_LABELS, type LabelKey } from './labels.ts';
import { keepLanguage, LANG, wireLanguageSwitch } from './language.ts';
import { anyFilterSet, PAGE_SIZE, paramsFromState, searchPath, stateFromParams, type FormField, type SearchState } from './search-query.ts';
import { AUDIENCES, PROGRAM_KINDS, PURPOSES, valueLabel } from './value-labels.ts';

// The API's own types (generated from the OpenAPI document); a type import is erased, so the browser never loads it.
// A search row (the default shape; one row per programme).
type Program = OpenAPI.ProgramHit;
type ProgramDetail = OpenAPI.ProgramDetail;
/** A search page in the default row shape (the one `searchPath` asks for). */
type SearchPage = Omit<OpenAPI.SearchProgramsResponse, 'results'> & { results: Program[] };

wireLanguageSwitch();

const form = byId<HTMLFormElement>('search');
/** The form's fields, as the server rendered them from the search's parameter table (pages/explore.ts). */
const fields = JSON.parse(form.dataset.fields ?? '[]') as FormField[];
const suggestions = byId('suggestions');
const callerStatus = byId('caller-status');
const keyInput = byId<HTMLInputElement>('explore-key');
const keyBox = byId<HTMLDetailsElement>('key-box');
const filters = byId<HTMLDetailsElement>('filters');
const status = byId('status');
const list = byId('result-list');
const prev = byId<HTMLButtonElement>('prev');
const next = byId<HTMLButtonElement>('next');
const dialog = byId<HTMLDialogElement>('detail');
const detailTitle = byId('detail-title');
const detailBody = byId('detail-body');
const selectionList = byId('selection-list');
const selectionCount = byId('selection-count');
const checkButton = byId<HTMLButtonElement>('check');
const clearButton = byId<HTMLButtonElement>('clear-selection');
const checkResult = byId('check-result');

let state: SearchState = stateFromParams(new URLSearchParams(location.search), fields);
/** Selected programmes: id -> name (the name is filled in once known). */
const selected = new Map<string, string>(state.sel.map((id) => [id, id]));
let lastResults: Program[] = [];
let searchSeq = 0;
/** The logged-in session's key, when there is one (GET /v1/session). */
let session: { prefix: string; tier: string } | null = null;
/** What the last search's answer said is left today (null before one, or after the key changed). */
let remainingToday: number | null = null;

// ---- whose allowance ----------------------------------------------------------

/** The entered key as a header, when there is one (it wins over the session cookie). */
function keyHeaders(): Record<string, string> {
  const key = keyInput.value.trim();
  return key ? { 'X-API-Key': key } : {};
}

/** Say whose allowance the searches use, and what is left of it when the last answer said. */
function showCaller(remaining: number | null = null): void {
  const parts: Node[] = [];
  if (keyInput.value.trim()) parts.push(label('callerKey'));
  else if (session) parts.push(label('callerSession', { prefix: session.prefix, plan: t(session.tier === 'paid' ? 'tierPaid' : 'tierFree') }));
  else parts.push(label('callerAnonymous', { n: Number(callerStatus.dataset.anonLimit ?? 100) }));
  if (remaining !== null) parts.push(document.createTextNode(' '), label('remainingToday', { n: formatNumber(remaining) }));
  callerStatus.replaceChildren(...parts);
}

async function loadSession(): Promise<void> {
  const result = await api<OpenAPI.GetSessionResponse>('/v1/session');
  session = result.ok ? { prefix: result.body.key_prefix, tier: result.body.tier } : null;
  byId('caller-login').hidden = session !== null;
  // The first search may have answered before the session did: keep what it said is left.
  showCaller(remainingToday);
}

keyInput.addEventListener('input', () => {
  remainingToday = null;
  showCaller();
});
keyInput.addEventListener('change', () => void search());

// ---- URL <-> state --------------------------------------------------------

function writeUrl(mode: 'push' | 'replace'): void {
  state.sel = [...selected.keys()];
  const query = keepLanguage(paramsFromState(state, fields)).toString();
  const url = `${location.pathname}${query ? `?${query}` : ''}`;
  if (url === `${location.pathname}${location.search}`) return;
  if (mode === 'push') history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

function fillForm(): void {
  for (const field of fields) {
    const values = state.values[field.name] ?? [];
    if (field.multiple) {
      for (const box of form.querySelectorAll<HTMLInputElement>(`input[name="${field.name}"]`)) box.checked = values.includes(box.value);
    } else (form.elements.namedItem(field.name) as HTMLInputElement | HTMLSelectElement).value = values[0] ?? '';
  }
  // The filters fold away on a phone, unless some are set.
  filters.open = matchMedia('(min-width: 700px)').matches || anyFilterSet(state, fields);
}

function stateFromForm(): SearchState {
  return { ...stateFromParams(new URLSearchParams(new FormData(form) as unknown as Record<string, string>), fields), offset: 0, id: '', sel: state.sel };
}

// ---- messages -------------------------------------------------------------

/** A value as the sources publish it (a name, an authority, a place): not the page's language, never translated. */
const data = (value: Node | string): HTMLSpanElement => el('span', { translate: 'no' }, value);

function showError(target: HTMLElement, result: Extract<ApiResult<unknown>, { ok: false }>): void {
  const lead: LabelKey = result.status === 429 ? 'limitReached' : 'failed';
  // The server's detail is English (error texts are): marked so, in either page language.
  target.replaceChildren(el('span', { class: 'error' }, label(lead), ' ', el('span', { lang: 'en' }, result.detail)));
  if (result.status === 429) keyBox.open = true;
}

function ruleKindLabel(kind: string): Node {
  const key = `kind_${kind}`;
  return key in LABELS ? label(key as LabelKey) : document.createTextNode(kind);
}

/** "上限 9,000万円 / up to ¥90,000,000": the catalogue's unit is 10,000 yen. */
const amountText = (p: Program): Node | null =>
  typeof p.amount_max_man_yen !== 'number'
    ? null
    : el('span', {}, label('amountUpTo', { man: formatNumber(p.amount_max_man_yen), yen: formatNumber(Math.round(p.amount_max_man_yen * 10_000)) }));

// ---- search ---------------------------------------------------------------

async function search(): Promise<void> {
  const seq = ++searchSeq;
  setLabel(status, 'loading');
  list.setAttribute('aria-busy', 'true');
  const result = await api<SearchPage>(searchPath(state, fields), { headers: keyHeaders() });
  if (seq !== searchSeq) return; // a newer search has started
  list.removeAttribute('aria-busy');
  suggestions.hidden = true;
  if (!result.ok) {
    list.replaceChildren();
    showError(status, result);
    prev.disabled = next.disabled = true;
    return;
  }
  remainingToday = result.remaining;
  showCaller(remainingToday);
  const { total, offset, results } = result.body;
  lastResults = results;
  if (total === 0) {
    setLabel(status, 'noResults');
    showSuggestions();
  } else setLabel(status, 'resultCount', { total: formatNumber(total), from: formatNumber(offset + 1), to: formatNumber(offset + results.length) });
  list.replaceChildren(...results.map(resultItem));
  prev.disabled = offset === 0;
  next.disabled = offset + results.length >= total;
}

/** Broad words that find many programmes (search terms: they stay Japanese, with a gloss in English). */
const BROAD_WORDS: [word: string, gloss: string][] = [
  ['補助金', 'subsidies'],
  ['助成金', 'grants'],
  ['融資', 'loans'],
  ['創業', 'start-ups'],
  ['設備投資', 'equipment'],
];

/** A link to another search: followed in place, like a submitted form. */
function searchLink(next: SearchState, text: Node | string): HTMLAnchorElement {
  const link = el('a', { href: `${location.pathname}?${keepLanguage(paramsFromState(next, fields))}` }, text);
  link.addEventListener('click', (event) => {
    event.preventDefault();
    state = next;
    writeUrl('push');
    fillForm();
    void search();
  });
  return link;
}

/** Nothing matched: drop a filter, look at nationwide programmes, use fewer or broader words. */
function showSuggestions(): void {
  const base: SearchState = { ...state, offset: 0, id: '' };
  const withValues = (values: Record<string, string[]>): SearchState => ({ ...base, values: { ...state.values, ...values } });
  const values = (name: string) => state.values[name] ?? [];
  const items: Node[] = [];
  for (const field of fields) {
    if (field.name === 'q' || !values(field.name).length) continue;
    const name = PARAMETER_LABELS[field.name] ? t(PARAMETER_LABELS[field.name]) : field.name;
    items.push(searchLink(withValues({ [field.name]: [] }), label('suggestDropFilter', { filter: `${name}: \`${values(field.name).join(', ')}\`` })));
  }
  const national = fields.find((f) => f.name === 'authority_level')?.options?.includes('national');
  // A place chosen (applicable_in already adds the nationwide programmes; an exact prefecture does not).
  if ((values('prefecture').length || values('applicable_in').length) && national && values('authority_level')[0] !== 'national') {
    items.push(searchLink(withValues({ prefecture: [], applicable_in: [], authority_level: ['national'] }), t('suggestNationwide')));
  }
  const q = values('q')[0] ?? '';
  const words = q.split(/\s+/).filter(Boolean);
  if (words.length > 1) items.push(searchLink(withValues({ q: [words[0]] }), label('suggestFewerWords', { q: words[0] })));
  if (q) {
    // The words are Japanese search terms (the data's language), shown as something to type.
    const broader = BROAD_WORDS.filter(([word]) => word !== q).map(([word, gloss]) =>
      searchLink(withValues({ q: [word] }), el('span', {}, el('code', {}, word), LANG === 'en' ? ` (${gloss})` : '')),
    );
    items.push(el('span', {}, label('suggestBroader', { words: '' }), ...broader.flatMap((link, i) => (i ? [' · ', link] : [link]))));
  }
  if (!items.length) return;
  suggestions.replaceChildren(el('h3', {}, label('suggestTitle')), el('ul', {}, ...items.map((item) => el('li', {}, item))));
  suggestions.hidden = false;
}

function resultItem(p: Program): HTMLLIElement {
  const open = el('button', { type: 'button', class: 'link', 'data-id': p.unified_id, translate: 'no' }, p.primary_name);
  open.addEventListener('click', () => openDetail(p.unified_id, 'push'));
  const box = el('input', { type: 'checkbox', 'data-select': p.unified_id, checked: selected.has(p.unified_id) });
  box.addEventListener('change', () => toggleSelection(p.unified_id, p.primary_name, box.checked));
  const nationwide = p.authority_level === 'national' || p.authority_level === 'financial';
  const parts: (Node | string)[] = [
    (p.program_kind && codeList([p.program_kind], PROGRAM_KINDS)) || '',
    p.authority_name ? data(p.authority_name) : '',
    p.prefecture ? data(p.prefecture) : nationwide ? t('nationwide') : '',
    amountText(p) ?? '',
  ].filter((part) => part !== '');
  return el(
    'li',
    { class: 'result' },
    el('div', { class: 'result-head' }, el('span', { class: `tier tier-${p.tier}`, title: 'tier' }, p.tier), open),
    el('p', { class: 'result-meta' }, ...parts.flatMap((part, i) => (i ? [' · ', part] : [part]))),
    el('label', { class: 'check select' }, box, ' ', label('select'), el('span', { class: 'visually-hidden', translate: 'no' }, `: ${p.primary_name}`)),
  );
}

// ---- detail ---------------------------------------------------------------

function fact(key: LabelKey, value: Node | string | null | undefined): HTMLElement | null {
  if (value === null || value === undefined || value === '') return null;
  return el('div', {}, el('dt', {}, label(key)), el('dd', {}, value));
}

async function openDetail(id: string, urlMode: 'push' | 'replace' | 'none'): Promise<void> {
  state.id = id;
  if (urlMode !== 'none') writeUrl(urlMode);
  setLabel(detailTitle, 'details');
  detailBody.replaceChildren(el('p', { role: 'status' }, label('loading')));
  if (!dialog.open) dialog.showModal();
  const result = await api<ProgramDetail>(`/v1/programs/${encodeURIComponent(id)}?fields=full`, { headers: keyHeaders() });
  if (state.id !== id) return;
  if (!result.ok) {
    const box = el('p');
    showError(box, result);
    detailBody.replaceChildren(box);
    return;
  }
  renderDetail(result.body);
}

/** "2025-04-01 – 2025-05-31", "from 2025-04-01", "until 2025-05-31", or null. */
function windowText(window: ProgramDetail['application_window']): string | null {
  const { start, end } = window;
  if (start && end) return `${start} – ${end}`;
  if (start) return t('windowOpen', { start });
  if (end) return t('windowUntil', { end });
  return null;
}

/** Where a programme applies: its prefecture and municipality; nationwide for national bodies and public lenders. */
function placeText(p: ProgramDetail): Node | string | null {
  const place = [p.prefecture, p.municipality].filter(Boolean).join(' ');
  if (place) return data(place);
  return p.authority_level === 'national' || p.authority_level === 'financial' ? t('nationwide') : null;
}

/** A fact of the detail, or "not published" when the catalogue has nothing for it. */
function factOrAbsent(key: LabelKey, value: Node | string | null | undefined): HTMLElement {
  const absent = value === null || value === undefined || value === '';
  return el('div', {}, el('dt', {}, label(key)), el('dd', absent ? { class: 'absent' } : {}, absent ? label('notPublished') : value));
}

/** The codes our tables know in the reader's language; what they do not know as published (marked so). */
function codeList(values: readonly string[] | null | undefined, table: Parameters<typeof valueLabel>[0]): Node | null {
  if (!values?.length) return null;
  const items = values.map((v) => {
    const shown = valueLabel(table, v, LANG);
    return shown === v ? data(v) : document.createTextNode(shown);
  });
  return el('span', {}, ...items.flatMap((item, i) => (i ? [LANG === 'en' ? ', ' : '、', item] : [item])));
}

function renderDetail(p: ProgramDetail): void {
  detailTitle.replaceChildren(data(p.primary_name));
  const amount = amountText(p);
  const facts = el(
    'dl',
    { class: 'facts' },
    fact('tier', el('span', { class: `tier tier-${p.tier}` }, p.tier)),
    factOrAbsent('kindLabel', codeList(p.program_kind ? [p.program_kind] : [], PROGRAM_KINDS)),
    factOrAbsent('authorityName', p.authority_name ? data(p.authority_name) : null),
    factOrAbsent('place', placeText(p)),
    factOrAbsent('targets', codeList(p.target_types, AUDIENCES)),
    factOrAbsent('purposes', codeList(p.funding_purpose, PURPOSES)),
    factOrAbsent('window', windowText(p.application_window)),
    factOrAbsent('amountMaxLabel', amount),
    factOrAbsent('subsidyRate', typeof p.subsidy_rate === 'number' ? `${Math.round(p.subsidy_rate * 1000) / 10}%` : null),
    fact('aliases', p.aliases.length ? data(p.aliases.join('、')) : null),
  );
  const description = el(
    'section',
    { class: 'description', 'aria-labelledby': 'description-title' },
    el('h3', { id: 'description-title' }, label('description')),
    p.description ? el('p', { translate: 'no' }, p.description) : el('p', { class: 'absent' }, label('notPublished')),
  );
  const official = p.official_url ? el('p', {}, externalLink(p.official_url, label('officialPage'))) : null;
  const mentions = (p.source_mentions ?? []).map((m) => {
    const when = m.fetched_at ? formatTime(m.fetched_at) : null;
    const confidence = typeof m.confidence === 'number' ? m.confidence : null;
    return el(
      'li',
      {},
      externalLink(m.url),
      when || confidence !== null ? ' (' : '',
      when ?? '',
      when && confidence !== null ? ', ' : '',
      confidence !== null ? label('confidence') : null,
      confidence !== null ? ` ${confidence}` : '',
      when || confidence !== null ? ')' : '',
    );
  });
  const lineage = el(
    'section',
    { class: 'lineage', 'aria-labelledby': 'lineage-title' },
    el('h3', { id: 'lineage-title' }, label('lineage')),
    el(
      'dl',
      { class: 'facts' },
      fact('sourceUrl', p.source_url ? externalLink(p.source_url) : label('unknown')),
      fact('fetchedAt', p.source_fetched_at ? formatTime(p.source_fetched_at) : label('unknown')),
      fact('checksum', p.source_checksum ? el('code', {}, p.source_checksum) : label('unknown')),
    ),
    mentions.length ? el('h4', {}, label('mentions')) : null,
    mentions.length ? el('ul', {}, ...mentions) : null,
  );
  const toggle = el(
    'button',
    { type: 'button', class: 'primary', id: 'detail-select' },
    label(selected.has(p.unified_id) ? 'removeFromSelection' : 'addToSelection'),
  );
  toggle.addEventListener('click', () => {
    toggleSelection(p.unified_id, p.primary_name, !selected.has(p.unified_id));
    setLabel(toggle, selected.has(p.unified_id) ? 'removeFromSelection' : 'addToSelection');
  });
  detailBody.replaceChildren(
    ...[el('p', { class: 'id' }, el('code', {}, p.unified_id)), facts, description, official, lineage, el('p', {}, toggle)].filter((n) => n !== null),
  );
}

function closeDetail(): void {
  if (dialog.open) dialog.close();
}
dialog.addEventListener('close', () => {
  if (state.id) {
    state.id = '';
    writeUrl('push');
  }
});
byId('detail-close').addEventListener('click', closeDetail);

// ---- selection and the exclusion check --------------------------------------

function toggleSelection(id: string, name: string, on: boolean): void {
  if (on) selected.set(id, name);
  else selected.delete(id);
  for (const box of list.querySelectorAll<HTMLInputElement>('input[data-select]')) if (box.dataset.select === id) box.checked = on;
  renderSelection();
  writeUrl('replace');
}

function renderSelection(): void {
  setLabel(selectionCount, 'selectionCount', { n: selected.size });
  selectionList.replaceChildren(
    ...[...selected].map(([id, name]) => {
      const remove = el('button', { type: 'button', class: 'small', 'aria-label': `${t('remove')}: ${name}` }, label('remove'));
      remove.addEventListener('click', () => toggleSelection(id, name, false));
      return el('li', {}, data(name), ' ', remove);
    }),
  );
  checkButton.disabled = selected.size === 0;
  clearButton.disabled = selected.size === 0;
  checkResult.replaceChildren();
}

/** Names of selected programmes restored from a shared URL, which carries only their ids. */
async function resolveSelectedNames(): Promise<void> {
  const unknown = [...selected].filter(([id, name]) => id === name).map(([id]) => id);
  if (!unknown.length) return;
  const result = await api<OpenAPI.BatchGetProgramsResponse>('/v1/programs/batch', {
    method: 'POST',
    body: { unified_ids: unknown },
    headers: keyHeaders(),
  });
  if (!result.ok) return;
  for (const p of result.body.results) if (selected.has(p.unified_id)) selected.set(p.unified_id, p.primary_name);
  renderSelection();
}

async function checkExclusions(): Promise<void> {
  const ids = [...selected.keys()];
  checkResult.replaceChildren(el('p', {}, label('loading')));
  const result = await api<OpenAPI.CheckExclusionsResponse>('/v1/exclusions/check', { method: 'POST', body: { program_ids: ids }, headers: keyHeaders() });
  if (!result.ok) {
    const box = el('p');
    showError(box, result);
    checkResult.replaceChildren(box);
    return;
  }
  const { hits, checked_rules } = result.body;
  const nameOf = (id: string) => selected.get(id) ?? lastResults.find((p) => p.unified_id === id)?.primary_name ?? id;
  // No hit is not a green light: only the known rules were checked.
  const summary = el('p', { class: hits.length ? 'warning' : 'notice' }, label(hits.length ? 'hits' : 'noHits', { rules: checked_rules, n: hits.length }));
  const items = hits.map((hit) =>
    el(
      'li',
      { class: `hit hit-${hit.kind}` },
      el(
        'p',
        { class: 'hit-head' },
        el('strong', {}, ruleKindLabel(hit.kind)),
        hit.severity ? ' · ' : '',
        hit.severity ? label('severity') : null,
        hit.severity ? `: ${hit.severity}` : '',
      ),
      el('p', { translate: 'no' }, hit.programs_involved.map(nameOf).join(' ⇔ ')),
      hit.description ? el('p', { class: 'description', translate: 'no' }, hit.description) : null,
      hit.source_urls.length
        ? el('p', { class: 'sources' }, label('sources'), ': ', ...hit.source_urls.flatMap((url, i) => [i ? ', ' : '', externalLink(url)]))
        : null,
    ),
  );
  checkResult.replaceChildren(el('h3', {}, label('exclusionResult')), summary, items.length ? el('ul', { class: 'hits' }, ...items) : '');
}

checkButton.addEventListener('click', () => void checkExclusions());
clearButton.addEventListener('click', () => {
  selected.clear();
  for (const box of list.querySelectorAll<HTMLInputElement>('input[data-select]')) box.checked = false;
  renderSelection();
  writeUrl('replace');
});

// ---- wiring -----------------------------------------------------------------

form.addEventListener('submit', (event) => {
  event.preventDefault();
  state = stateFromForm();
  writeUrl('push');
  void search();
});
prev.addEventListener('click', () => {
  state.offset = Math.max(0, state.offset - PAGE_SIZE);
  writeUrl('push');
  void search();
});
next.addEventListener('click', () => {
  state.offset += PAGE_SIZE;
  writeUrl('push');
  void search();
});
addEventListener('popstate', () => {
  const before = paramsFromState({ ...state, id: '', sel: [] }, fields).toString();
  state = stateFromParams(new URLSearchParams(location.search), fields);
  fillForm();
  if (paramsFromState({ ...state, id: '', sel: [] }, fields).toString() !== before) void search();
  if (state.id) void openDetail(state.id, 'none');
  else closeDetail();
});

fillForm();
renderSelection();
void loadSession();
void search();
void resolveSelectedNames();
if (state.id) void openDetail(state.id, 'none');
