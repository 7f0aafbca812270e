// Industry arguments: a JSIC code as the API takes it (a major letter A-T or
// 2 to 4 digits), or an industry word read through the shared vocabulary
// (製造業 -> E, 飲食店 -> M). A word the vocabulary does not know is dropped
// with a warning, never sent on to fail the call or filter to nothing.
import { z } from 'zod';
import { industriesIn, JSIC_CODE_PATTERN } from '@jp-support/vocab';
import type { ToolCall } from './define.ts';

// The API's own pattern (its match schema), so that a code passed on is one the API takes.
const JSIC = new RegExp(JSIC_CODE_PATTERN);

/** The input field: a code or a word. */
export const industryInput = () => z.string().max(40).optional().describe('JSIC code (E) or industry word (製造業)');

/** A JSIC code for the API from a code or an industry word; undefined (warned) when the word names no industry. */
export function industryArg(call: ToolCall, value: string | undefined, field = 'industry_jsic'): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (JSIC.test(v)) return v.toUpperCase();
  const code = industriesIn(v)[0]?.code;
  if (!code) {
    call.warn({
      code: 'unknown_industry',
      field,
      message: `'${v}' names no JSIC industry; the filter was not applied (give a JSIC letter A-T, or put the words in need)`,
    });
    return undefined;
  }
  call.warn({ code: 'normalised', field, message: `'${v}' was read as JSIC ${code}` });
  return code;
}
