// The page shell every portal page shares: head (one stylesheet, the page's
// own module script), header with the navigation and the language switch,
// main, footer. A page is rendered in one language (language.ts); its
// labels come from browser/labels.ts.
import type { FastifyRequest } from 'fastify';
import { html, type SafeHtml } from './html.ts';
import { codeRuns, text, type Lang, type LabelKey } from './browser/labels.ts';
import { pageLanguage } from './language.ts';
import { ASSET } from './assets.ts';
import { TOOLS } from '@jp-support/mcp/tools';

export type PageName = 'landing' | 'docs' | 'explore' | 'account';

/** What a page renderer writes with: its language, its labels, its links. */
export interface PageText {
  lang: Lang;
  /** The language was chosen with `?lang=` (internal links and forms keep it). */
  explicit: boolean;
  /** A label as plain text (escaped where it is interpolated). */
  t(key: LabelKey, values?: Record<string, string | number>): string;
  /** A label with its `code` runs as <code>. */
  rich(key: LabelKey, values?: Record<string, string | number>): SafeHtml;
  /** An internal link that keeps an explicit `?lang=`. */
  href(path: string): string;
  /** This page's URL in the other language. */
  switchHref: string;
}

export function pageText(request: FastifyRequest): PageText {
  const { lang, explicit } = pageLanguage(request);
  const url = new URL(request.url, 'http://page.invalid');
  url.searchParams.set('lang', lang === 'ja' ? 'en' : 'ja');
  const t = (key: LabelKey, values: Record<string, string | number> = {}) => text(lang, key, values);
  return {
    lang,
    explicit,
    t,
    rich: (key, values = {}) => html`${codeRuns(t(key, values)).map((run, i) => (i % 2 ? html`<code>${run}</code>` : run))}`,
    href: (path) => (explicit ? `${path}${path.includes('?') ? '&' : '?'}lang=${lang}` : path),
    switchHref: `${url.pathname}${url.search}`,
  };
}

const NAV: { page: PageName; href: string; label: LabelKey }[] = [
  { page: 'landing', href: '/', label: 'navHome' },
  { page: 'docs', href: '/docs', label: 'navDocs' },
  { page: 'explore', href: '/explore', label: 'navExplore' },
  { page: 'account', href: '/account', label: 'navAccount' },
];

export interface PageOptions {
  page: PageName;
  text: PageText;
  title: LabelKey;
  main: SafeHtml;
  /** Extra stylesheets and classic scripts the page needs before its module (e.g. the Swagger UI bundle). */
  head?: SafeHtml;
}

export function renderPage({ page, text: p, title, main, head }: PageOptions): string {
  const nav = NAV.map((item) => html`<li><a href="${p.href(item.href)}"${item.page === page ? html` aria-current="page"` : ''}>${p.t(item.label)}</a></li>`);
  const other: Lang = p.lang === 'ja' ? 'en' : 'ja';
  return (
    '<!doctype html>\n' +
    html`<html lang="${p.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title === 'siteName' ? p.t(title) : `${p.t(title)} · ${p.t('siteName')}`}</title>
<meta name="description" content="${p.t('landingLead', { tools: TOOLS.length })}">
<link rel="icon" href="data:,">
<link rel="alternate" hreflang="${other}" href="${p.switchHref}">
<link rel="stylesheet" href="${ASSET.css}">
${head ?? ''}
<script type="module" src="${ASSET.script(page)}"></script>
</head>
<body data-page="${page}">
<a class="skip" href="#main">${p.t('skip')}</a>
<header class="site">
  <a class="brand" href="${p.href('/')}">${p.t('siteName')}</a>
  <nav aria-label="${p.t('navLabel')}"><ul>${nav}</ul></nav>
  <a class="lang-switch" id="lang-switch" href="${p.switchHref}" hreflang="${other}" lang="${other}" title="${p.t('languageSwitchLabel')}">${p.t('languageSwitch')}</a>
</header>
<main id="main">
${main}
</main>
<footer class="site">
  <p>${p.t('footerData')}</p>
  <p><a href="/v1/openapi.json">${p.t('openapiJson')}</a> · <a href="${p.href('/docs')}">${p.t('navDocs')}</a></p>
</footer>
</body>
</html>
`.value
  );
}
