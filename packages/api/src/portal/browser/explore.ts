// The explore page: searches /v1/programs/search from the state in the URL,
// pages through results, opens a programme's detail (source link and
// lineage) in a dialog, and checks the selected programmes against the
// exclusion rules. Every change of the search is a new history entry, so Back
// and a shared link both restore it.
import type { OpenAPI } from '@jp-support/client';
import { api, type ApiResult } from './api.ts';
import { byId, el, externalLink, formatNumber, formatTime, label, setLabel } from './dom.ts';
import { LABELS, type LabelKey } from './labels.ts';
import { anyFilterSet, PAGE_SIZE, paramsFromState, searchPath, stateFromParams, type FormField, type SearchState } from './search-query.ts';

// The API's own types (generated from the OpenAPI document); a type import is erased, so the browser never loads it.
// A search row (default shape plus also_listed_as when duplicates were collapsed into it).
type Program = OpenAPI.ProgramHit;
type ProgramDetail = OpenAPI.ProgramDetail;
/** A search page in the default row shape (the one `searchPath` asks for). */
type SearchPage = Omit<OpenAPI.SearchProgramsResponse, 'results'> & { results: Program[] };

const form = byId<HTMLFormElement>('search');
/** The form's fields, as the server rendered them from the search's parameter table (pages/explore.ts). */
const fields = JSON.parse(form.dataset.fields ?? '[]') as FormField[];
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

// ---- URL <-> state --------------------------------------------------------

function writeUrl(mode: 'push' | 'replace'): void {
  state.sel = [...selected.keys()];
  const query = paramsFromState(state, fields).toString();
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

function showError(target: HTMLElement, result: Extract<ApiResult<unknown>, { ok: false }>): void {
  const lead: LabelKey = result.status === 429 ? 'limitReached' : 'failed';
  target.replaceChildren(el('span', { class: 'error' }, label(lead), ' ', el('span', { lang: 'en' }, result.detail)));
}

function kindLabel(kind: string): Node {
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
  const result = await api<SearchPage>(searchPath(state, fields));
  if (seq !== searchSeq) return; // a newer search has started
  list.removeAttribute('aria-busy');
  if (!result.ok) {
    list.replaceChildren();
    showError(status, result);
    prev.disabled = next.disabled = true;
    return;
  }
  const { total, offset, results } = result.body;
  lastResults = results;
  if (total === 0) setLabel(status, 'noResults');
  else setLabel(status, 'resultCount', { total: formatNumber(total), from: formatNumber(offset + 1), to: formatNumber(offset + results.length) });
  list.replaceChildren(...results.map(resultItem));
  prev.disabled = offset === 0;
  next.disabled = offset + results.length >= total;
}

function resultItem(p: Program): HTMLLIElement {
  const open = el('button', { type: 'button', class: 'link', 'data-id': p.unified_id }, p.primary_name);
  open.addEventListener('click', () => openDetail(p.unified_id, 'push'));
  const box = el('input', { type: 'checkbox', 'data-select': p.unified_id, checked: selected.has(p.unified_id) });
  box.addEventListener('change', () => toggleSelection(p.unified_id, p.primary_name, box.checked));
  const parts: (Node | string)[] = [p.authority_name ?? '', p.prefecture ?? label('nationwide'), amountText(p) ?? ''].filter((part) => part !== '');
  return el(
    'li',
    { class: 'result' },
    el('div', { class: 'result-head' }, el('span', { class: `tier tier-${p.tier}`, title: 'tier' }, p.tier), open),
    el('p', { class: 'result-meta' }, ...parts.flatMap((part, i) => (i ? [' · ', part] : [part]))),
    el('label', { class: 'check select' }, box, ' ', label('select'), el('span', { class: 'visually-hidden' }, `: ${p.primary_name}`)),
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
  const result = await api<ProgramDetail>(`/v1/programs/${encodeURIComponent(id)}?fields=full`);
  if (state.id !== id) return;
  if (!result.ok) {
    const box = el('p');
    showError(box, result);
    detailBody.replaceChildren(box);
    return;
  }
  renderDetail(result.body);
}

function renderDetail(p: ProgramDetail): void {
  detailTitle.replaceChildren(p.primary_name);
  const { start, end } = p.application_window;
  const applicationWindow = start || end ? `${start ?? '…'} – ${end ?? '…'}` : null;
  const place = [p.prefecture, p.municipality].filter(Boolean).join(' ');
  const facts = el(
    'dl',
    { class: 'facts' },
    fact('tier', el('span', { class: `tier tier-${p.tier}` }, p.tier)),
    fact('authorityName', p.authority_name),
    fact('prefecture', place || label('nationwide')),
    fact('kindLabel', p.program_kind),
    fact('amountMaxLabel', amountText(p)),
    fact('subsidyRate', typeof p.subsidy_rate === 'number' ? `${Math.round(p.subsidy_rate * 1000) / 10}%` : null),
    fact('window', applicationWindow),
    fact('targets', p.target_types.join('、')),
    fact('purposes', p.funding_purpose.join('、')),
    fact('aliases', p.aliases.join('、')),
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
    ...[el('p', { class: 'id' }, el('code', {}, p.unified_id)), facts, official, lineage, el('p', {}, toggle)].filter((n) => n !== null),
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
      const remove = el('button', { type: 'button', class: 'small', 'aria-label': `${LABELS.remove[0]} / ${LABELS.remove[1]}: ${name}` }, label('remove'));
      remove.addEventListener('click', () => toggleSelection(id, name, false));
      return el('li', {}, el('span', {}, name), ' ', remove);
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
  const result = await api<OpenAPI.BatchGetProgramsResponse>('/v1/programs/batch', { method: 'POST', body: { unified_ids: unknown } });
  if (!result.ok) return;
  for (const p of result.body.results) if (selected.has(p.unified_id)) selected.set(p.unified_id, p.primary_name);
  renderSelection();
}

async function checkExclusions(): Promise<void> {
  const ids = [...selected.keys()];
  checkResult.replaceChildren(el('p', {}, label('loading')));
  const result = await api<OpenAPI.CheckExclusionsResponse>('/v1/exclusions/check', { method: 'POST', body: { program_ids: ids } });
  if (!result.ok) {
    const box = el('p');
    showError(box, result);
    checkResult.replaceChildren(box);
    return;
  }
  const { hits, checked_rules } = result.body;
  const nameOf = (id: string) => selected.get(id) ?? lastResults.find((p) => p.unified_id === id)?.primary_name ?? id;
  const summary = el('p', { class: hits.length ? 'warning' : 'ok' }, label(hits.length ? 'hits' : 'noHits', { rules: checked_rules, n: hits.length }));
  const items = hits.map((hit) =>
    el(
      'li',
      { class: `hit hit-${hit.kind}` },
      el(
        'p',
        { class: 'hit-head' },
        el('strong', {}, kindLabel(hit.kind)),
        hit.severity ? ' · ' : '',
        hit.severity ? label('severity') : null,
        hit.severity ? `: ${hit.severity}` : '',
      ),
      el('p', {}, hit.programs_involved.map(nameOf).join(' ⇔ ')),
      hit.description ? el('p', { class: 'description' }, hit.description) : null,
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
void search();
void resolveSelectedNames();
if (state.id) void openDetail(state.id, 'none');
