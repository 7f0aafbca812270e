// Export encodings, one row at a time: CSV (RFC 4180, UTF-8 with a byte-order
// mark so Excel reads the Japanese text as UTF-8, CRLF line ends, one header
// row) and JSON Lines (one JSON object per line, the JSON answer's rows).
import type { Column } from './columns.ts';
import { spreadsheetSafe } from '../lib/untrusted-text.ts';

export const BOM = '\uFEFF';

/** List values are joined with this (a value containing it stays readable; use JSONL for exact arrays). */
export const LIST_SEPARATOR = ' | ';

function cellText(value: unknown, kind: Column['kind']): string {
  if (value === null || value === undefined) return '';
  if (kind === 'list' && Array.isArray(value)) return value.map((v) => (v === null ? '' : String(v))).join(LIST_SEPARATOR);
  if (kind === 'json' || typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * One CSV cell. Its final text is made inert for spreadsheets, whatever the
 * value's type (lib/untrusted-text.ts `spreadsheetSafe`): a list whose first
 * item starts with `=` is as dangerous as a string that does.
 */
export function csvCell(value: unknown, kind: Column['kind'] = 'scalar'): string {
  const text = spreadsheetSafe(cellText(value, kind), value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(columns: readonly Column[]): string {
  return `${BOM}${columns.map((c) => csvCell(c.name)).join(',')}\r\n`;
}

export function csvLine(columns: readonly Column[], row: Record<string, unknown>): string {
  return `${columns.map((c) => csvCell(c.read(row), c.kind)).join(',')}\r\n`;
}

export function jsonLine(row: unknown): string {
  return `${JSON.stringify(row)}\n`;
}
