// Which language a page is rendered in: `?lang=ja|en` when given (the
// language switch on every page links there, and internal links then carry
// it), else the reader's Accept-Language (the first of Japanese and English
// by preference; a list naming neither reads English, the language a
// non-Japanese reader most likely shares; no header: Japanese).
import type { FastifyRequest } from 'fastify';
import type { Lang } from './browser/labels.ts';

export interface PageLanguage {
  lang: Lang;
  /** Chosen by `?lang=`: internal links keep it. */
  explicit: boolean;
}

export function pageLanguage(request: FastifyRequest): PageLanguage {
  const asked = (request.query as Record<string, unknown> | undefined)?.lang;
  if (asked === 'ja' || asked === 'en') return { lang: asked, explicit: true };
  const header = request.headers['accept-language'];
  return { lang: preferredLanguage(Array.isArray(header) ? header.join(',') : header), explicit: false };
}

/** The first of ja and en in an Accept-Language header, by q then order. */
export function preferredLanguage(header: string | undefined): Lang {
  if (!header?.trim()) return 'ja';
  const ranges = header
    .split(',')
    .map((part, order) => {
      const [tag, ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) : 1, order };
    })
    .filter((r) => r.tag && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { tag } of ranges) {
    if (tag === '*') return 'ja';
    const primary = tag.split('-')[0];
    if (primary === 'ja' || primary === 'en') return primary;
  }
  return 'en';
}
