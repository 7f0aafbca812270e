// Prefecture and region arguments: aliases normalised through the shared
// vocabulary; an unknown name is dropped with a warning, never a silent
// 0-row filter.
import { normalizePrefecture } from '@jp-support/vocab';
import type { ToolCall } from './define.ts';

/** Normalise an optional prefecture argument. */
export function prefectureArg(call: ToolCall, value: string | undefined, field = 'prefecture'): string | undefined {
  if (value === undefined || value === '') return undefined;
  const name = normalizePrefecture(value);
  if (name === null) {
    call.warn({ code: 'unknown_prefecture', field, message: `'${value}' is not one of the 47 prefectures; the filter was not applied` });
    return undefined;
  }
  if (name !== value) call.warn({ code: 'normalised', field, message: `'${value}' was read as ${name}` });
  return name;
}

/** A region argument: 'national' / '全国' means no filter; otherwise a prefecture (aliases normalised). */
export function regionArg(call: ToolCall, region: string | undefined): string | undefined {
  if (!region || region === 'national' || region === '全国') return undefined;
  return prefectureArg(call, region, 'region');
}
