// `path` tag: builds a URL path from a template, percent-encoding every
// interpolated value as one segment and refusing values that would change the
// path's shape (empty, `.`, `..`). Ids from user input are safe to pass.
import { JpSupportError } from './errors.ts';

export function encodeSegment(value: string | number): string {
  const raw = String(value);
  if (raw === '' || raw === '.' || raw === '..') throw new JpSupportError(`Invalid path parameter: ${JSON.stringify(raw)}`);
  return encodeURIComponent(raw);
}

/** path`/v1/laws/${id}/articles/${art}` with `id` and `art` encoded. */
export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += encodeSegment(values[i]) + strings[i + 1];
  return out;
}
