// The two derived entity kinds: authorities (the bodies named as
// administering a program or issuing an enforcement action) and corporate
// entities (companies named by a valid corporate number). They have no
// dataset file of their own: the other builders note them, then they are
// written once, in the order first seen.
import { normalizeText } from '../../catalog/text-query.ts';
import { isValidHoujinBangou } from '../../catalog/houjin.ts';
import { sha256Hex } from '../../lib/hash.ts';
import type { GraphWriter } from './writer.ts';

/** Authority entity id: `AUTH-` + first 10 hex of SHA-256 of the normalised name. */
export function authorityId(name: string): string {
  return `AUTH-${sha256Hex(normalizeText(name)).slice(0, 10)}`;
}

/** Corporate entity id: `HB-` + the 13-digit corporate number. */
export const corporateId = (houjinBangou: string): string => `HB-${houjinBangou}`;

/** Generic 'authority' placeholders that name no body. */
const GENERIC_AUTHORITIES = new Set(['市町村', '都道府県', '市区町村', '国', '各市町村', '各都道府県', '自治体']);

export class Parties {
  private readonly authorities = new Map<string, string>(); // id -> name as first seen
  private readonly corporates = new Map<string, { name: string | null; source: string }>(); // houjin bangou -> first sighting

  /** The authority entity id of a name, noting it; null for blank or generic names. */
  authority(name: string | null): string | null {
    if (!name || GENERIC_AUTHORITIES.has(name.trim())) return null;
    const id = authorityId(name);
    if (!this.authorities.has(id)) this.authorities.set(id, name.trim());
    return id;
  }

  /** The corporate number when it passes the check digit (noting the company), else null. */
  corporate(houjinBangou: string | null, name: string | null, source: string): string | null {
    if (!houjinBangou || !isValidHoujinBangou(houjinBangou)) return null;
    if (!this.corporates.has(houjinBangou)) this.corporates.set(houjinBangou, { name, source });
    return houjinBangou;
  }

  write(w: GraphWriter): void {
    for (const [hb, c] of this.corporates) {
      w.addEntity({
        id: corporateId(hb),
        kind: 'corporate_entity',
        name: c.name ?? hb,
        facts: { houjin_bangou: hb, name: c.name },
        recordSource: c.source,
        searchExtra: [hb],
      });
      w.addKey(hb, corporateId(hb), 'houjin_bangou');
    }
    for (const [id, name] of this.authorities) {
      w.addEntity({ id, kind: 'authority', name, facts: { name }, recordSource: 'derived:authority_name' });
    }
  }
}
