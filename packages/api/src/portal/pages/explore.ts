// GET /explore: a search form over /v1/programs/search whose fields are the
// query string (the URL holds the search, so it can be shared and works as a
// plain GET form), a result list with paging, a detail dialog with the source
// link and lineage, and a selection checked against the exclusion rules.
// The page script (browser/explore.ts) runs the searches from the URL.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PREFECTURE_NAMES } from '@jp-support/vocab';
import type { ProgramSearchParameter } from '../../catalog/programs/parameters.ts';
import { html, type SafeHtml } from '../html.ts';
import { label, renderPage } from '../layout.ts';
import { plain, type LabelKey } from '../browser/labels.ts';
import type { FormField } from '../browser/search-query.ts';

/** The form's label of a parameter (a parameter without one shows its name). */
const FIELD_LABELS: Record<string, LabelKey> = {
  q: 'keyword',
  tier: 'tier',
  prefecture: 'prefecture',
  authority_level: 'authority',
  amount_min: 'amountMin',
  amount_max: 'amountMax',
};
/** The label of an option of a select, by parameter and value (an option without one shows its value). */
const OPTION_LABELS: Record<string, LabelKey> = {
  'authority_level:national': 'authNational',
  'authority_level:prefecture': 'authPrefecture',
  'authority_level:municipality': 'authMunicipality',
  'authority_level:financial': 'authFinancial',
};
/** What an unset select says. */
const ANY_LABELS: Record<string, LabelKey> = { prefecture: 'anyPrefecture', authority_level: 'anyAuthority' };

const fieldLabel = (name: string): SafeHtml | string => (FIELD_LABELS[name] ? label(FIELD_LABELS[name]) : name);
const optionText = (name: string, value: string): string => (OPTION_LABELS[`${name}:${value}`] ? plain(OPTION_LABELS[`${name}:${value}`]) : value);

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
function filterControl({ parameter, field }: ReturnType<typeof formFields>[number]): SafeHtml {
  const name = field.name;
  const control = parameter.form!.control;
  if (control === 'checkboxes') {
    const boxes = (field.options ?? []).map((value) =>
      name === 'tier'
        ? html`<label class="check"><input type="checkbox" name="${name}" value="${value}"> <span class="tier tier-${value}">${value}</span></label>`
        : html`<label class="check"><input type="checkbox" name="${name}" value="${value}"> ${optionText(name, value)}</label>`,
    );
    return html`<fieldset class="field">
        <legend>${fieldLabel(name)}</legend>
        <div class="checks">${boxes}</div>
      </fieldset>`;
  }
  if (control === 'select') {
    const options = (field.options ?? []).map((value) => html`<option value="${value}">${optionText(name, value)}</option>`);
    const any = ANY_LABELS[name] ? plain(ANY_LABELS[name]) : '';
    return html`<div class="field">
        <label for="${name}">${fieldLabel(name)}</label>
        <select id="${name}" name="${name}"><option value="">${any}</option>${options}</select>
      </div>`;
  }
  if (control === 'number') {
    return html`<div class="field">
        <label for="${name}">${fieldLabel(name)}</label>
        <input id="${name}" name="${name}" type="number" min="0" step="any" inputmode="decimal">
      </div>`;
  }
  return html`<div class="field">
        <label for="${name}">${fieldLabel(name)}</label>
        <input id="${name}" name="${name}" type="text" maxlength="200">
      </div>`;
}

export function explorePage(app: FastifyInstance, _request: FastifyRequest): string {
  const fields = formFields(app.programSearchParameters);
  const filters = fields.filter(({ parameter }) => parameter.form?.control !== 'search').map(filterControl);
  const main = html`
<h1>${label('exploreTitle')}</h1>
<div class="explore">
<form id="search" class="search" action="/explore" method="get" role="search" data-fields="${JSON.stringify(fields.map((f) => f.field))}">
  <div class="field wide">
    <label for="q">${label('keyword')}</label>
    <input id="q" name="q" type="search" maxlength="200" aria-describedby="q-hint">
    <small id="q-hint">${label('keywordHint')}</small>
  </div>
  <details id="filters" class="filters wide">
    <summary>${label('filters')}</summary>
    <div class="filter-grid">
      ${filters}
    </div>
  </details>
  <div class="buttons">
    <button type="submit" class="primary">${label('search')}</button>
    <a class="button" href="/explore">${label('reset')}</a>
  </div>
</form>

<section class="results" aria-labelledby="results-title">
  <h2 id="results-title">${label('results')}</h2>
  <p id="status" class="status" role="status" aria-live="polite"></p>
  <ol id="result-list" class="result-list"></ol>
  <nav class="pager" aria-label="${plain('results')}">
    <button type="button" id="prev" disabled>${label('previous')}</button>
    <button type="button" id="next" disabled>${label('next')}</button>
  </nav>
</section>

<section class="selection" aria-labelledby="selection-title">
  <h2 id="selection-title">${label('selection')}</h2>
  <p id="selection-count" aria-live="polite">${label('selectionCount', { n: 0 })}</p>
  <p class="hint">${label('selectionHint')}</p>
  <ul id="selection-list" class="selection-list"></ul>
  <div class="buttons">
    <button type="button" id="check" class="primary" disabled>${label('checkExclusions')}</button>
    <button type="button" id="clear-selection" disabled>${label('clearSelection')}</button>
  </div>
  <div id="check-result" class="check-result" aria-live="polite"></div>
</section>
</div>

<dialog id="detail" aria-labelledby="detail-title">
  <div class="dialog-head">
    <h2 id="detail-title">${label('details')}</h2>
    <button type="button" id="detail-close" class="close">${label('close')}</button>
  </div>
  <div id="detail-body"></div>
</dialog>
<noscript><p>${label('failed')}</p></noscript>`;
  return renderPage({ page: 'explore', title: 'exploreTitle', main });
}
