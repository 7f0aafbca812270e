// The attribution block of a programme response, with the credit a source
// requires when a row of the page comes from it. jGrants (デジタル庁) asks
// for 「出典：Jグランツ」 and the source URL: rows a sync took from it carry
// that credit in their provenance (sources/jgrants/overlay.ts), and the page
// repeats it here with the URLs of those rows. The block keeps its five
// fields (the Attribution schema); the credit extends `source` and `notice`.
import type { Static } from 'typebox';
import { ATTRIBUTION, type Attribution } from './common.ts';

export const JGRANTS_CREDIT = '出典：Jグランツ';

/** How a provenance value names a jGrants record: the credit, then its URL. */
const JGRANTS_URL = new RegExp(`${JGRANTS_CREDIT} (https?://\\S+)`, 'g');

export function programAttribution(rows: Iterable<{ provenance: string } | undefined>): Readonly<Static<typeof Attribution>> {
  const urls = new Set<string>();
  for (const row of rows) {
    if (!row?.provenance.includes(JGRANTS_CREDIT)) continue;
    for (const m of row.provenance.matchAll(JGRANTS_URL)) urls.add(m[1].replace(/["\\].*$/, ''));
  }
  if (urls.size === 0) return ATTRIBUTION;
  return Object.freeze({
    ...ATTRIBUTION,
    source: `${ATTRIBUTION.source}、${JGRANTS_CREDIT}`,
    notice: `${ATTRIBUTION.notice} ${JGRANTS_CREDIT} (${[...urls].join(', ')}).`,
  });
}
