// Saved searches, customer webhooks and e-mail subscribers.
import { Type, type TSchema } from 'typebox';
import { Nullable } from './common.ts';
import { SearchQuery } from './programs.ts';
import { PROGRAM_QUERY_FIELDS } from '../catalog/queries/program-query.ts';
import { WEBHOOK_EVENTS } from '../changes/fan-out.ts';

const searchProperties = SearchQuery.properties as Record<string, TSchema>;

/** The filter parameters of GET /v1/programs/search (no paging, no shape), as a JSON object. */
export const SavedSearchQuery = Type.Object(Object.fromEntries(PROGRAM_QUERY_FIELDS.map((name) => [name, searchProperties[name]])), {
  $id: 'SavedSearchQuery',
  additionalProperties: false,
  description: 'The same parameters as GET /v1/programs/search (not limit, offset, fields).',
});

export const SavedSearchCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'Your label, shown in notifications.' }),
    query: SavedSearchQuery,
  },
  { additionalProperties: false },
);

const Match = Type.Object({
  event_id: Type.String(),
  type: Type.String({ description: '`program.created` or `program.amended`' }),
  unified_id: Type.String(),
  primary_name: Nullable(Type.String()),
  version: Type.Integer(),
  matched_at: Type.String(),
});

export const SavedSearch = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    query: Type.Record(Type.String(), Type.Unknown()),
    created_at: Type.String(),
    match_count: Type.Integer({ description: 'matches recorded since it was saved' }),
    last_matched_at: Nullable(Type.String()),
  },
  { $id: 'SavedSearch' },
);

export const SavedSearchDetail = Type.Object(
  { ...SavedSearch.properties, recent_matches: Type.Array(Match, { description: 'the newest 50 matches, newest first' }) },
  { $id: 'SavedSearchDetail' },
);

export const SavedSearchList = Type.Object({ results: Type.Array(SavedSearch) }, { $id: 'SavedSearchList' });

export const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const WebhookCreate = Type.Object(
  {
    url: Type.String({
      minLength: 8,
      maxLength: 2000,
      description: 'https URL that receives POSTed JSON events; private, loopback and link-local addresses are refused.',
    }),
    events: Type.Array(Type.Union(WEBHOOK_EVENTS.map((e) => Type.Literal(e))), { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true }),
    description: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const Webhook = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Nullable(Type.String()),
    status: Type.String({ description: '`active` or `disabled`' }),
    disabled_reason: Nullable(Type.String({ description: 'why it was disabled (after WEBHOOK_DISABLE_AFTER consecutive failures)' })),
    consecutive_failures: Type.Integer(),
    created_at: Type.String(),
    disabled_at: Nullable(Type.String()),
  },
  { $id: 'Webhook' },
);

export const WebhookCreated = Type.Object(
  { ...Webhook.properties, secret: Type.String({ description: 'signing secret, shown only in this answer' }) },
  { $id: 'WebhookCreated' },
);

export const WebhookList = Type.Object({ results: Type.Array(Webhook) }, { $id: 'WebhookList' });

export const WebhookDelivery = Type.Object(
  {
    id: Type.String({ description: "stable delivery id (also the payload's `id` and the JPSP-Delivery-Id header): deduplicate on it" }),
    event_type: Type.String(),
    status: Type.String({ description: '`pending`, `delivered` or `failed` (attempts exhausted)' }),
    attempts: Type.Integer(),
    last_status: Nullable(Type.Integer({ description: 'HTTP status of the last attempt' })),
    last_error: Nullable(Type.String()),
    next_attempt_at: Nullable(Type.String()),
    created_at: Type.String(),
    delivered_at: Nullable(Type.String()),
  },
  { $id: 'WebhookDelivery' },
);

export const WebhookDeliveries = Type.Object({ results: Type.Array(WebhookDelivery) }, { $id: 'WebhookDeliveryList' });

export const WebhookTestQueued = Type.Object({ delivery_id: Type.String(), status: Type.Literal('queued') }, { $id: 'WebhookTestQueued' });

export const SubscribeRequest = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, format: 'email' }),
    saved_search_id: Type.Optional(Type.String({ maxLength: 64, description: 'one of your saved searches (needs the key that owns it)' })),
    search: Type.Optional(
      Type.Object(
        { name: Type.String({ minLength: 1, maxLength: 100 }), query: SavedSearchQuery },
        {
          additionalProperties: false,
          description: 'or a search of its own, kept only as long as the subscription',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const SubscribeAccepted = Type.Object({ status: Type.Literal('accepted'), detail: Type.String() }, { $id: 'SubscribeAccepted' });
