/** A literal text as a regular expression's source (every character that means something in a pattern escaped). */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
