// enum_values: the values (with counts) that occur for a filterable field.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { AUTHORITY_LEVEL } from '../lib/enums.ts';
import { f, o } from '../lib/fields.ts';

const ENUM_FIELDS = [
  'target_type',
  'funding_purpose',
  'program_kind',
  'authority_level',
  'prefecture',
  'event_type',
  'ministry',
  'loan_type',
  'provider',
  'programs_used',
] as const;

/** The entity-store enumeration behind each field; fields without one are answered otherwise or honestly not at all. */
const ENUM_SOURCES: Partial<Record<(typeof ENUM_FIELDS)[number], string>> = {
  target_type: 'target_type',
  funding_purpose: 'funding_purpose',
  program_kind: 'program_kind',
  prefecture: 'region',
  event_type: 'event_type',
  ministry: 'ministry',
  loan_type: 'loan_type',
  provider: 'loan_provider',
};

export const enumValues = defineTool({
  name: 'enum_values',
  title: 'Values of a filter field',
  description: 'Values that occur, with counts, for a filter field of search_programs and the record sets. Use to pick a valid filter value.',
  input: {
    field: z.enum(ENUM_FIELDS).describe('The field whose values to list'),
    limit: f.limit(200, 50, 'values'),
  },
  output: {
    field: z.string().describe('The field'),
    values: z.array(z.object({ value: z.string(), count: z.number() })).describe('Values, most frequent first'),
    results: o.rows(),
  },
  annotations: READ_ONLY,
  empty: { field: '', values: [], results: [] },
  async run(call, a) {
    const list = (freq: Record<string, number>, names?: string[]) =>
      (names ?? Object.keys(freq))
        .map((value) => ({ value, count: freq[value] ?? 0 }))
        .sort((x, y) => y.count - x.count || x.value.localeCompare(y.value))
        .slice(0, a.limit);
    if (a.field === 'authority_level') {
      const levels = AUTHORITY_LEVEL.options;
      const totals = await Promise.all(levels.map((level) => call.api.programs.search({ authority_level: level, limit: 1, fields: 'minimal' })));
      const values = list(Object.fromEntries(levels.map((l, i) => [l, totals[i].total])));
      return { field: a.field, values, results: values };
    }
    const amName = ENUM_SOURCES[a.field];
    if (!amName) {
      const message = `The catalogue does not record ${a.field} as a separate field.`;
      return {
        field: a.field,
        values: [],
        results: [],
        explanation: message,
        error: { code: 'no_matching_records', message, hint: 'Use enum_values_am for the entity-store enumerations.' },
      };
    }
    const body = await call.api.am.enums(amName);
    if (body.error) return { field: a.field, values: [], results: [], error: body.error };
    const values = list((body.frequency_map ?? {}) as Record<string, number>, body.values as string[] | undefined);
    return { field: a.field, values, results: values };
  },
});
