// GET /: what the service is, the counts /meta reports (read from the
// catalogue here, so showing them takes no one's allowance), the access
// rules, three copy-paste examples for this very server, links to the pages.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../html.ts';
import { label, renderPage } from '../layout.ts';
import { originOf } from '../origin.ts';
import { asJson, clientExample, curlExample, mcpHttpConfig, mcpStdioConfig } from '../examples.ts';
import { texts, type LabelKey } from '../browser/labels.ts';

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

function example(id: string, title: LabelKey, code: string, language: string): SafeHtml {
  return html`<figure class="example">
  <figcaption><h3 id="${id}-title">${label(title)}</h3><button type="button" class="copy" data-copy="${id}" aria-describedby="${id}-title">${label('copy')}</button></figcaption>
  <pre tabindex="0" aria-labelledby="${id}-title"><code id="${id}" class="language-${language}">${code}</code></pre>
</figure>`;
}

export function landingPage(app: FastifyInstance, request: FastifyRequest): string {
  const meta = app.catalog.meta;
  const origin = originOf(request);
  const tiers = Object.entries(meta.tier_counts).map(([tier, n]) => html`<li><span class="tier tier-${tier}">${tier}</span> ${number(n)}</li>`);
  const records = RECORD_COUNTS.filter(([key]) => meta.record_counts[key] !== undefined).map(
    ([key, name]) => html`<div><dt>${label(name)}</dt><dd>${number(meta.record_counts[key])}</dd></div>`,
  );
  const { anonDailyLimit, freeDailyLimit, unitPriceYen } = app.config;
  const main = html`
<section class="hero" aria-labelledby="hero-title">
  <h1 id="hero-title">${label('landingTitle')}</h1>
  ${lead()}
  <p class="actions"><a class="button primary" href="/explore">${label('navExplore')}</a> <a class="button" href="/docs">${label('navDocs')}</a></p>
</section>

<section aria-labelledby="counts-title">
  <h2 id="counts-title">${label('countsTitle')}</h2>
  <dl class="counts">
    <div class="main"><dt>${label('countPrograms')}</dt><dd>${number(meta.total_programs)}</dd></div>
    <div><dt>${label('countRules')}</dt><dd>${number(meta.exclusion_rules_count)}</dd></div>
    ${records}
  </dl>
  <h3>${label('tierBreakdown')}</h3>
  <ul class="tiers">${tiers}</ul>
  <p class="asof">${label('dataAsOf')}: <time datetime="${meta.data_as_of}">${meta.data_as_of}</time> · ${label('lastIngested')}: <time datetime="${meta.last_ingested_at}">${meta.last_ingested_at}</time></p>
</section>

<section aria-labelledby="pages-title">
  <h2 id="pages-title">${label('pagesTitle')}</h2>
  <ul class="cards">
    <li><a href="/docs"><strong>${label('navDocs')}</strong></a><p>${label('pageDocsText')}</p></li>
    <li><a href="/explore"><strong>${label('navExplore')}</strong></a><p>${label('pageExploreText')}</p></li>
    <li><a href="/account"><strong>${label('navAccount')}</strong></a><p>${label('pageAccountText')}</p></li>
  </ul>
</section>

<section aria-labelledby="examples-title">
  <h2 id="examples-title">${label('examplesTitle')}</h2>
  ${example('example-curl', 'exampleCurl', curlExample(origin), 'sh')}
  ${example('example-client', 'exampleClient', clientExample(origin), 'ts')}
  ${example('example-mcp', 'exampleMcp', asJson(mcpStdioConfig(origin)), 'json')}
  ${example('example-mcp-http', 'exampleMcpHttp', asJson(mcpHttpConfig(origin)), 'json')}
</section>

<section aria-labelledby="limits-title">
  <h2 id="limits-title">${label('limitsTitle')}</h2>
  <ul class="limits">
    <li>${label('limitAnon', { n: anonDailyLimit })}</li>
    <li>${label('limitFree', { n: freeDailyLimit })}</li>
    <li>${label('limitPaid', { n: unitPriceYen })}</li>
  </ul>
</section>`;
  return renderPage({ page: 'landing', title: 'siteName', main });
}

/** The lead paragraph: one paragraph per language (a long text reads better apart than interleaved). */
function lead(): SafeHtml {
  const [ja, en] = texts('landingLead');
  return html`<p class="lead" lang="ja">${ja}</p><p class="lead en" lang="en">${en}</p>`;
}
