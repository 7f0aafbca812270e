// get_program: one program by unified id, at a chosen level of detail.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { PROGRAM_SHAPE } from '../lib/enums.ts';
import { o, RECORD_EMPTY } from '../lib/fields.ts';

const isEmpty = (v: unknown): boolean =>
  v === null ||
  v === undefined ||
  v === '' ||
  (typeof v === 'object' && !Array.isArray(v) && Object.values(v as object).every((x) => x === null || x === undefined));

/** The fields an adviser cites that the record carries empty (only those the shape asked for has). */
function notRecorded(r: Row): string[] {
  const out: string[] = [];
  if ('application_window' in r && isEmpty(r.application_window)) out.push('application window');
  if ('amount_max_man_yen' in r && isEmpty(r.amount_max_man_yen) && r.program_kind !== 'certification') out.push('maximum amount');
  if ('subsidy_rate' in r && isEmpty(r.subsidy_rate) && (r.program_kind === 'subsidy' || r.program_kind === 'grant')) out.push('subsidy rate');
  if ('official_url' in r && isEmpty(r.official_url)) out.push('source URL');
  return out;
}

export const getProgram = defineTool({
  name: 'get_program',
  title: 'Get one program',
  description:
    "One programme by its id (UNI-…). Use to cite a programme's details after a search; fields=full for the whole record. Not for several ids (batch_get_programs).",
  input: {
    unified_id: z.string().min(1).max(100).describe('Program id, e.g. UNI-0123456789'),
    fields: PROGRAM_SHAPE.default('default').describe('minimal (7 keys), default (all fields) or full (plus enrichment and lineage)'),
  },
  output: { record: o.record() },
  annotations: READ_ONLY,
  empty: RECORD_EMPTY,
  async run(call, a) {
    const record: Row = await call.api.programs.get(a.unified_id, { fields: a.fields });
    // What an adviser would cite and the record does not hold: said, so a missing window is not read as "open all year".
    const missing = notRecorded(record);
    if (missing.length === 0) return { record };
    const url = typeof record.official_url === 'string' ? record.official_url : null;
    return {
      record,
      coverage: { not_recorded: missing },
      explanation: `Not recorded for this programme: ${missing.join(', ')}; ${url ? `read ${missing.length > 1 ? 'them' : 'it'} at ${url}` : 'no source URL is held either'} before citing.`,
    };
  },
});
