// GET /: what the service is, the counts /meta reports (read from the
// catalogue here, so showing them takes no one's allowance), the access
// rules, copy-paste examples for this very server (examples.ts: each one runs
// as shown, tests say so) at its PUBLIC_BASE_URL, never the Host header (a
// page is not for the caller to write into; issue 24, L7), links to the pages.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../html.ts';
import { pageText, renderPage, type PageText } from '../layout.ts';
import { asJson, clientExample, clientSetup, curlExample, mcpHttpConfig, mcpStdioConfig } from '../examples.ts';
import type { LabelKey } from '../browser/labels.ts';
import { TOOLS } from '@jp-support/mcp/tools';

const number = (n: number): string => n.toLocaleString('en-US');

/** Record sets shown beside the programme count, by their key in `record_counts`. */
const RECORD_COUNTS: [key: string, label: LabelKey][] = [
  ['laws', 'countLaws'],
  ['law_articles', 'countArticles'],
  ['tax_rulesets', 'countTax'],
  ['loans_mutual_aid', 'countLoans'],
  ['enforcement', 'countEnforcement'],
  ['case_studies', 'countCases'],
  ['certifications', 'countCerts'],
];

function example(p: PageText, id: string, title: LabelKey, code: string, language: string): SafeHtml {
  return html`<figure class="example">
  <figcaption><h3 id="${id}-title">${p.rich(title)}</h3><button type="button" class="copy" data-copy="${id}" aria-describedby="${id}-title">${p.t('copy')}</button></figcaption>
  <pre tabindex="0" aria-labelledby="${id}-title"><code id="${id}" class="language-${language}">${code}</code></pre>
</figure>`;
}

export function landingPage(app: FastifyInstance, request: FastifyRequest): string {
  const p = pageText(request);
  const meta = app.catalog.meta;
  const origin = app.config.publicBaseUrl;
  const tiers = Object.entries(meta.tier_counts).map(([tier, n]) => html`<li><span class="tier tier-${tier}">${tier}</span> ${number(n)}</li>`);
  const records = RECORD_COUNTS.filter(([key]) => meta.record_counts[key] !== undefined).map(
    ([key, name]) => html`<div><dt>${p.t(name)}</dt><dd>${number(meta.record_counts[key])}</dd></div>`,
  );
  const { anonDailyLimit, freeDailyLimit, unitPriceYen } = app.config;
  const main = html`
<section class="hero" aria-labelledby="hero-title">
  <h1 id="hero-title">${p.t('landingTitle')}</h1>
  <p class="lead">${p.t('landingLead', { tools: TOOLS.length })}</p>
  <p class="actions"><a class="button primary" href="${p.href('/explore')}">${p.t('navExplore')}</a> <a class="button" href="${p.href('/docs')}">${p.t('navDocs')}</a></p>
</section>

<section aria-labelledby="counts-title">
  <h2 id="counts-title">${p.t('countsTitle')}</h2>
  <dl class="counts">
    <div class="main"><dt>${p.t('countPrograms')}</dt><dd>${number(meta.total_programs)}</dd></div>
    <div><dt>${p.t('countRules')}</dt><dd>${number(meta.exclusion_rules_count)}</dd></div>
    ${records}
  </dl>
  <h3>${p.t('tierBreakdown')}</h3>
  <ul class="tiers">${tiers}</ul>
  <p class="asof">${p.t('dataAsOf')}: <time datetime="${meta.data_as_of}">${meta.data_as_of}</time> · ${p.t('lastIngested')}: <time datetime="${meta.last_ingested_at}">${meta.last_ingested_at}</time></p>
</section>

<section aria-labelledby="pages-title">
  <h2 id="pages-title">${p.t('pagesTitle')}</h2>
  <ul class="cards">
    <li><a href="${p.href('/docs')}"><strong>${p.t('navDocs')}</strong></a><p>${p.t('pageDocsText')}</p></li>
    <li><a href="${p.href('/explore')}"><strong>${p.t('navExplore')}</strong></a><p>${p.t('pageExploreText')}</p></li>
    <li><a href="${p.href('/account')}"><strong>${p.t('navAccount')}</strong></a><p>${p.t('pageAccountText')}</p></li>
  </ul>
</section>

<section aria-labelledby="examples-title">
  <h2 id="examples-title">${p.t('examplesTitle')}</h2>
  <p>${p.rich('examplesKey', { n: anonDailyLimit })}</p>
  ${example(p, 'example-curl', 'exampleCurl', curlExample(origin), 'sh')}
  ${example(p, 'example-mcp-http', 'exampleMcpHttp', asJson(mcpHttpConfig(origin)), 'json')}
  <p class="note">${p.rich('packagesNote')}</p>
  ${example(p, 'example-client-setup', 'exampleClientSetup', clientSetup(), 'sh')}
  ${example(p, 'example-client', 'exampleClient', clientExample(origin), 'js')}
  ${example(p, 'example-mcp', 'exampleMcp', asJson(mcpStdioConfig(origin)), 'json')}
</section>

<section aria-labelledby="limits-title">
  <h2 id="limits-title">${p.t('limitsTitle')}</h2>
  <ul class="limits">
    <li>${p.t('limitAnon', { n: anonDailyLimit })}</li>
    <li>${p.t('limitFree', { n: freeDailyLimit })}</li>
    <li>${p.t('limitPaid', { n: unitPriceYen })}</li>
  </ul>
</section>`;
  return renderPage({ page: 'landing', text: p, title: 'siteName', main });
}
