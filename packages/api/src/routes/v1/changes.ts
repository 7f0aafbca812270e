// GET /v1/changes: the public change feed, oldest first, from a cursor;
// GET /v1/changes/versions: the dataset versions, newest first. The feed is
// written by the ingest command (changes/record.ts); these routes only read.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChangesQuery, ChangesResponse, VersionsResponse } from '../../schemas/changes.ts';
import { decodeCursor, encodeCursor, feedItem } from '../../changes/feed-item.ts';
import { CHANGE_TYPES, RECORD_KINDS, type DatasetVersion, type EventType, type RecordKind } from '../../state/repositories/changes.ts';
import { HttpError } from '../../plugins/errors.ts';
import { DATA_READ, operations } from '../operation.ts';

const changesOperation = operations(DATA_READ, 'changes');

const invalid = (message: string): never => {
  throw new HttpError(400, `Invalid querystring: ${message}`);
};

/** A version as the API shows it. */
export function versionOut(v: DatasetVersion) {
  return {
    version: v.version,
    fingerprint: v.fingerprint,
    baseline: v.baseline,
    recorded_at: v.recordedAt,
    counts: v.counts,
    change_counts: v.changeCounts,
    cursor: encodeCursor(v.lastSeq),
  };
}

const EVENT_TYPES = new Set(RECORD_KINDS.flatMap((k) => CHANGE_TYPES.map((c) => `${k}.${c}`)));

/** `kind` values (repeated or comma-separated; a kind stands for its three event types) as event types; 400 for anything else. */
function eventTypes(values: string[] | undefined): EventType[] {
  const types = new Set<EventType>();
  for (const value of (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)) {
    if ((RECORD_KINDS as readonly string[]).includes(value)) for (const c of CHANGE_TYPES) types.add(`${value as RecordKind}.${c}`);
    else if (EVENT_TYPES.has(value)) types.add(value as EventType);
    else
      invalid(`kind: unknown kind or event type ${JSON.stringify(value.slice(0, 40))}; one of ${RECORD_KINDS.join(', ')} or <kind>.${CHANGE_TYPES.join('|')}`);
  }
  return [...types];
}

const changesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/changes',
    changesOperation(
      'listChanges',
      'The change feed: programmes, enforcement records, tax rulesets and laws created, amended or removed by each dataset version',
      {
        description:
          "Oldest first from `since`. Follow `next_cursor`; an empty page still returns a cursor to poll with later. Sequence numbers have no gaps: a version's events appear all at once.",
        querystring: ChangesQuery,
        response: { 200: ChangesResponse },
      },
      [400, 401, 429],
    ),
    async (request) => {
      const q = request.query;
      const afterSeq = q.since === undefined ? 0 : (decodeCursor(q.since) ?? invalid('since: not a cursor of this feed'));
      const limit = q.limit ?? 100;
      const types = eventTypes(q.kind);
      // The head first: a page never reads past the last committed version.
      const head = await app.state.changes.head();
      if (afterSeq > head.lastSeq) invalid('since: the cursor is ahead of the feed');
      const events = await app.state.changes.events({ afterSeq, upToSeq: head.lastSeq, types, prefecture: q.prefecture, limit: limit + 1 });
      const hasMore = events.length > limit;
      const page = events.slice(0, limit);
      const latest = await app.state.changes.latestVersion();
      return {
        results: page.map(feedItem),
        next_cursor: encodeCursor(hasMore ? page[page.length - 1].seq : head.lastSeq),
        has_more: hasMore,
        latest_version: latest ? versionOut(latest) : null,
      };
    },
  );

  app.get(
    '/changes/versions',
    changesOperation('listDatasetVersions', 'Dataset versions recorded, newest first (at most 100)', { response: { 200: VersionsResponse } }, [401, 429]),
    async () => ({ results: (await app.state.changes.versions(100)).map(versionOut) }),
  );
};

export default changesRoutes;
