// JSON bodies, parsed by Fastify's own parser (prototype-poisoning checks
// kept) after one linear scan that refuses nesting deeper than
// MAX_JSON_DEPTH with a clear 400: a 20,000-deep body must not reach code
// that walks it recursively (canonical JSON, validation), where it would
// overflow the stack and answer 500. Routes that need raw bytes (the
// webhook) register their own parser in their own context.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

export const MAX_JSON_DEPTH = 32;

/** True when the JSON text opens more than `max` nested objects/arrays (strings are skipped). */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

export default fp(
  async function jsonBody(app: FastifyInstance) {
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
      if (jsonDeeperThan(text as string, MAX_JSON_DEPTH)) {
        done(new HttpError(400, `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
        return;
      }
      parse(request, text as string, done);
    });
  },
  { name: 'json-body' },
);
