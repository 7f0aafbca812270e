// A search hit as the program search serves it (the page and the exports):
// the row in the shape `fields` selects, plus the other records of the same
// programme (`also_listed_as`) and, with explain, the score parts. Two forms
// of one rule: an object (exports, which stream rows) and JSON text built on
// the record's cached JSON (the page, catalog/program-bodies.ts).
import type { Static } from 'typebox';
import type { SearchResponse } from '../../../schemas/programs.ts';
import { shapeRow, type FieldsShape, type ProgramRow } from '../../../catalog/queries/programs.ts';
import type { ProgramSearch, SearchHit } from '../../../catalog/search/engine.ts';
import { explainParts } from '../../../catalog/search/rank.ts';
import { withMembers } from '../../../catalog/program-bodies.ts';

export type SearchHitRow = Static<typeof SearchResponse>['results'][number];

/** The members a hit adds after the record's own (in this order). */
function hitMembers(search: ProgramSearch, hit: SearchHit, fields: FieldsShape): Record<string, unknown> {
  const members: Record<string, unknown> = {};
  if (fields !== 'minimal' && hit.also.length > 0) {
    members.also_listed_as = hit.also.map((pid) => {
      const other = search.index.rows[pid];
      return { unified_id: other.unifiedId, primary_name: other.primaryName };
    });
  }
  if (hit.parts) members.score = explainParts(hit.parts);
  return members;
}

export function hitRow(search: ProgramSearch, row: ProgramRow, hit: SearchHit, fields: FieldsShape): SearchHitRow {
  return Object.assign(shapeRow(row, fields, false), hitMembers(search, hit, fields)) as unknown as SearchHitRow;
}

/** The same hit as JSON text, from the record's JSON in the shape `fields` selects. */
export function hitJson(search: ProgramSearch, recordJson: string, hit: SearchHit, fields: FieldsShape): string {
  return withMembers(recordJson, hitMembers(search, hit, fields));
}
