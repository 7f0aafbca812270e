// Deadline calendars: GET /v1/calendar/deadlines.ics (RFC 5545, for calendar
// apps to subscribe to) and GET /v1/calendar/deadlines (the same events as
// JSON). Filters: those of GET /v1/programs/search, or `saved_search_id` (a
// saved search of the presented key). Events from today (Japan time) on,
// unless include_past.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ATTRIBUTION, Attribution, Nullable } from '../../schemas/common.ts';
import { savedSearchQuerySchema } from '../../schemas/programs.ts';
import { deadlineEvents, MAX_EVENTS } from '../../calendar/deadlines.ts';
import { deadlinesIcs } from '../../calendar/ics.ts';
import type { ProgramQuery } from '../../catalog/programs/query.ts';
import type { TSchema } from 'typebox';
import { HttpError } from '../../plugins/errors.ts';
import { jstDate } from '../../lib/time.ts';
import { checkedQuery } from './me/saved-searches.ts';
import { DATA_READ, operations } from '../operation.ts';

const calendarOperation = operations(DATA_READ, 'calendar');

const DeadlineEvent = Type.Object(
  {
    uid: Type.String({ description: 'stable UID of the calendar event' }),
    unified_id: Type.String(),
    primary_name: Type.String(),
    prefecture: Nullable(Type.String()),
    authority_name: Nullable(Type.String()),
    kind: Type.String({ description: "`deadline` (the window's closing day) or `opening` (only an opening day is published)" }),
    date: Type.String({ description: "the event's day, YYYY-MM-DD, Japan time" }),
    window_start: Nullable(Type.String()),
    window_end: Nullable(Type.String()),
    source_url: Nullable(Type.String()),
  },
  { $id: 'DeadlineEvent' },
);

const DeadlinesResponse = Type.Object(
  {
    total: Type.Integer(),
    truncated: Type.Boolean({ description: `more than ${MAX_EVENTS} events matched; the first ${MAX_EVENTS} by date are listed` }),
    results: Type.Array(DeadlineEvent),
    attribution: Attribution,
  },
  { $id: 'DeadlinesResponse' },
);

const calendarRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const saved = savedSearchQuerySchema(app.programSearchParameters);
  const CalendarQuery = Type.Object(
    {
      ...saved.properties,
      saved_search_id: Type.Optional(Type.String({ maxLength: 64, description: 'Use a saved search of the presented key instead of the filters.' })),
      include_past: Type.Optional(Type.Boolean({ default: false, description: 'Also windows whose day has passed (default: from today, Japan time).' })),
    },
    { additionalProperties: false },
  );
  /** The filters of a calendar request: the saved search's, or the query's own. */
  async function queryOf(request: FastifyRequest): Promise<{ query: ProgramQuery; name: string }> {
    const q = request.query as Record<string, unknown> & { saved_search_id?: string };
    // A value equal to its schema default (filled in by validation) is no filter of the caller's.
    const given = (f: string) => q[f] !== undefined && q[f] !== (saved.properties[f] as TSchema & { default?: unknown }).default;
    const filters = Object.fromEntries(
      Object.keys(saved.properties)
        .filter(given)
        .map((f) => [f, q[f]]),
    );
    if (q.saved_search_id === undefined)
      return { query: checkedQuery(filters, app.programSearchParameters, 'Invalid querystring: '), name: '補助金・助成金の締切 / Programme deadlines' };
    if (Object.keys(filters).length > 0) throw new HttpError(400, 'Invalid querystring: saved_search_id cannot be combined with search filters');
    const identity = request.identity;
    const search = identity.kind === 'key' ? await app.state.savedSearches.get(q.saved_search_id, identity.key.id) : null;
    if (!search) throw new HttpError(404, `Saved search not found: ${q.saved_search_id}`);
    return { query: checkedQuery(search.query, app.programSearchParameters, 'Invalid saved search: '), name: `締切: ${search.name}` };
  }

  const events = async (request: FastifyRequest) => {
    const { query, name } = await queryOf(request);
    const today = jstDate();
    const from = (request.query as { include_past?: boolean }).include_past ? null : today;
    return { name, ...deadlineEvents(app.catalog, query, from) };
  };

  app.get(
    '/calendar/deadlines.ics',
    calendarOperation(
      'getDeadlineCalendarIcs',
      'Application deadlines as an iCalendar file (RFC 5545): one all-day event per application window, with its source URL',
      { querystring: CalendarQuery, response: { 200: { description: 'text/calendar', content: { 'text/calendar': { schema: { type: 'string' } } } } } },
      [400, 401, 404, 429],
    ),
    async (request, reply) => {
      const { name, events: list } = await events(request);
      const stamp = new Date(app.catalog.meta.last_ingested_at || 0);
      reply.type('text/calendar; charset=utf-8').header('content-disposition', 'inline; filename="deadlines.ics"');
      return deadlinesIcs(list, { name, stamp: Number.isNaN(stamp.getTime()) ? new Date(0) : stamp });
    },
  );

  app.get(
    '/calendar/deadlines',
    calendarOperation(
      'getDeadlineCalendar',
      "The deadline calendar's events as JSON (the same filters as the .ics)",
      { querystring: CalendarQuery, response: { 200: DeadlinesResponse } },
      [400, 401, 404, 429],
    ),
    async (request) => {
      const { events: list, truncated } = await events(request);
      return { total: list.length, truncated, results: list, attribution: ATTRIBUTION };
    },
  );
};

export default calendarRoutes;
