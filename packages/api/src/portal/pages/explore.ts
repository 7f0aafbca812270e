// GET /explore: a search form over /v1/programs/search whose fields are the
// query string (the URL holds the search, so it can be shared and works as a
// plain GET form), a result list with paging and, when nothing matches,
// what to try instead; a detail dialog (what the programme is, for whom,
// where, when, how much, its sources); a selection checked against the
// exclusion rules. The searches run with the logged-in session's key or a
// key entered here, else anonymously (browser/explore.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PREFECTURE_NAMES, PREFECTURES } from '@jp-support/vocab';
import type { ProgramSearchParameter } from '../../catalog/programs/parameters.ts';
import { html, type SafeHtml } from '../html.ts';
import { pageText, renderPage, type PageText } from '../layout.ts';
import { PARAMETER_LABELS, type LabelKey } from '../browser/labels.ts';
import type { FormField } from '../browser/search-query.ts';

/** The label of an option of a select, by parameter and value (an option without one shows its value). */
const OPTION_LABELS: Record<string, LabelKey> = {
  'authority_level:national': 'authNational',
  'authority_level:prefecture': 'authPrefecture',
  'authority_level:municipality': 'authMunicipality',
  'authority_level:financial': 'authFinancial',
};
/** What an unset select says. */
const ANY_LABELS: Record<string, LabelKey> = { prefecture: 'anyPrefecture', applicable_in: 'anyPrefecture', authority_level: 'anyAuthority' };

/** A hint under a field, by parameter. */
const FIELD_HINTS: Record<string, LabelKey> = { tier: 'tierHint', applicable_in: 'applicableInHint' };
/** Prefectures by name: English readers see the romaji beside the name the data writes. */
const ROMAJI = new Map(PREFECTURES.map(([name, romaji]) => [name, romaji.charAt(0).toUpperCase() + romaji.slice(1)]));

const fieldLabel = (p: PageText, name: string): string => (PARAMETER_LABELS[name] ? p.t(PARAMETER_LABELS[name]) : name);
function optionText(p: PageText, name: string, value: string): string {
  const key = OPTION_LABELS[`${name}:${value}`];
  if (key) return p.t(key);
  if ((name === 'prefecture' || name === 'applicable_in') && p.lang === 'en' && ROMAJI.has(value)) return `${ROMAJI.get(value)} (${value})`;
  return value;
}

/** The form fields of the search's parameter table (the entries with a `form`), in its order. */
export function formFields(table: readonly ProgramSearchParameter[]): { parameter: ProgramSearchParameter; field: FormField }[] {
  return table.flatMap((parameter) => {
    const form = parameter.form;
    if (!form) return [];
    const options = 'options' in form ? (form.options === 'prefectures' ? PREFECTURE_NAMES : form.options) : undefined;
    const field: FormField = {
      name: parameter.name,
      multiple: form.control === 'checkboxes',
      ...(options ? { options } : {}),
      ...(form.control === 'number' ? { numeric: true } : {}),
    };
    return [{ parameter, field }];
  });
}

/** The control of one filter. */
function filterControl(p: PageText, { parameter, field }: ReturnType<typeof formFields>[number]): SafeHtml {
  const name = field.name;
  const hint = FIELD_HINTS[name] ? html`<small>${p.t(FIELD_HINTS[name])}</small>` : '';
  const control = parameter.form!.control;
  if (control === 'checkboxes') {
    const boxes = (field.options ?? []).map((value) =>
      name === 'tier'
        ? html`<label class="check"><input type="checkbox" name="${name}" value="${value}"> <span class="tier tier-${value}">${value}</span></label>`
        : html`<label class="check"><input type="checkbox" name="${name}" value="${value}"> ${optionText(p, name, value)}</label>`,
    );
    return html`<fieldset class="field">
        <legend>${fieldLabel(p, name)}</legend>
        <div class="checks">${boxes}</div>
        ${hint}
      </fieldset>`;
  }
  if (control === 'select') {
    const options = (field.options ?? []).map((value) => html`<option value="${value}">${optionText(p, name, value)}</option>`);
    const any = ANY_LABELS[name] ? p.t(ANY_LABELS[name]) : '';
    return html`<div class="field">
        <label for="${name}">${fieldLabel(p, name)}</label>
        <select id="${name}" name="${name}"${hint ? html` aria-describedby="${name}-hint"` : ''}><option value="">${any}</option>${options}</select>
        ${hint ? html`<small id="${name}-hint">${p.t(FIELD_HINTS[name])}</small>` : ''}
      </div>`;
  }
  if (control === 'number') {
    return html`<div class="field">
        <label for="${name}">${fieldLabel(p, name)}</label>
        <input id="${name}" name="${name}" type="number" min="0" step="any" inputmode="decimal">
      </div>`;
  }
  return html`<div class="field">
        <label for="${name}">${fieldLabel(p, name)}</label>
        <input id="${name}" name="${name}" type="text" maxlength="200">
      </div>`;
}

export function explorePage(app: FastifyInstance, request: FastifyRequest): string {
  const p = pageText(request);
  const fields = formFields(app.programSearchParameters);
  const filters = fields.filter(({ parameter }) => parameter.form?.control !== 'search').map((field) => filterControl(p, field));
  const main = html`
<h1>${p.t('exploreTitle')}</h1>
<section class="caller" aria-labelledby="caller-title">
  <h2 id="caller-title">${p.t('callerTitle')}</h2>
  <p id="caller-status" role="status" aria-live="polite" data-anon-limit="${app.config.anonDailyLimit}">${p.t('callerAnonymous', { n: app.config.anonDailyLimit })}</p>
  <div class="caller-actions">
    <a class="button" id="caller-login" href="${p.href('/account')}">${p.t('callerLogin')}</a>
    <details id="key-box">
      <summary>${p.t('callerUseKey')}</summary>
      <label for="explore-key">${p.t('apiKey')}</label>
      <input id="explore-key" type="password" autocomplete="off" spellcheck="false" aria-describedby="explore-key-hint">
      <p id="explore-key-hint" class="hint">${p.t('callerKeyHint')}</p>
    </details>
  </div>
</section>
<div class="explore">
<form id="search" class="search" action="/explore" method="get" role="search" data-fields="${JSON.stringify(fields.map((f) => f.field))}">
  ${p.explicit ? html`<input type="hidden" name="lang" value="${p.lang}">` : ''}
  <div class="field wide">
    <label for="q">${p.t('keyword')}</label>
    <input id="q" name="q" type="search" maxlength="200" aria-describedby="q-hint">
    <small id="q-hint">${p.rich('keywordHint')}</small>
  </div>
  <details id="filters" class="filters wide">
    <summary>${p.t('filters')}</summary>
    <div class="filter-grid">
      ${filters}
    </div>
  </details>
  <div class="buttons">
    <button type="submit" class="primary">${p.t('search')}</button>
    <a class="button" href="${p.href('/explore')}">${p.t('reset')}</a>
  </div>
</form>

<section class="results" aria-labelledby="results-title">
  <h2 id="results-title">${p.t('results')}</h2>
  <p id="status" class="status" role="status" aria-live="polite"></p>
  <div id="suggestions" class="suggestions" hidden></div>
  <ol id="result-list" class="result-list"></ol>
  <nav class="pager" aria-label="${p.t('results')}">
    <button type="button" id="prev" disabled>${p.t('previous')}</button>
    <button type="button" id="next" disabled>${p.t('next')}</button>
  </nav>
</section>

<section class="selection" aria-labelledby="selection-title">
  <h2 id="selection-title">${p.t('selection')}</h2>
  <p id="selection-count" aria-live="polite">${p.t('selectionCount', { n: 0 })}</p>
  <p class="hint">${p.t('selectionHint')}</p>
  <ul id="selection-list" class="selection-list"></ul>
  <div class="buttons">
    <button type="button" id="check" class="primary" disabled>${p.t('checkExclusions')}</button>
    <button type="button" id="clear-selection" disabled>${p.t('clearSelection')}</button>
  </div>
  <div id="check-result" class="check-result" aria-live="polite"></div>
</section>
</div>

<dialog id="detail" aria-labelledby="detail-title">
  <div class="dialog-head">
    <h2 id="detail-title">${p.t('details')}</h2>
    <button type="button" id="detail-close" class="close">${p.t('close')}</button>
  </div>
  <div id="detail-body"></div>
</dialog>
<noscript><p>${p.t('failed')}</p></noscript>`;
  return renderPage({ page: 'explore', text: p, title: 'exploreTitle', main });
}
