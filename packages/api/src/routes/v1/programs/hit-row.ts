// A search hit as the program search serves it (the page and the exports):
// the row in the shape `fields` selects, plus the other records of the same
// programme (`also_listed_as`) and, with explain, the score parts.
import type { Static } from 'typebox';
import type { SearchResponse } from '../../../schemas/programs.ts';
import { shapeRow, type FieldsShape, type ProgramRow } from '../../../catalog/queries/programs.ts';
import type { ProgramSearch, SearchHit } from '../../../catalog/search/engine.ts';
import { explainParts } from '../../../catalog/search/rank.ts';

export type SearchHitRow = Static<typeof SearchResponse>['results'][number];

export function hitRow(search: ProgramSearch, row: ProgramRow, hit: SearchHit, fields: FieldsShape): SearchHitRow {
  const shaped = shapeRow(row, fields, false) as Record<string, unknown>;
  if (fields !== 'minimal' && hit.also.length > 0) {
    shaped.also_listed_as = hit.also.map((pid) => {
      const other = search.index.rows[pid];
      return { unified_id: other.unifiedId, primary_name: other.primaryName };
    });
  }
  if (hit.parts) shaped.score = explainParts(hit.parts);
  return shaped as unknown as SearchHitRow;
}
