// Reviewed corrections of purposes, audiences and industries the dataset gives
// (docs/decisions/0309-given-tags-reviewed.md). Ingest keeps a value the dataset
// publishes (tagging.ts maps it onto the vocabulary) and derives only what is
// missing, so a wrong upstream value would stay for good: 雇用就農資金 was given
// 設備投資 and 省エネ・脱炭素 (the expense categories 施設建設, 環境対応 read as
// purposes), 人材開発支援助成金 the industry 医療，福祉 (the ministry's remit, not the
// applicant's trade).
//
// `givenTagsWithoutEvidence` is the rule that finds such values: a purpose the
// dataset gives that nothing the record says of itself supports (tagging.ts run
// without the given values), or an industry its own name contradicts. Each value
// it finds is reviewed by a person and written to
// data/overrides/tag-corrections.jsonl, one line per record and field, with the
// dataset's value as found (`given`), the reviewed value (`values`, vocabulary
// terms; an empty list lets the rules derive the field) and the reason. Ingest
// applies a line only while the dataset still gives that value, and the field's
// provenance then says `corrected:reviewed`.
import path from 'node:path';
import { AUDIENCE_TERMS, INDUSTRY_CODES, PURPOSE_TERMS, industriesIn } from '@jp-support/vocab';
import { readReviewedLines } from './reviewed-file.ts';
import { tagProgramme, type TaggingInput } from './tagging.ts';

export const TAG_FIELDS = ['funding_purpose', 'target_types', 'jsic_majors'] as const;
export type TagField = (typeof TAG_FIELDS)[number];

export interface TagCorrection {
  unified_id: string;
  field: TagField;
  /** The dataset's value the line was reviewed against; the line applies only while the dataset gives exactly this. */
  given: string[];
  /** The reviewed value, in vocabulary terms (JSIC codes for industries); [] lets the rules derive the field. */
  values: string[];
  reason: string;
}

/** The provenance of a corrected field (the rules' own provenance follows it when they derive the field). */
export const CORRECTED = 'corrected:reviewed';

export const TAG_CORRECTIONS_FILE = path.join(import.meta.dirname, '..', '..', '..', '..', 'data', 'overrides', 'tag-corrections.jsonl');

const TERMS: Readonly<Record<TagField, readonly string[]>> = {
  funding_purpose: PURPOSE_TERMS,
  target_types: AUDIENCE_TERMS,
  jsic_majors: INDUSTRY_CODES,
};

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The reviewed corrections by unified_id; a line that is not reviewed data (unknown field or term, no reason) is an error. */
export function readTagCorrections(file = TAG_CORRECTIONS_FILE): Map<string, TagCorrection[]> {
  const out = new Map<string, TagCorrection[]>();
  readReviewedLines<TagCorrection>(file, (c) => {
    const fieldOk = (TAG_FIELDS as readonly string[]).includes(c.field);
    const valuesOk = fieldOk && isStringList(c.values) && c.values.every((v) => TERMS[c.field].includes(v));
    if (!c.unified_id || !valuesOk || !isStringList(c.given) || !c.reason?.trim()) {
      return `needs unified_id, a field (${TAG_FIELDS.join(', ')}), the given value, values of the vocabulary, and a reason`;
    }
    const list = out.get(c.unified_id) ?? [];
    if (list.some((o) => o.field === c.field)) return `a second line for ${c.unified_id} ${c.field}`;
    list.push(c);
    out.set(c.unified_id, list);
    return null;
  });
  return out;
}

const sameList = (a: readonly string[] | null | undefined, b: readonly string[]): boolean => (a ?? []).length === b.length && b.every((v, i) => a![i] === v);

/**
 * The record with its reviewed corrections applied, and the fields they changed (for the provenance).
 * A line whose `given` no longer matches the dataset's value is not applied: the upstream value changed
 * and needs a new review.
 */
export function withTagCorrections<T extends { unified_id: string } & Partial<Record<TagField, string[] | null>>>(
  record: T,
  corrections: ReadonlyMap<string, readonly TagCorrection[]>,
): { record: T; corrected: TagField[] } {
  const lines = corrections.get(record.unified_id);
  if (!lines) return { record, corrected: [] };
  let out = record;
  const corrected: TagField[] = [];
  for (const c of lines) {
    if (!sameList(record[c.field], c.given)) continue;
    out = { ...out, [c.field]: c.values.length > 0 ? c.values : null };
    corrected.push(c.field);
  }
  return { record: out, corrected };
}

// An employment or labour measure of the ministry of health, labour and welfare (キャリアアップ助成金,
// 人材開発支援助成金, 教育訓練給付金, 再就職手当): the dataset gives many of them 医療，福祉 (P), the ministry's
// remit, although they serve employers or workers of every trade.
const LABOUR_MEASURE =
  /雇用|雇入|雇い入れ|賃金|賃上げ|訓練|求職|就職|働き方|キャリアアップ|人材開発|人材確保|職場|労働|退職|年休|インターバル|受動喫煙|エイジフレンドリー/u;

/**
 * The values the dataset gives that the record's own evidence does not support: purposes none of the
 * rules find in its name, kind or body (tagging.ts without the given values), and industries its name
 * contradicts (the name names other industries, or a labour measure is given 医療，福祉 with no word of
 * that industry). Candidates for review, not corrections.
 */
export function givenTagsWithoutEvidence(input: TaggingInput): { field: TagField; values: string[] }[] {
  const given = tagProgramme(input);
  const derived = tagProgramme({ ...input, fundingPurpose: null, targetTypes: null, jsicMajors: null });
  const out: { field: TagField; values: string[] }[] = [];
  if ((input.fundingPurpose ?? []).length > 0) {
    const unsupported = given.purposes.values.filter((v) => !derived.purposes.values.includes(v));
    if (unsupported.length > 0) out.push({ field: 'funding_purpose', values: unsupported });
  }
  if ((input.jsicMajors ?? []).length > 0) {
    const named = new Set(industriesIn(input.name).map((h) => h.code));
    const contradicted = derived.industries.values.length > 0 && !given.industries.values.some((v) => derived.industries.values.includes(v));
    const remit = given.industries.values.filter((v) => v === 'P' && !named.has('P') && LABOUR_MEASURE.test(input.name));
    const unsupported = contradicted ? given.industries.values.filter((v) => !named.has(v)) : remit;
    if (unsupported.length > 0) out.push({ field: 'jsic_majors', values: unsupported });
  }
  return out;
}
