// GET /docs: the API reference, rendered in the browser by Swagger UI (from
// its npm package, served by this server) from /v1/openapi.json. "Try it
// out" sends real requests to this same server; the key field above it adds
// X-API-Key to them (browser/docs.ts). The key lives in the page's memory only.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { html } from '../html.ts';
import { label, renderPage } from '../layout.ts';
import { ASSET } from '../assets.ts';

export function docsPage(_app: FastifyInstance, _request: FastifyRequest): string {
  const head = html`<link rel="stylesheet" href="${ASSET.swaggerCss}">
<link rel="stylesheet" href="${ASSET.docsCss}">
<script src="${ASSET.swaggerJs}" defer></script>`;
  const main = html`
<h1>${label('docsTitle')}</h1>
<p>${label('docsLead')}</p>
<form class="keybar" id="key-form" autocomplete="off">
  <label for="api-key">${label('apiKey')}</label>
  <input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck="false" inputmode="text" aria-describedby="api-key-hint">
  <button type="button" id="api-key-clear">${label('apiKeyClear')}</button>
  <output id="api-key-state" for="api-key" aria-live="polite">${label('apiKeyNone')}</output>
  <p id="api-key-hint" class="hint">${label('apiKeyHint')}</p>
</form>
<div id="swagger-ui" class="swagger-host"><p class="loading">${label('loading')}</p></div>
<noscript><p><a href="/v1/openapi.json">${label('openapiJson')}</a></p></noscript>`;
  return renderPage({ page: 'docs', title: 'docsTitle', main, head });
}
