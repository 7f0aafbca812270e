// GET /docs: the API reference, rendered in the browser by Swagger UI (from
// its npm package, served by this server) from /v1/openapi.json. "Try it
// out" sends real requests to this same server; the key field above it adds
// X-API-Key to them (browser/docs.ts). The key lives in the page's memory
// only. In Japanese, the groups and the document's introduction are shown in
// Japanese (browser/docs-ja.ts); operations and parameters keep the
// document's English.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { html } from '../html.ts';
import { pageText, renderPage } from '../layout.ts';
import { ASSET } from '../assets.ts';

export function docsPage(_app: FastifyInstance, request: FastifyRequest): string {
  const p = pageText(request);
  const head = html`<link rel="stylesheet" href="${ASSET.swaggerCss}">
<link rel="stylesheet" href="${ASSET.docsCss}">
<script src="${ASSET.swaggerJs}" defer></script>`;
  const main = html`
<h1>${p.t('docsTitle')}</h1>
<p>${p.t('docsLead')} ${p.t('docsEnglish')}</p>
<form class="keybar" id="key-form" autocomplete="off">
  <label for="api-key">${p.t('apiKey')}</label>
  <input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck="false" inputmode="text" aria-describedby="api-key-hint">
  <button type="button" id="api-key-clear">${p.t('apiKeyClear')}</button>
  <output id="api-key-state" for="api-key" aria-live="polite">${p.t('apiKeyNone')}</output>
  <p id="api-key-hint" class="hint">${p.t('apiKeyHint')} ${p.rich('docsCurl')}</p>
</form>
<div id="swagger-ui" class="swagger-host"><p class="loading">${p.t('docsLoading')}</p></div>
<noscript><p><a href="/v1/openapi.json">${p.t('openapiJson')}</a></p></noscript>`;
  return renderPage({ page: 'docs', text: p, title: 'docsTitle', main, head });
}
