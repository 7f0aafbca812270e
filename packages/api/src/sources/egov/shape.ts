// What the e-Gov 法令API v2 answers (https://laws.e-gov.go.jp/api/2/, JSON):
//   GET /law_revisions/{law_id}  → {law_info: {law_id, law_num, …}, revisions: [revision_info…]}
//   GET /law_data/{law_id_or_num_or_revision_id}
//                                → {law_info, revision_info, law_full_text: {tag, attr, children}}
// revision_info: {law_revision_id, law_title, amendment_promulgate_date,
// amendment_enforcement_date, current_revision_status, repeal_status, …}.
// As for jGrants (../jgrants/shape.ts): a changed shape is drift (stop, write
// nothing); a right shape with unusable content is a per-law error.
import { ShapeDrift, truncate } from '../drift.ts';

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

function check(obj: unknown, where: string, fields: Record<string, 'string' | 'string?'>): string[] {
  if (!isObject(obj)) return [`${where} is not an object`];
  const out: string[] = [];
  for (const [f, kind] of Object.entries(fields)) {
    const v = obj[f];
    if (v === undefined) {
      if (kind === 'string') out.push(`${where}.${f} missing`);
    } else if (!(typeof v === 'string' || (kind === 'string?' && v === null)))
      out.push(`${where}.${f}: expected string, got ${v === null ? 'null' : typeof v}`);
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

export function revisionsOf(body: unknown): { lawInfo: LawInfo; revisions: RevisionInfo[] } {
  const problems = isObject(body) ? check(body.law_info, 'law_info', LAW_INFO) : ['answer is not an object'];
  if (isObject(body) && !Array.isArray(body.revisions)) problems.push('revisions is not an array');
  else if (isObject(body)) (body.revisions as unknown[]).forEach((r, i) => problems.push(...check(r, `revisions[${i}]`, REVISION_INFO)));
  if (problems.length > 0) throw new ShapeDrift(`law_revisions: ${problems.join('; ')}`, truncate(body));
  const b = body as { law_info: LawInfo; revisions: RevisionInfo[] };
  return { lawInfo: b.law_info, revisions: b.revisions };
}

export function lawDataOf(body: unknown): { lawInfo: LawInfo; revision: RevisionInfo; fullText: LawNode } {
  const problems = isObject(body)
    ? [...check(body.law_info, 'law_info', LAW_INFO), ...check(body.revision_info, 'revision_info', REVISION_INFO)]
    : ['answer is not an object'];
  if (isObject(body) && !(isObject(body.law_full_text) && typeof body.law_full_text.tag === 'string'))
    problems.push('law_full_text is not an element {tag, attr, children}');
  if (problems.length > 0) throw new ShapeDrift(`law_data: ${problems.join('; ')}`, truncate(body));
  const b = body as { law_info: LawInfo; revision_info: RevisionInfo; law_full_text: LawNode };
  return { lawInfo: b.law_info, revision: b.revision_info, fullText: b.law_full_text };
}
