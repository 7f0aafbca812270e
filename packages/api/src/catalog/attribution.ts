// The attribution every catalogue answer carries (public-data licences, with
// an edit note), and the credit a source requires when a programme of the
// answer comes from it. jGrants (デジタル庁) asks
// for 「出典：Jグランツ」 and the source URL: rows a sync took from it carry
// that credit in their provenance (sources/jgrants/overlay.ts), and the page
// repeats it here with the URLs of those rows. The block keeps its five
// fields (the Attribution schema); the credit extends `source` and `notice`.

export interface AttributionBlock {
  readonly source: string;
  readonly source_url: string;
  readonly license: string;
  readonly edited: boolean;
  readonly notice: string;
}

/** The attribution block (the Attribution schema, schemas/common.ts): licences and an edit/processing note. */
export const ATTRIBUTION: AttributionBlock = Object.freeze({
  source: '各府省・都道府県・市区町村・日本政策金融公庫の公開情報、デジタル庁 e-Gov 法令データ提供システム',
  source_url: 'https://laws.e-gov.go.jp/',
  license: '政府標準利用規約 (第2.0版) / CC BY 4.0',
  edited: true,
  notice:
    'Compiled and normalised from public sources; derived fields (coverage, bands, aliases) are ours. ' +
    "Each record's source_url names its primary source: verify there before relying on it.",
});

export const JGRANTS_CREDIT = '出典：Jグランツ';

/** How a provenance value names a jGrants record: the credit, then its URL. */
const JGRANTS_URL = new RegExp(`${JGRANTS_CREDIT} (https?://\\S+)`, 'g');

export function programAttribution(rows: Iterable<{ provenance: string } | undefined>): AttributionBlock {
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
