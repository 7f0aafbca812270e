// The page's language (the server rendered the page in it: <html lang>) and
// the language switch. A language chosen with `?lang=` stays in the URLs the
// page writes (the explore page's search state), and the switch always
// links to the page as it is now, in the other language.
import type { Lang } from './labels.ts';

export const LANG: Lang = document.documentElement.lang === 'en' ? 'en' : 'ja';

/** The `?lang=` the page was opened with, if any. */
const chosen = new URLSearchParams(location.search).get('lang');

/** Add the chosen `lang` to a page URL's query (a copy; nothing when the language came from the browser's settings). */
export function keepLanguage(params: URLSearchParams): URLSearchParams {
  const copy = new URLSearchParams(params);
  if (chosen === 'ja' || chosen === 'en') copy.set('lang', chosen);
  return copy;
}

/** Point the switch at the page's current URL (the explore page rewrites its query) when it is followed. */
export function wireLanguageSwitch(): void {
  const link = document.getElementById('lang-switch') as HTMLAnchorElement | null;
  if (!link) return;
  const update = () => {
    const params = new URLSearchParams(location.search);
    params.set('lang', LANG === 'ja' ? 'en' : 'ja');
    link.href = `${location.pathname}?${params}`;
  };
  for (const event of ['pointerdown', 'focus', 'click']) link.addEventListener(event, update);
}
