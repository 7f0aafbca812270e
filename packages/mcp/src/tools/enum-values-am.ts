// enum_values_am: the values and counts of one entity-store enumeration.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';

const AM_ENUMS = [
  'authority',
  'tier',
  'industry',
  'funding_purpose',
  'target_type',
  'region',
  'tax_category',
  'program_kind',
  'loan_type',
  'event_type',
  'ministry',
  'certification_authority',
] as const;

export const enumValuesAm = defineTool({
  name: 'enum_values_am',
  title: 'Values of an entity enumeration',
  description: 'Values with counts of one enumeration (authority, industry, region, …). Use to pick a valid filter value for the *_am tools.',
  input: { enum_name: z.enum(AM_ENUMS).describe('The enumeration') },
  output: {
    enum_name: z.string().describe('The enumeration'),
    values: z.array(z.string()).describe('Values'),
    frequency_map: z.record(z.number()).describe('Value to count'),
  },
  annotations: READ_ONLY,
  empty: { enum_name: '', values: [], frequency_map: {} },
  async run(call, a) {
    const body = await call.api.am.enums(a.enum_name);
    return { ...body, result_count: Array.isArray(body.values) ? body.values.length : 0 };
  },
});
