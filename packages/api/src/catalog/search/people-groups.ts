// The groups of people a need or a programme names (vocabulary.json `people_groups`): those a programme is for or
// those a firm hires with it (若者, 高齢者, 障害者, 女性 …). A need that names one is not served by a programme or a
// course that names only others (rank.ts#fitOf, decision 0336): 若い人を雇いたい is not the 障害者トライアルコース's.
import { searchNormalize } from '../search-text.ts';
import { wordMatcher } from './understand.ts';
import vocabulary from './vocabulary.json' with { type: 'json' };

const GROUPS = Object.entries(vocabulary.people_groups as Record<string, string[]>).map(([group, words]) => ({
  group,
  names: wordMatcher(words.map(searchNormalize)),
}));

/** The groups of people a search-normalised text names (English words as whole words). */
export function peopleGroupsIn(text: string): string[] {
  return GROUPS.filter((g) => g.names(text)).map((g) => g.group);
}
