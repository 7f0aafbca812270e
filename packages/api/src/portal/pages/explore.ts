// GET /explore: a search form over /v1/programs/search whose fields are the
// query string (the URL holds the search, so it can be shared and works as a
// plain GET form), a result list with paging, a detail dialog with the source
// link and lineage, and a selection checked against the exclusion rules.
// The page script (browser/explore.ts) runs the searches from the URL.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PREFECTURE_NAMES } from '@jp-support/vocab';
import { html } from '../html.ts';
import { label, renderPage } from '../layout.ts';
import { plain } from '../browser/labels.ts';
import { TIERS, AUTHORITY_LEVELS } from '../browser/search-query.ts';

export function explorePage(_app: FastifyInstance, _request: FastifyRequest): string {
  const tiers = TIERS.map(
    (tier) => html`<label class="check"><input type="checkbox" name="tier" value="${tier}"> <span class="tier tier-${tier}">${tier}</span></label>`,
  );
  const prefectures = PREFECTURE_NAMES.map((name) => html`<option value="${name}">${name}</option>`);
  const authorities = AUTHORITY_LEVELS.map(([value, key]) => html`<option value="${value}">${plain(key)}</option>`);
  const main = html`
<h1>${label('exploreTitle')}</h1>
<div class="explore">
<form id="search" class="search" action="/explore" method="get" role="search">
  <div class="field wide">
    <label for="q">${label('keyword')}</label>
    <input id="q" name="q" type="search" maxlength="200" aria-describedby="q-hint">
    <small id="q-hint">${label('keywordHint')}</small>
  </div>
  <details id="filters" class="filters wide">
    <summary>${label('filters')}</summary>
    <div class="filter-grid">
      <fieldset class="field">
        <legend>${label('tier')}</legend>
        <div class="checks">${tiers}</div>
      </fieldset>
      <div class="field">
        <label for="prefecture">${label('prefecture')}</label>
        <select id="prefecture" name="prefecture"><option value="">${plain('anyPrefecture')}</option>${prefectures}</select>
      </div>
      <div class="field">
        <label for="authority_level">${label('authority')}</label>
        <select id="authority_level" name="authority_level"><option value="">${plain('anyAuthority')}</option>${authorities}</select>
      </div>
      <div class="field">
        <label for="amount_min">${label('amountMin')}</label>
        <input id="amount_min" name="amount_min" type="number" min="0" step="any" inputmode="decimal">
      </div>
      <div class="field">
        <label for="amount_max">${label('amountMax')}</label>
        <input id="amount_max" name="amount_max" type="number" min="0" step="any" inputmode="decimal">
      </div>
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
