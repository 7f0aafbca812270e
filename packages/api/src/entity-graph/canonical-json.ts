// Canonical JSON and the applicant hash of POST /v1/am/validate
// (docs/decisions/0065-canonical-json.md):
// object keys sorted by code point at every depth, no whitespace, non-ASCII
// characters written as themselves; SHA-256 hex of its UTF-8 bytes.
import { sha256Hex } from '../lib/hash.ts';

/** Code-point order (not UTF-16 unit order, which differs for astral characters). */
function compareCodePoints(a: string, b: string): number {
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') {
    // JSON.stringify keeps non-ASCII as itself and numbers in their shortest form.
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => compareCodePoints(a, b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return 'null';
}

export function applicantHash(applicantData: unknown): string {
  return sha256Hex(canonicalJson(applicantData));
}
