// Prefecture and municipality of a programme when the dataset leaves them
// empty, derived at ingest from what the record itself implies:
// 1. its official page on a local government's web domain (pref.*, city.*,
//    town.*, vill.*, metro.tokyo; read against the bundled municipality
//    master, whose names are turned into romaji through their readings);
// 2. a place name opening the programme name (「福岡 スマート農業…」,
//    「宇都宮市 新規就農者…」).
// Records that say they are national or financial are left alone: their
// page on a local site describes a nationwide programme. Each derived value
// says how it was derived (`how`), recorded in the row's provenance.
import { normalizePrefecture, PREFECTURES } from '@jp-support/vocab';
import { romaji, romajiKey, type ReadingTokenizer } from './readings.ts';

export type PlaceRule = 'derived:official_url_domain' | 'derived:name_place' | 'derived:host_records';

export interface Municipality {
  name: string;
  prefecture: string;
}

export interface PlaceMaster {
  /** Municipality by full name (宇都宮市); several when the name repeats across prefectures. */
  byName: Map<string, Municipality[]>;
  /** Municipality by `${type}:${romajiKey}` (type city | town | vill), from the reading of its name. */
  byRomaji: Map<string, Municipality[]>;
  /** Prefecture by romajiKey of its romaji (tokyo -> 東京都). */
  prefectureByRomaji: Map<string, string>;
}

const TYPE_OF_SUFFIX: Record<string, string> = { 市: 'city', 区: 'city', 町: 'town', 村: 'vill' };

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function buildPlaceMaster(municipalities: Municipality[], tokenizer: ReadingTokenizer | null): PlaceMaster {
  const master: PlaceMaster = { byName: new Map(), byRomaji: new Map(), prefectureByRomaji: new Map() };
  for (const [name, roman] of PREFECTURES) master.prefectureByRomaji.set(romajiKey(roman), name);
  for (const m of municipalities) {
    push(master.byName, m.name, m);
    const suffix = m.name.slice(-1);
    const type = TYPE_OF_SUFFIX[suffix];
    const stem = m.name.slice(0, -1);
    if (!type || !tokenizer || stem === '') continue;
    const reading = tokenizer.strictReading(stem);
    if (reading) push(master.byRomaji, `${type}:${romajiKey(romaji(reading))}`, m);
  }
  return master;
}

export interface DerivedPlace {
  prefecture: string | null;
  municipality: string | null;
  how: PlaceRule;
}

const LOCAL_DOMAIN = /(?:^|\.)(pref|city|town|vill|metro)\.([a-z0-9-]+)(?:\.([a-z]+))?\.(?:lg\.)?jp$/;

/** LOCAL_DOMAIN's match on a URL's host (kind, label, region), or null when the URL has none or does not parse. */
function localDomain(url: string | null | undefined): RegExpExecArray | null {
  if (!url) return null;
  try {
    return LOCAL_DOMAIN.exec(new URL(url).hostname.toLowerCase());
  } catch {
    return null;
  }
}

/** The level of a local government's web domain (pref.*, metro.*: prefecture; city.*, town.*, vill.*: municipality), or null. */
export function localDomainLevel(url: string | null | undefined): 'prefecture' | 'municipality' | null {
  const m = localDomain(url);
  if (!m) return null;
  return m[1] === 'pref' || m[1] === 'metro' ? 'prefecture' : 'municipality';
}

/** Place of a local government's web domain, or null when the host is not one or is ambiguous. */
export function placeFromUrl(url: string | null | undefined, master: PlaceMaster): Omit<DerivedPlace, 'how'> | null {
  const m = localDomain(url);
  if (!m) return null;
  const [, kind, label, region] = m;
  if (kind === 'pref' || kind === 'metro') {
    const prefecture = master.prefectureByRomaji.get(romajiKey(label));
    return prefecture ? { prefecture, municipality: null } : null;
  }
  // city.kakegawa.shizuoka.jp names its prefecture; city.kagoshima-izumi.lg.jp may prefix it.
  let prefecture = region ? (master.prefectureByRomaji.get(romajiKey(region)) ?? null) : null;
  let stem = label;
  const dash = label.indexOf('-');
  if (dash > 0) {
    const head = master.prefectureByRomaji.get(romajiKey(label.slice(0, dash)));
    if (head) {
      prefecture ??= head;
      stem = label.slice(dash + 1);
    }
  }
  const candidates = (master.byRomaji.get(`${kind}:${romajiKey(stem)}`) ?? []).filter((c) => prefecture === null || c.prefecture === prefecture);
  if (candidates.length === 1) return { prefecture: candidates[0].prefecture, municipality: candidates[0].name };
  // The municipality's reading is not the one the tokenizer gives (city.tome.miyagi.jp is 登米市, とめ, read とよま):
  // the prefecture the domain names still holds.
  return prefecture ? { prefecture, municipality: null } : null;
}

const SEPARATOR = /^[\s_・･\u3000]/u;

/** A fiscal year opening a name (令和7年度 …): the place, if any, follows it. */
const FISCAL_YEAR_HEAD = /^(?:令和|平成)\s*[0-9元]{1,2}\s*年度\s*/u;
/** The last bracket closing a name, innermost (…助成（作業員宿舎等経費助成（石川県））, …制度（八代市）). */
const TRAILING_BRACKET = /[（(]([^（）()]+)[）)][）)]*$/u;

/**
 * Place a programme name states, or null: a place opening the name (after a fiscal year,
 * 令和7年度一関市…), else a prefecture or a municipality that is the whole of the name's
 * last bracket (園芸用ハウス整備事業（高知県）, 新規就農者支援制度（八代市）).
 */
export function placeFromName(name: string, master: PlaceMaster): Omit<DerivedPlace, 'how'> | null {
  const text = name.normalize('NFKC').trim();
  return placeOpening(text.replace(FISCAL_YEAR_HEAD, ''), master) ?? placeInTrailingBracket(text, master);
}

function placeInTrailingBracket(text: string, master: PlaceMaster): Omit<DerivedPlace, 'how'> | null {
  const inner = TRAILING_BRACKET.exec(text)?.[1]?.trim();
  if (!inner) return null;
  const prefecture = PREFECTURES.find(([full]) => full === inner)?.[0];
  if (prefecture) return { prefecture, municipality: null };
  const found = master.byName.get(inner);
  return found?.length === 1 ? { prefecture: found[0].prefecture, municipality: found[0].name } : null;
}

function placeOpening(text: string, master: PlaceMaster): Omit<DerivedPlace, 'how'> | null {
  // A municipality with its suffix (宇都宮市…), the longest name first, unique across Japan.
  for (let len = Math.min(8, text.length); len >= 2; len--) {
    const found = master.byName.get(text.slice(0, len));
    if (found) return found.length === 1 ? { prefecture: found[0].prefecture, municipality: found[0].name } : null;
  }
  // A prefecture by its full name, or by its short name before a separator (福岡 スマート…).
  for (const [full] of PREFECTURES) {
    if (text.startsWith(full)) return { prefecture: full, municipality: null };
    const short = full === '北海道' ? full : full.slice(0, -1);
    if (text.startsWith(short) && SEPARATOR.test(text.slice(short.length))) {
      return { prefecture: normalizePrefecture(short), municipality: null };
    }
  }
  return null;
}

export interface PlaceInput {
  prefecture: string | null;
  municipality: string | null;
  authorityLevel: string | null;
  officialUrl: string | null;
  sourceUrl: string | null;
  name: string;
}

/**
 * Fill a missing prefecture (and municipality) from the record's own URL, then
 * from its name. A value the dataset has is never replaced; a derived
 * municipality is kept only when it lies in the record's prefecture.
 */
export function derivePlace(p: PlaceInput, master: PlaceMaster): DerivedPlace | null {
  if (p.authorityLevel === 'national' || p.authorityLevel === 'financial') return null;
  if (p.prefecture && p.municipality) return null;
  const sources: [PlaceRule, Omit<DerivedPlace, 'how'> | null][] = [
    ['derived:official_url_domain', placeFromUrl(p.officialUrl, master) ?? placeFromUrl(p.sourceUrl, master)],
    ['derived:name_place', placeFromName(p.name, master)],
  ];
  for (const [how, place] of sources) {
    if (!place) continue;
    if (p.prefecture && place.prefecture !== p.prefecture) continue;
    const prefecture = p.prefecture ? null : place.prefecture;
    const municipality = p.municipality ? null : place.municipality;
    if (prefecture === null && municipality === null) continue;
    return { prefecture, municipality, how };
  }
  return null;
}

export interface HostEvidence {
  name: string;
  officialUrl: string | null;
  sourceUrl: string | null;
}

/** A local government's web host, lower-cased, or null when the URL is not on one. */
export function localHost(url: string | null | undefined): string | null {
  if (!localDomain(url)) return null;
  return new URL(url!).hostname.toLowerCase();
}

/**
 * The municipality of each local-government host whose name the master cannot read
 * (city.shimotsuke.lg.jp: 下野市 read げや), from the other records on that host: when the
 * names of its records state one municipality and no other (下野市 下野市農業研修者受入支援事業),
 * of the host's kind (city.: 市 or 区, town.: 町, vill.: 村) and in the prefecture the host names,
 * the host is that municipality's.
 */
export function hostPlaces(records: Iterable<HostEvidence>, master: PlaceMaster): Map<string, Municipality> {
  const named = new Map<string, Map<string, Municipality>>();
  for (const r of records) {
    const place = placeFromName(r.name, master);
    if (!place?.municipality || !place.prefecture) continue;
    for (const url of [r.officialUrl, r.sourceUrl]) {
      const h = localHost(url);
      if (!h) continue;
      const m = localDomain(url)!;
      const type = TYPE_OF_SUFFIX[place.municipality.slice(-1)];
      if (m[1] !== type) continue;
      const byKey = named.get(h) ?? new Map<string, Municipality>();
      byKey.set(`${place.prefecture}/${place.municipality}`, { name: place.municipality, prefecture: place.prefecture });
      named.set(h, byKey);
    }
  }
  const out = new Map<string, Municipality>();
  for (const [h, found] of named) {
    if (found.size !== 1) continue;
    const only = [...found.values()][0];
    const fromUrl = placeFromUrl(`https://${h}/`, master);
    if (fromUrl?.prefecture && fromUrl.prefecture !== only.prefecture) continue;
    if (fromUrl?.municipality && fromUrl.municipality !== only.name) continue;
    out.set(h, only);
  }
  return out;
}
