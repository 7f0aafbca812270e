// Place and level of a programme from evidence (docs/decisions/0312-place-and-level-from-evidence.md).
//
// The dataset's authority_level and prefecture are mostly inferences of the
// extraction (a contact address in 千代田区 made JFC's 新規開業資金 a 東京都
// programme; a city's page on a national programme was called national).
// The evidence decides instead, strongest first:
// 1. the record's page is on a local government's domain (pref.*, city.*,
//    town.*, vill.*, metro.tokyo, *.lg.jp; places.ts): the programme is that
//    government's — level prefecture or municipality, its prefecture and
//    municipality filled where missing (from the name or the administering
//    body when the domain cannot be read into a place);
// 2. its name opens with a local government (雲仙市…, 北海道 …) and no national
//    body administers it: that government's programme;
// 3. the page is on a national domain (*.go.jp but the jGrants portal, which
//    lists every level's programmes) or the administering body is a national
//    one (a ministry or agency, JFC, 中小機構, JST, …) with no local government
//    named beside it: the level is national (financial stays financial: JFC
//    lends nationwide) and a prefecture or municipality goes, unless the
//    programme's own name names the place (福島県における…);
// 4. else a local government the administering body names (栃木県下野市) fills
//    a missing prefecture and municipality and, when the level is unknown,
//    gives it.
// A prefecture the dataset has is replaced only when the record's own local
// page names another and neither its name nor its administering body names
// the dataset's (士別市… on city.shibetsu.lg.jp, coded 佐賀県).
// A municipality the dataset has is replaced only when the name opens with
// another one of the same prefecture and no page says otherwise (本庄市
// 新規就農者… on city.honjo.lg.jp, coded 飯能市 by the dataset's name-prefix
// code): the name and the page agree against an inferred code.
// Each derived or removed value names its rule in the record's provenance.
import { PREFECTURES } from '@jp-support/vocab';
import { localDomainLevel, localHost, placeFromName, placeFromUrl, type Municipality, type PlaceMaster } from './places.ts';

export type LevelRule =
  | 'derived:official_url_domain'
  | 'derived:name_place'
  | 'derived:authority_place'
  | 'derived:national_domain'
  | 'derived:national_authority'
  | 'derived:host_records';

export interface LevelInput {
  name: string;
  authorityName: string | null;
  authorityLevel: string | null;
  prefecture: string | null;
  municipality: string | null;
  officialUrl: string | null;
  sourceUrl: string | null;
}

export interface PlaceAndLevel {
  authorityLevel: string | null;
  prefecture: string | null;
  municipality: string | null;
  /** field -> rule, for each field this changed (a removed place too). */
  changed: Partial<Record<'authority_level' | 'prefecture' | 'municipality', LevelRule>>;
}

// National bodies by name: ministries and agencies (…省, …庁 but not a 県庁),
// the Cabinet Office, and the national agencies and corporations that run
// programmes nationwide.
const NATIONAL_BODY =
  /(?<![都道府県])庁|省(?!エネ)|内閣府|内閣官房|日本政策金融公庫|\bJFC\b|商工組合中央金庫|商工中金|中小企業基盤整備機構|中小機構|科学技術振興機構|\bJST\b|日本学術振興会|\bJSPS\b|日本医療研究開発機構|\bAMED\b|\bNEDO\b|新エネルギー・産業技術総合開発機構|日本貿易振興機構|\bJETRO\b|高齢・障害・求職者雇用支援機構|\bJEED\b|工業所有権情報・研修館|\bINPIT\b|情報処理推進機構|\bIPA\b|国際協力機構|\bJICA\b|エネルギー・金属鉱物資源機構|\bJOGMEC\b|環境共創イニシアチブ|国（/u;

// Domains of national bodies that are not on go.jp.
const NATIONAL_HOSTS = new Set(['sii.or.jp', 'www.sii.or.jp', 'www.shokochukin.co.jp', 'shokochukin.co.jp']);
// The jGrants portal lists programmes of every level: its domain says nothing of the level.
const ANY_LEVEL_HOSTS = /(?:^|\.)jgrants-portal\.go\.jp$/;

function host(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** Whether a page's host is a national body's. */
export function isNationalHost(url: string | null): boolean {
  const h = host(url);
  if (!h || ANY_LEVEL_HOSTS.test(h)) return false;
  return (h.endsWith('.go.jp') && !h.endsWith('.lg.jp')) || NATIONAL_HOSTS.has(h);
}

/** A local government named in an administering body's name (大阪府商工労働部, 栃木県下野市, 浜松市産業振興課). */
export function placeFromAuthority(authorityName: string | null, master: PlaceMaster): { prefecture: string; municipality: string | null } | null {
  if (!authorityName) return null;
  const text = authorityName.normalize('NFKC').trim();
  for (const [prefecture] of PREFECTURES) {
    if (!text.startsWith(prefecture)) continue;
    const rest = text.slice(prefecture.length);
    for (let len = Math.min(8, rest.length); len >= 2; len--) {
      const found = master.byName.get(rest.slice(0, len))?.find((m) => m.prefecture === prefecture);
      if (found) return { prefecture, municipality: found.name };
    }
    return { prefecture, municipality: null };
  }
  const place = placeFromName(text, master);
  return place?.prefecture ? { prefecture: place.prefecture, municipality: place.municipality } : null;
}

/** Whether the administering body is a national one and names no local government beside it (熊本県 / 経済産業省 is the prefecture's). */
export function isNationalAuthority(authorityName: string | null, master: PlaceMaster): boolean {
  if (!authorityName) return false;
  const text = authorityName.normalize('NFKC');
  if (!NATIONAL_BODY.test(text)) return false;
  if (/都道府県|市町村|自治体/.test(text)) return false;
  if (PREFECTURES.some(([name]) => text.includes(name))) return false;
  return placeFromAuthority(text, master) === null;
}

/** The record's level, prefecture and municipality after the evidence (see the head of this file). */
export function placeAndLevel(p: LevelInput, master: PlaceMaster, hosts: ReadonlyMap<string, Municipality> = new Map()): PlaceAndLevel {
  const out: PlaceAndLevel = { authorityLevel: p.authorityLevel, prefecture: p.prefecture, municipality: p.municipality, changed: {} };
  const setLevel = (level: string, how: LevelRule): void => {
    // A financial body (JFC, a credit guarantee corporation) keeps its level; only the place is read.
    if (out.authorityLevel === level || out.authorityLevel === 'financial') return;
    out.authorityLevel = level;
    out.changed.authority_level = how;
  };
  const keepsLocalLevel = (): boolean => out.authorityLevel === 'prefecture' || out.authorityLevel === 'municipality';

  // 1. A local government's page: the programme is that government's (its municipality even when the
  //    domain's name cannot be read into one: city.kure.lg.jp is a city's).
  const domainLevel = localDomainLevel(p.officialUrl) ?? localDomainLevel(p.sourceUrl);
  if (domainLevel) {
    const local = placeFromUrl(p.officialUrl, master) ?? placeFromUrl(p.sourceUrl, master);
    if (!keepsLocalLevel()) setLevel(domainLevel, 'derived:official_url_domain');
    const named = placeFromName(p.name, master);
    if (local) {
      correctPrefecture(out, local, named, placeFromAuthority(p.authorityName, master));
      if (named?.municipality && named.municipality === local.municipality) correctMunicipality(out, local, 'derived:official_url_domain');
      fill(out, local, 'derived:official_url_domain');
    }
    // A local domain the master cannot read (city.yokote.lg.jp): the place the name or the body names, when the
    // page does not say another one.
    if (!local?.municipality) {
      const said = named ?? placeFromAuthority(p.authorityName, master);
      if (said && (!local || said.prefecture === local.prefecture)) fill(out, said, named ? 'derived:name_place' : 'derived:authority_place');
      // Else the municipality the host's other records name (places.ts#hostPlaces).
      const host = hosts.get(localHost(p.officialUrl) ?? localHost(p.sourceUrl) ?? '');
      if (!said && host) fill(out, { prefecture: host.prefecture, municipality: host.name }, 'derived:host_records');
    }
    return out;
  }

  const nationalAuthority = isNationalAuthority(p.authorityName, master);
  const named = placeFromName(p.name, master);
  // 2. A name that opens with a local government (雲仙市スマート農業…) is that government's programme,
  //    whatever national page describes the scheme it belongs to; a national body's programme about a
  //    place (観光庁: 福島県における…) stays national.
  if (named && !nationalAuthority) {
    correctMunicipality(out, named, 'derived:name_place');
    fill(out, named, 'derived:name_place');
    if (!keepsLocalLevel()) setLevel(levelOf({ municipality: out.municipality }), 'derived:name_place');
    return out;
  }

  // 3. A national domain or body: national, and nowhere unless the name names the place.
  const nationalBy: LevelRule | null =
    isNationalHost(p.officialUrl) || isNationalHost(p.sourceUrl) ? 'derived:national_domain' : nationalAuthority ? 'derived:national_authority' : null;
  if (nationalBy) {
    setLevel('national', nationalBy);
    if (named) {
      fill(out, named, 'derived:name_place');
      return out;
    }
    if (out.prefecture !== null) {
      out.prefecture = null;
      out.changed.prefecture = nationalBy;
    }
    if (out.municipality !== null) {
      out.municipality = null;
      out.changed.municipality = nationalBy;
    }
    return out;
  }

  // 4. The administering body names the local government (栃木県下野市, 大阪府商工労働部).
  const place = placeFromAuthority(p.authorityName, master);
  if (place) {
    fill(out, place, 'derived:authority_place');
    if (out.authorityLevel === null) setLevel(levelOf({ municipality: out.municipality }), 'derived:authority_place');
  }
  return out;
}

type Place = { prefecture: string | null; municipality: string | null };

/**
 * Replace a prefecture the record's own local-government page contradicts, when nothing else
 * says it: 士別市受入農家協議会支援助成 on city.shibetsu.lg.jp coded 佐賀県, 移住支援金 on
 * city.sosa.lg.jp coded 東京都, 伊達市農業用施設機械取得助成 on city.date.hokkaido.jp coded
 * 福島県 (伊達市 is in both). The dataset's place stays when the name or the administering
 * body names it or another place than the page's (鹿児島市移住支援金制度 on a 鹿嶋市 page:
 * the link is the error); the municipality goes with the prefecture (the page's, or none).
 */
function correctPrefecture(out: PlaceAndLevel, page: Place, named: Place | null, body: Place | null): void {
  if (out.prefecture === null || page.prefecture === null || out.prefecture === page.prefecture) return;
  if ([named, body].some((said) => said !== null && said.prefecture !== page.prefecture)) return;
  out.prefecture = page.prefecture;
  out.changed.prefecture = 'derived:official_url_domain';
  if (out.municipality !== page.municipality) {
    out.municipality = page.municipality;
    out.changed.municipality = 'derived:official_url_domain';
  }
}

/** Replace a municipality of the record's prefecture that the evidence contradicts (see the head of this file). */
function correctMunicipality(out: PlaceAndLevel, place: Place, how: LevelRule): void {
  if (!place.municipality || out.municipality === null || out.municipality === place.municipality) return;
  if (out.prefecture !== null && place.prefecture !== null && out.prefecture !== place.prefecture) return;
  out.municipality = place.municipality;
  out.changed.municipality = how;
}

const levelOf = (place: { municipality: string | null }): string => (place.municipality ? 'municipality' : 'prefecture');

/** Fill a missing prefecture and municipality (a municipality only inside the record's prefecture), as derivePlace does. */
function fill(out: PlaceAndLevel, place: Place, how: LevelRule): void {
  if (out.prefecture && place.prefecture && place.prefecture !== out.prefecture) return;
  if (out.prefecture === null && place.prefecture) {
    out.prefecture = place.prefecture;
    out.changed.prefecture = how;
  }
  if (out.municipality === null && place.municipality) {
    out.municipality = place.municipality;
    out.changed.municipality = how;
  }
}
