// The 47 prefectures and the aliases a caller may type (short form, romaji).
// One table for the API server (validation, slot extraction) and the MCP
// tools (argument normalisation).
export const PREFECTURES: readonly [string, string][] = [
  ['北海道', 'hokkaido'],
  ['青森県', 'aomori'],
  ['岩手県', 'iwate'],
  ['宮城県', 'miyagi'],
  ['秋田県', 'akita'],
  ['山形県', 'yamagata'],
  ['福島県', 'fukushima'],
  ['茨城県', 'ibaraki'],
  ['栃木県', 'tochigi'],
  ['群馬県', 'gunma'],
  ['埼玉県', 'saitama'],
  ['千葉県', 'chiba'],
  ['東京都', 'tokyo'],
  ['神奈川県', 'kanagawa'],
  ['新潟県', 'niigata'],
  ['富山県', 'toyama'],
  ['石川県', 'ishikawa'],
  ['福井県', 'fukui'],
  ['山梨県', 'yamanashi'],
  ['長野県', 'nagano'],
  ['岐阜県', 'gifu'],
  ['静岡県', 'shizuoka'],
  ['愛知県', 'aichi'],
  ['三重県', 'mie'],
  ['滋賀県', 'shiga'],
  ['京都府', 'kyoto'],
  ['大阪府', 'osaka'],
  ['兵庫県', 'hyogo'],
  ['奈良県', 'nara'],
  ['和歌山県', 'wakayama'],
  ['鳥取県', 'tottori'],
  ['島根県', 'shimane'],
  ['岡山県', 'okayama'],
  ['広島県', 'hiroshima'],
  ['山口県', 'yamaguchi'],
  ['徳島県', 'tokushima'],
  ['香川県', 'kagawa'],
  ['愛媛県', 'ehime'],
  ['高知県', 'kochi'],
  ['福岡県', 'fukuoka'],
  ['佐賀県', 'saga'],
  ['長崎県', 'nagasaki'],
  ['熊本県', 'kumamoto'],
  ['大分県', 'oita'],
  ['宮崎県', 'miyazaki'],
  ['鹿児島県', 'kagoshima'],
  ['沖縄県', 'okinawa'],
];

const ALIASES = new Map<string, string>();
for (const [name, romaji] of PREFECTURES) {
  ALIASES.set(name, name);
  ALIASES.set(romaji, name);
  const short = name === '北海道' ? name : name.slice(0, -1);
  ALIASES.set(short, name);
  const suffix = name.endsWith('都') ? 'to' : name.endsWith('府') ? 'fu' : name.endsWith('県') ? 'ken' : '';
  if (suffix) {
    ALIASES.set(`${romaji}-${suffix}`, name);
    ALIASES.set(`${romaji}${suffix}`, name);
    ALIASES.set(`${romaji} ${suffix}`, name);
  }
}

export const PREFECTURE_NAMES: readonly string[] = PREFECTURES.map(([name]) => name);

/** The canonical prefecture name for a name or alias ('東京', 'Tokyo', 'tokyo-to' -> '東京都'), or null. */
export function normalizePrefecture(value: string): string | null {
  const key = value.normalize('NFKC').trim().toLowerCase();
  return ALIASES.get(key) ?? null;
}
