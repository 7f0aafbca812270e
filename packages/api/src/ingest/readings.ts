// Readings of Japanese text at ingest, with kuromoji (its IPADIC dictionary
// ships inside the npm package: nothing is downloaded). Used for two things:
// the hiragana reading of each programme name, indexed so that a query typed
// in kana (しょうえね) finds 省エネ; and the romaji of municipality names, to
// read a local government's web domain (city.minamisoma.lg.jp -> 南相馬市).
//
// Loading the dictionary takes seconds and ~350 MB, so it happens at ingest
// only, once per process; the serving processes never load it (queries are
// segmented with Intl.Segmenter, see catalog/search/understand.ts).
import { createRequire } from 'node:module';
import path from 'node:path';
import kuromoji from 'kuromoji';
import { foldKana } from '../catalog/search-text.ts';

export interface ReadingTokenizer {
  /** Hiragana reading; words without a dictionary reading keep their (kana-folded) surface. */
  reading(text: string): string;
  /** Hiragana reading, or null when any word of the text has no dictionary reading. */
  strictReading(text: string): string | null;
}

/**
 * A new tokenizer (seconds, ~350 MB). Not cached: the caller holds it for one
 * ingest and drops it, so a server that built its catalogue at start does not
 * keep the dictionary.
 */
export function readingTokenizer(): Promise<ReadingTokenizer> {
  return new Promise((resolve, reject) => {
    const require = createRequire(import.meta.url);
    const dicPath = path.join(path.dirname(require.resolve('kuromoji/package.json')), 'dict');
    kuromoji.builder({ dicPath }).build((err, tokenizer) => {
      if (err) {
        reject(err);
        return;
      }
      const cache = new Map<string, string>();
      resolve({
        reading(text) {
          let out = cache.get(text);
          if (out === undefined) {
            out = tokenizer
              .tokenize(text)
              .map((t) => foldKana(t.reading && t.reading !== '*' ? t.reading : t.surface_form))
              .join('');
            cache.set(text, out);
          }
          return out;
        },
        strictReading(text) {
          const tokens = tokenizer.tokenize(text);
          if (tokens.some((t) => !t.reading || t.reading === '*')) return null;
          return foldKana(tokens.map((t) => t.reading).join(''));
        },
      });
    });
  });
}

const ROMAJI: Record<string, string> = {
  あ: 'a',
  い: 'i',
  う: 'u',
  え: 'e',
  お: 'o',
  か: 'ka',
  き: 'ki',
  く: 'ku',
  け: 'ke',
  こ: 'ko',
  さ: 'sa',
  し: 'shi',
  す: 'su',
  せ: 'se',
  そ: 'so',
  た: 'ta',
  ち: 'chi',
  つ: 'tsu',
  て: 'te',
  と: 'to',
  な: 'na',
  に: 'ni',
  ぬ: 'nu',
  ね: 'ne',
  の: 'no',
  は: 'ha',
  ひ: 'hi',
  ふ: 'fu',
  へ: 'he',
  ほ: 'ho',
  ま: 'ma',
  み: 'mi',
  む: 'mu',
  め: 'me',
  も: 'mo',
  や: 'ya',
  ゆ: 'yu',
  よ: 'yo',
  ら: 'ra',
  り: 'ri',
  る: 'ru',
  れ: 're',
  ろ: 'ro',
  わ: 'wa',
  ゐ: 'i',
  ゑ: 'e',
  を: 'o',
  ん: 'n',
  が: 'ga',
  ぎ: 'gi',
  ぐ: 'gu',
  げ: 'ge',
  ご: 'go',
  ざ: 'za',
  じ: 'ji',
  ず: 'zu',
  ぜ: 'ze',
  ぞ: 'zo',
  だ: 'da',
  ぢ: 'ji',
  づ: 'zu',
  で: 'de',
  ど: 'do',
  ば: 'ba',
  び: 'bi',
  ぶ: 'bu',
  べ: 'be',
  ぼ: 'bo',
  ぱ: 'pa',
  ぴ: 'pi',
  ぷ: 'pu',
  ぺ: 'pe',
  ぽ: 'po',
  ぁ: 'a',
  ぃ: 'i',
  ぅ: 'u',
  ぇ: 'e',
  ぉ: 'o',
  ゔ: 'vu',
};
const SMALL_Y: Record<string, string> = { ゃ: 'a', ゅ: 'u', ょ: 'o' };

/** Hepburn romaji of a hiragana string (long vowels written out, as the reading has them). */
export function romaji(hiragana: string): string {
  let out = '';
  const chars = [...hiragana];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const next = chars[i + 1];
    if (ch === 'っ') {
      const following = next ? romaji(next) : '';
      out += following.startsWith('ch') ? 't' : following.charAt(0);
      continue;
    }
    if (ch === 'ー') continue;
    const base = ROMAJI[ch];
    if (base === undefined) continue;
    if (next && SMALL_Y[next]) {
      const stem = base.slice(0, -1);
      out += stem === 'sh' || stem === 'ch' || stem === 'j' ? stem + SMALL_Y[next] : `${stem}y${SMALL_Y[next]}`;
      i++;
      continue;
    }
    out += base;
  }
  return out;
}

/**
 * A spelling-insensitive key for romaji: domains write 南相馬 as
 * "minamisoma", 大田 as "ota" or "ohta", 本宮 as "motomiya"; Hepburn and
 * Kunrei spellings, long vowels and n/m before labials are folded.
 */
export function romajiKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .replace(/tch/g, 'ch')
    .replace(/shi/g, 'si')
    .replace(/sh/g, 'sy')
    .replace(/chi/g, 'ti')
    .replace(/ch/g, 'ty')
    .replace(/tsu/g, 'tu')
    .replace(/fu/g, 'hu')
    .replace(/ji/g, 'zi')
    .replace(/j/g, 'zy')
    .replace(/m(?=[bmp])/g, 'n')
    .replace(/oh(?![aeiouy])/g, 'o')
    .replace(/ou/g, 'o')
    .replace(/oo/g, 'o')
    .replace(/uu/g, 'u')
    .replace(/aa/g, 'a')
    .replace(/ii/g, 'i');
}
