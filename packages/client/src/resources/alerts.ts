import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/me/saved_searches: saved program searches whose new and amended matches are notified (key required). */
export class SavedSearches extends APIResource {
  async create(body: T.SavedSearchCreateRequest, options?: CallOptions): Promise<T.SavedSearch> {
    return this._client.post('/v1/me/saved_searches', { body, ...options });
  }

  async list(options?: CallOptions): Promise<T.SavedSearchList> {
    return this._client.get('/v1/me/saved_searches', options);
  }

  /** One saved search with its newest matches; `NotFoundError` for another key's or an unknown id. */
  async get(id: string, options?: CallOptions): Promise<T.SavedSearchDetail> {
    return this._client.get(path`/v1/me/saved_searches/${id}`, options);
  }

  async delete(id: string, options?: CallOptions): Promise<void> {
    return this._client.delete(path`/v1/me/saved_searches/${id}`, { idempotent: true, ...options });
  }
}

/** /v1/me/webhooks: signed event deliveries to your endpoints (key required). */
export class Webhooks extends APIResource {
  /** Register an endpoint; the answer's `secret` is shown only here (verify `JPSP-Signature` with it). */
  async create(body: T.WebhookCreateRequest, options?: CallOptions): Promise<T.WebhookCreated> {
    return this._client.post('/v1/me/webhooks', { body, ...options });
  }

  async list(options?: CallOptions): Promise<T.WebhookList> {
    return this._client.get('/v1/me/webhooks', options);
  }

  async delete(id: string, options?: CallOptions): Promise<void> {
    return this._client.delete(path`/v1/me/webhooks/${id}`, { idempotent: true, ...options });
  }

  /** Queue a signed `webhook.test` delivery. */
  async test(id: string, options?: CallOptions): Promise<T.WebhookTestQueued> {
    return this._client.post(path`/v1/me/webhooks/${id}/test`, options);
  }

  async deliveries(id: string, query: T.WebhookDeliveriesQuery = {}, options?: CallOptions): Promise<T.WebhookDeliveries> {
    return this._client.get(path`/v1/me/webhooks/${id}/deliveries`, { query, ...options });
  }
}

/** /v1/subscribers: e-mail digests of a saved search, confirmed by a link. */
export class Subscribers extends APIResource {
  /** The same answer whether or not the address is known; a confirmation mail follows. */
  async subscribe(body: T.SubscribeRequest, options?: CallOptions): Promise<T.SubscribeResponse> {
    return this._client.post('/v1/subscribers', { body, ...options });
  }

  /** Confirm with the token of the confirmation mail's link (what its page's button does); the answer is that page (HTML). */
  async confirm(token: string, options?: CallOptions): Promise<string> {
    return this._client.post('/v1/subscribers/confirm', { query: { token }, headers: { accept: 'text/html' }, ...options });
  }

  /** Unsubscribe with the token of a mail's unsubscribe link: the address is deleted; the answer is a page (HTML). */
  async unsubscribe(token: string, options?: CallOptions): Promise<string> {
    return this._client.post('/v1/subscribers/unsubscribe', { query: { token }, headers: { accept: 'text/html' }, ...options });
  }
}

/** /v1/calendar: application deadlines as iCalendar or JSON. */
export class Calendar extends APIResource {
  /** GET /v1/calendar/deadlines: the events as JSON. */
  async deadlines(query: T.DeadlineCalendarQuery = {}, options?: CallOptions): Promise<T.DeadlineCalendarResponse> {
    return this._client.get('/v1/calendar/deadlines', { query, ...options });
  }

  /** GET /v1/calendar/deadlines.ics: the RFC 5545 text (or subscribe a calendar app to that URL). */
  async deadlinesIcs(query: T.DeadlineCalendarQuery = {}, options?: CallOptions): Promise<string> {
    return this._client.get('/v1/calendar/deadlines.ics', { query, headers: { accept: 'text/calendar' }, ...options });
  }
}
