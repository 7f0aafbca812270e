// DOM helpers of the page scripts. Text from the API is only ever set as
// text (never parsed as markup), and links only ever point at http(s) URLs.
// Labels are in the page's language (language.ts).
import { codeRuns, text, type LabelKey } from './labels.ts';
import { LANG } from './language.ts';

type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | number | boolean | null | undefined>;

/** An element with attributes (false/null/undefined ones left out) and children (strings become text). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** A label's text in the page's language. */
export const t = (key: LabelKey, values: Record<string, string | number> = {}): string => text(LANG, key, values);

/** A label in the page's language, its `code` runs as <code> (as the server writes it: layout.ts). */
export function label(key: LabelKey, values: Record<string, string | number> = {}): DocumentFragment {
  const fragment = document.createDocumentFragment();
  codeRuns(t(key, values)).forEach((run, i) => fragment.append(i % 2 ? el('code', {}, run) : run));
  return fragment;
}

/** Replace an element's content with a label. */
export function setLabel(node: Element, key: LabelKey, values: Record<string, string | number> = {}): void {
  node.replaceChildren(label(key, values));
}

/** The element with this id (the pages always render the ones their scripts use). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is missing from the page`);
  return node as T;
}

/** A link to an outside page, or plain text when the URL is not http(s) (data may hold anything). */
export function externalLink(url: string | null | undefined, text: Child = url): Node {
  if (!url || !/^https?:\/\//i.test(url)) return document.createTextNode(url ?? '');
  return el('a', { href: url, rel: 'noopener noreferrer', target: '_blank' }, text);
}

const yenFormat = new Intl.NumberFormat(LANG === 'en' ? 'en-US' : 'ja-JP');
export const formatNumber = (n: number): string => yenFormat.format(n);
export const formatYen = (n: number): string => `¥${yenFormat.format(n)}`;

/** A UTC timestamp shown in Japan time, e.g. 2025-04-10 09:30 JST. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t + 9 * 3600_000).toISOString().slice(0, 16).replace('T', ' ')} JST`;
}
