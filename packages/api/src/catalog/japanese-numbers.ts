// Numbers written in kanji (二十一, 百二, 千), as statutes and questions use them.

const KANJI_DIGITS: Record<string, number> = {
  〇: 0,
  零: 0,
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const KANJI_UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };

/** 二十一 -> 21, 百二 -> 102, 1,000 style digits pass through; null when not a number. */
export function kanjiToNumber(text: string): number | null {
  const t = text.normalize('NFKC').trim();
  if (/^\d+$/.test(t)) return Number(t);
  if (t === '' || ![...t].every((c) => c in KANJI_DIGITS || c in KANJI_UNITS)) return null;
  let total = 0;
  let current = 0;
  for (const c of t) {
    if (c in KANJI_DIGITS) {
      current = current * 10 + KANJI_DIGITS[c];
    } else {
      total += (current === 0 ? 1 : current) * KANJI_UNITS[c];
      current = 0;
    }
  }
  return total + current;
}
