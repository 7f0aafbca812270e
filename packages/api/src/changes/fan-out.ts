// What a new dataset version sets in motion, inside the transaction that
// records it: every saved search is evaluated against the programmes the
// version created or amended (its matches are stored), and webhook
// deliveries are queued: one per programme event for the endpoints that
// listen to its type, and one `saved_search.matched` per saved search with
// matches for the endpoints of the search's key. Each delivery's `source`
// (the event, or the search and version) makes a second run queue nothing.
import type { Catalog } from '../catalog/catalog.ts';
import { readProgramQuery } from '../catalog/programs/query.ts';
import type { ChangeEvent, DatasetVersion, FanOut } from '../state/repositories/changes.ts';
import { allSavedSearches, insertMatches, type SavedSearch } from '../state/repositories/saved-searches.ts';
import { activeEndpoints, queueDeliveries, type QueuedDelivery } from '../state/repositories/webhook-endpoints.ts';
import { feedItem } from './feed-item.ts';
import { jstDate } from '../lib/time.ts';

/** The event types a webhook endpoint may listen to. */
export const WEBHOOK_EVENTS = ['program.created', 'program.amended', 'program.removed', 'saved_search.matched'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The JSON body of a delivery: its stable id, its type, when, and the data. */
export function webhookBody(deliveryId: string, type: string, createdAt: string, data: unknown): string {
  return JSON.stringify({ id: deliveryId, type, created_at: createdAt, data });
}

/** The saved_search.matched data of one search in one version. */
export function matchedData(search: Pick<SavedSearch, 'id' | 'name'>, version: number, events: readonly ChangeEvent[]) {
  return {
    saved_search: { id: search.id, name: search.name },
    version,
    matches: events.map((e) => ({ event_id: `chg_${e.seq}`, type: e.type, unified_id: e.recordId, primary_name: e.title })),
  };
}

export function savedSearchFanOut(catalog: Catalog): FanOut {
  return async (q, events, version: DatasetVersion) => {
    const programEvents = events.filter((e) => e.kind === 'program');
    const candidates = programEvents.filter((e) => e.type === 'program.created' || e.type === 'program.amended');
    const candidateIds = new Set(candidates.map((e) => e.recordId));
    const endpoints = await activeEndpoints(q);
    const deliveries: QueuedDelivery[] = [];

    for (const search of await allSavedSearches(q)) {
      const matched = catalog.programs.matchingIds(readProgramQuery(search.query, jstDate(new Date(version.recordedAt))), candidateIds);
      if (matched.size === 0) continue;
      const hits = candidates.filter((e) => matched.has(e.recordId));
      await insertMatches(
        q,
        hits.map((e) => ({
          savedSearchId: search.id,
          seq: e.seq,
          version: version.version,
          type: e.type,
          unifiedId: e.recordId,
          primaryName: e.title,
        })),
      );
      for (const endpoint of endpoints) {
        if (endpoint.keyId !== search.keyId || !endpoint.events.includes('saved_search.matched')) continue;
        deliveries.push({
          endpointId: endpoint.id,
          source: `match:${search.id}:v${version.version}`,
          eventType: 'saved_search.matched',
          payload: (id) => webhookBody(id, 'saved_search.matched', version.recordedAt, matchedData(search, version.version, hits)),
        });
      }
    }
    for (const event of programEvents) {
      for (const endpoint of endpoints) {
        if (!endpoint.events.includes(event.type)) continue;
        deliveries.push({
          endpointId: endpoint.id,
          source: `event:${event.seq}`,
          eventType: event.type,
          payload: (id) => webhookBody(id, event.type, event.recordedAt, feedItem(event)),
        });
      }
    }
    await queueDeliveries(q, deliveries, version.recordedAt);
  };
}
