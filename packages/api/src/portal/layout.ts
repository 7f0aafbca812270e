// The page shell every portal page shares: head (one stylesheet, the page's
// own module script), header with the navigation, main, footer. Labels come
// from browser/labels.ts in both languages.
import { html, type SafeHtml } from './html.ts';
import { texts, plain, type LabelKey } from './browser/labels.ts';
import { ASSET } from './assets.ts';

/** A label in both languages: `<span lang="ja">…</span> <span lang="en" class="en">…</span>`. */
export function label(key: LabelKey, values: Record<string, string | number> = {}): SafeHtml {
  const [ja, en] = texts(key, values);
  if (ja === en) return html`<span lang="en">${en}</span>`;
  return html`<span lang="ja">${ja}</span> <span lang="en" class="en">${en}</span>`;
}

export type PageName = 'landing' | 'docs' | 'explore' | 'account';

const NAV: { page: PageName; href: string; label: LabelKey }[] = [
  { page: 'landing', href: '/', label: 'navHome' },
  { page: 'docs', href: '/docs', label: 'navDocs' },
  { page: 'explore', href: '/explore', label: 'navExplore' },
  { page: 'account', href: '/account', label: 'navAccount' },
];

export interface PageOptions {
  page: PageName;
  /** Title in both languages. */
  title: LabelKey;
  main: SafeHtml;
  /** Extra stylesheets and classic scripts the page needs before its module (e.g. the Swagger UI bundle). */
  head?: SafeHtml;
}

export function renderPage({ page, title, main, head }: PageOptions): string {
  const nav = NAV.map((item) => html`<li><a href="${item.href}"${item.page === page ? html` aria-current="page"` : ''}>${label(item.label)}</a></li>`);
  return (
    '<!doctype html>\n' +
    html`<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title === 'siteName' ? plain(title) : `${plain(title)} · ${texts('siteName')[1]}`}</title>
<meta name="description" content="${texts('landingLead')[1]}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSET.css}">
${head ?? ''}
<script type="module" src="${ASSET.script(page)}"></script>
</head>
<body data-page="${page}">
<a class="skip" href="#main">${label('skip')}</a>
<header class="site">
  <a class="brand" href="/">${label('siteName')}</a>
  <nav aria-label="${plain('navLabel')}"><ul>${nav}</ul></nav>
</header>
<main id="main">
${main}
</main>
<footer class="site">
  <p>${label('footerData')}</p>
  <p><a href="/v1/openapi.json">${label('openapiJson')}</a> · <a href="/docs">${label('navDocs')}</a></p>
</footer>
</body>
</html>
`.value
  );
}
