// The groups of people a need or a programme names (vocabulary.json `people_groups`): those a programme is for or
// those a firm hires with it (若者, 高齢者, 障害者, 女性 …). A need that names one is not served by a programme or a
// course that names only others (rank.ts#fitOf, decision 0336): 若い人を雇いたい is not the 障害者トライアルコース's.
import { searchNormalize } from '../search-text.ts';
import { escapeRegExp } from '../../lib/regexp.ts';
import vocabulary from './vocabulary.json' with { type: 'json' };

const LATIN = /^[a-z][a-z ]*$/u;

const GROUPS = Object.entries(vocabulary.people_groups as Record<string, string[]>).map(([group, words]) => {
  const normalized = words.map(searchNormalize);
  const latin = normalized.filter((w) => LATIN.test(w));
  return {
    group,
    words: normalized.filter((w) => !LATIN.test(w)),
    latin: latin.length > 0 ? new RegExp(`(?<![a-z])(?:${latin.map(escapeRegExp).join('|')})(?![a-z])`, 'u') : null,
  };
});

/** The groups of people a search-normalised text names. */
export function peopleGroupsIn(text: string): string[] {
  return GROUPS.filter((g) => g.words.some((w) => text.includes(w)) || g.latin?.test(text) === true).map((g) => g.group);
}
