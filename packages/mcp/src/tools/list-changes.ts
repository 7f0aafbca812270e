// list_changes (toolset `informed`): the change feed, oldest first from a cursor.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { f, o } from '../lib/fields.ts';

export const listChanges = defineTool({
  name: 'list_changes',
  title: 'Change feed',
  description:
    'List what each dataset version created, amended (with the changed fields) or removed: programmes, enforcement records, tax rulesets and laws, oldest first. Pass next_cursor back as since to continue or to poll later.',
  input: {
    since: z.string().max(64).optional().describe('Cursor from an earlier call (next_cursor); omit to start at the beginning of the feed'),
    kind: z
      .array(z.string().max(40))
      .max(16)
      .optional()
      .describe('Kinds (program, enforcement, tax_ruleset, law) or event types (program.created, program.amended, …)'),
    prefecture: f.prefecture('Only records of this prefecture'),
    limit: f.limit(500, 100, 'events'),
  },
  output: {
    results: o.rows(),
    next_cursor: z.string().describe('Cursor to continue from'),
    has_more: z.boolean().describe('More events follow now'),
  },
  annotations: READ_ONLY,
  empty: { results: [], next_cursor: '', has_more: false },
  async run(call, a) {
    const page = await call.api.changes.list({ since: a.since, kind: a.kind, prefecture: a.prefecture, limit: a.limit });
    const out = { results: page.results, next_cursor: page.next_cursor, has_more: page.has_more, latest_version: page.latest_version };
    if (page.results.length > 0) return out;
    return {
      ...out,
      coverage: { since: a.since ?? null, latest_version: page.latest_version ?? null, kinds: a.kind ?? null },
      explanation:
        page.latest_version === null || page.latest_version === undefined
          ? 'No dataset version has been recorded yet: the feed starts with the first published version.'
          : `No change after this cursor up to version ${String(page.latest_version)}; poll later with next_cursor.`,
    };
  },
});
