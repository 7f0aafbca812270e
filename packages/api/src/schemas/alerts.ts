// Saved searches, customer webhooks and e-mail subscribers.
import { Type } from 'typebox';
import { Nullable, StoredName } from './common.ts';
import { perTable, savedSearchQuerySchema } from './programs.ts';
import { WEBHOOK_EVENTS } from '../changes/fan-out.ts';

export const savedSearchCreateSchema = perTable((table) =>
  Type.Object(
    {
      name: StoredName({ minLength: 1, maxLength: 100, description: 'Your label, shown in notifications (one line).' }),
      query: savedSearchQuerySchema(table),
    },
    { additionalProperties: false },
  ),
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
    description: Type.Optional(StoredName({ maxLength: 200 })),
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

export const subscribeRequestSchema = perTable((table) =>
  Type.Object(
    {
      email: Type.String({ minLength: 3, maxLength: 254, format: 'email' }),
      saved_search_id: Type.Optional(Type.String({ maxLength: 64, description: 'one of your saved searches (needs the key that owns it)' })),
      search: Type.Optional(
        Type.Object(
          { name: StoredName({ minLength: 1, maxLength: 100 }), query: savedSearchQuerySchema(table) },
          {
            additionalProperties: false,
            description: 'or a search of its own, kept only as long as the subscription',
          },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

export const SubscribeAccepted = Type.Object({ status: Type.Literal('accepted'), detail: Type.String() }, { $id: 'SubscribeAccepted' });
