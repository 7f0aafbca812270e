// What the e-Gov 法令API v2 answers (https://laws.e-gov.go.jp/api/2/, JSON):
//   GET /law_revisions/{law_id}  → {law_info: {law_id, law_num, …}, revisions: [revision_info…]}
//   GET /law_data/{law_id_or_num_or_revision_id}
//                                → {law_info, revision_info, law_full_text: {tag, attr, children}}
// revision_info: {law_revision_id, law_title, amendment_promulgate_date,
// amendment_enforcement_date, current_revision_status, repeal_status, …}.
// As for jGrants (../jgrants/shape.ts): a changed envelope is drift (stop,
// write nothing); a field of another shape or an unusable value makes that law
// a bad record, set aside unless the source drifted as a whole (../quarantine.ts).
import { ShapeDrift, truncate } from '../drift.ts';
import type { RecordProblem } from '../quarantine.ts';

export interface RevisionInfo {
  law_revision_id: string;
  law_title: string;
  amendment_promulgate_date: string | null;
  amendment_enforcement_date: string | null;
  current_revision_status: string | null;
  repeal_status: string | null;
}

export interface LawInfo {
  law_id: string;
  law_num: string | null;
  promulgation_date: string | null;
}

/** A node of law_full_text: an element {tag, attr, children} or a text string. */
export type LawNode = string | { tag: string; attr?: Record<string, string>; children?: LawNode[] };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Field problems of one object; `field` is `where` without an index (`revisions[].law_title`), so records can be counted per field. */
function check(obj: Record<string, unknown>, where: string, fields: Record<string, 'string' | 'string?'>): RecordProblem[] {
  const out: RecordProblem[] = [];
  const field = (f: string) => `${where.replace(/\[\d+\]/g, '[]')}.${f}`;
  for (const [f, kind] of Object.entries(fields)) {
    const v = obj[f];
    if (v === undefined) {
      if (kind === 'string') out.push({ field: field(f), message: `${where}.${f} missing` });
    } else if (!(typeof v === 'string' || (kind === 'string?' && v === null)))
      out.push({ field: field(f), message: `${where}.${f}: expected string, got ${v === null ? 'null' : typeof v}` });
  }
  return out;
}

const LAW_INFO = { law_id: 'string', law_num: 'string?', promulgation_date: 'string?' } as const;
const REVISION_INFO = {
  law_revision_id: 'string',
  law_title: 'string',
  amendment_promulgate_date: 'string?',
  amendment_enforcement_date: 'string?',
  current_revision_status: 'string?',
  repeal_status: 'string?',
} as const;

/**
 * The shape of an answer: `envelope` problems (an object that is not one, a
 * list that is not a list, a text that is no element tree) mean the API
 * changed and stop the sync (ShapeDrift, with every problem); field problems
 * inside the envelope make this one law a bad record (set aside, ../quarantine.ts).
 */
interface Shape {
  envelope: string[];
  fields: RecordProblem[];
}

function revisionsShape(body: unknown): Shape {
  if (!isObject(body)) return { envelope: ['answer is not an object'], fields: [] };
  const out: Shape = { envelope: [], fields: [] };
  if (!isObject(body.law_info)) out.envelope.push('law_info is not an object');
  else out.fields.push(...check(body.law_info, 'law_info', LAW_INFO));
  if (!Array.isArray(body.revisions)) out.envelope.push('revisions is not an array');
  else
    body.revisions.forEach((r: unknown, i: number) => {
      if (isObject(r)) out.fields.push(...check(r, `revisions[${i}]`, REVISION_INFO));
      else out.envelope.push(`revisions[${i}] is not an object`);
    });
  return out;
}

function lawDataShape(body: unknown): Shape {
  if (!isObject(body)) return { envelope: ['answer is not an object'], fields: [] };
  const out: Shape = { envelope: [], fields: [] };
  for (const [name, spec] of [
    ['law_info', LAW_INFO],
    ['revision_info', REVISION_INFO],
  ] as const) {
    if (isObject(body[name])) out.fields.push(...check(body[name], name, spec));
    else out.envelope.push(`${name} is not an object`);
  }
  if (!(isObject(body.law_full_text) && typeof body.law_full_text.tag === 'string')) out.envelope.push('law_full_text is not an element {tag, attr, children}');
  return out;
}

/** Throws ShapeDrift (naming every problem) when the envelope is not the documented one. */
function refuseEnvelope(what: string, shape: Shape, body: unknown): void {
  if (shape.envelope.length > 0) throw new ShapeDrift(`${what}: ${[...shape.fields.map((p) => p.message), ...shape.envelope].join('; ')}`, truncate(body));
}

/** Checks the envelope of a law_revisions answer (throws ShapeDrift); returns the field problems of its records. */
export function revisionsEnvelope(body: unknown): RecordProblem[] {
  const shape = revisionsShape(body);
  refuseEnvelope('law_revisions', shape, body);
  return shape.fields;
}

/** Checks the envelope of a law_data answer (throws ShapeDrift); returns the field problems of its records. */
export function lawDataEnvelope(body: unknown): RecordProblem[] {
  const shape = lawDataShape(body);
  refuseEnvelope('law_data', shape, body);
  return shape.fields;
}

/** A law_revisions answer of the documented shape (checked: revisionsEnvelope returned no problem). */
export function revisionsOf(body: unknown): { lawInfo: LawInfo; revisions: RevisionInfo[] } {
  const b = body as { law_info: LawInfo; revisions: RevisionInfo[] };
  return { lawInfo: b.law_info, revisions: b.revisions };
}

/** A law_data answer of the documented shape (checked: lawDataEnvelope returned no problem). */
export function lawDataOf(body: unknown): { lawInfo: LawInfo; revision: RevisionInfo; fullText: LawNode } {
  const b = body as { law_info: LawInfo; revision_info: RevisionInfo; law_full_text: LawNode };
  return { lawInfo: b.law_info, revision: b.revision_info, fullText: b.law_full_text };
}
