// A reviewed data file of hand corrections (data/overrides/*.jsonl): one JSON
// object per line, blank lines and `//` comments allowed, each line checked
// by its reader. A line that is not reviewed data stops the build with the
// file's name and line number; a missing file is no corrections.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Each line of `file` parsed and handed to `take`; `take` returns a problem (the message after `file:line: `) or null. */
export function readReviewedLines<T>(file: string, take: (line: T) => string | null): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '' || line.trimStart().startsWith('//')) return;
    const problem = take(JSON.parse(line) as T);
    if (problem !== null) throw new Error(`${path.basename(file)}:${i + 1}: ${problem}`);
  });
}
