// A local fake of the parts of Stripe's HTTP API the service uses, spoken the
// way the official SDK speaks it: form-encoded bodies with bracketed keys
// (`line_items[0][price]=…`), Bearer secret keys, `Idempotency-Key` replay,
// Stripe's error envelope `{error: {type, code, message, param}}`. A real
// node:http server on 127.0.0.1, so the real `stripe` SDK runs unmodified
// against it (STRIPE_API_BASE=fake.baseUrl).
//
// Test controls: complete a checkout session (creates customer and
// subscription), add invoices, fail the next N calls with 500 (before or after
// processing, to simulate a lost response), and build signed webhook events
// (signed here with node:crypto, independently of the SDK that verifies them).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

type Obj = Record<string, any>;

export interface RecordedRequest {
  method: string;
  path: string;
  query: Obj;
  body: Obj;
  idempotencyKey: string | null;
}

export interface FailureRule {
  /** Remaining calls to fail. */
  remaining: number;
  status: number;
  /** Only requests whose path starts with this fail (default: every path). */
  pathPrefix: string;
  /** Process the request first, then answer with the failure (a lost response). */
  afterProcessing: boolean;
  /** Stripe's error object to answer with (default: an api_error "injected failure"). */
  error?: { type: string; message: string; code?: string; param?: string };
}

export interface MeterEventRecord {
  identifier: string;
  event_name: string;
  payload: Record<string, string>;
  timestamp: number;
  created: number;
}

const now = (): number => Math.floor(Date.now() / 1000);
const id = (prefix: string): string => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** Parse `a[b][0][c]=v` style keys (as the SDK's qs encoding writes them) into nested objects/arrays. */
export function parseStripeForm(raw: string): Obj {
  const out: Obj = {};
  if (!raw) return out;
  for (const part of raw.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const k = decodeURIComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
    const v = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    const m = /^([^[]+)((?:\[[^\]]*\])*)$/.exec(k);
    if (!m) continue;
    const path = [m[1], ...[...m[2].matchAll(/\[([^\]]*)\]/g)].map((x) => x[1])];
    let cur: any = out;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i];
      const last = i === path.length - 1;
      const key = seg === '' && Array.isArray(cur) ? cur.length : seg;
      if (last) {
        cur[key] = v;
      } else {
        const nextIsIndex = /^\d*$/.test(path[i + 1]);
        cur[key] ??= nextIsIndex ? [] : {};
        cur = cur[key];
      }
    }
  }
  return out;
}

class StripeFakeError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | undefined;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, opts: { type?: string; code?: string; param?: string; headers?: Record<string, string> } = {}) {
    super(message);
    this.status = status;
    this.type = opts.type ?? 'invalid_request_error';
    this.code = opts.code;
    this.param = opts.param;
    this.headers = opts.headers ?? {};
  }
}

const missing = (kind: string, value: string, param: string): StripeFakeError =>
  new StripeFakeError(404, `No such ${kind}: '${value}'`, { code: 'resource_missing', param });

export interface FakeStripeOptions {
  /** Metered price ids the fake knows (checkout refuses a quantity for them, as Stripe does). */
  meteredPrices?: string[];
  /** Webhook signing secret used by `signedEvent`. */
  webhookSecret?: string;
}

export class FakeStripe {
  readonly server: Server;
  readonly webhookSecret: string;
  readonly meteredPrices: Set<string>;
  readonly requests: RecordedRequest[] = [];
  readonly customers = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  readonly portalSessions: Obj[] = [];
  readonly subscriptions = new Map<string, Obj>();
  readonly invoices = new Map<string, Obj>();
  /** Accepted meter events by identifier (what Stripe bills). */
  readonly meterEvents = new Map<string, MeterEventRecord>();
  /** Every POST /v1/billing/meter_events that reached the handler, including rejected duplicates. */
  meterEventAttempts = 0;
  /** Meter-event identifiers refused with a permanent 400 (e.g. a deleted customer). */
  readonly refusedIdentifiers = new Set<string>();
  private readonly failures: FailureRule[] = [];
  private readonly idempotent = new Map<string, { status: number; body: string }>();
  private url = '';

  constructor(options: FakeStripeOptions = {}) {
    this.meteredPrices = new Set(options.meteredPrices ?? ['price_test_metered']);
    this.webhookSecret = options.webhookSecret ?? `whsec_test_${randomBytes(16).toString('hex')}`;
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  /** Start listening on 127.0.0.1 (random port, or `port`). */
  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    const address = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${address.port}`;
    return this;
  }

  /** An outage: stop listening (connections are refused) until `resume()`. */
  async pause(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Listen again on the same port after `pause()`. */
  async resume(): Promise<void> {
    await this.start(Number(new URL(this.url).port));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  get baseUrl(): string {
    return this.url;
  }

  /** Environment that points the service at this fake. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: this.webhookSecret,
      STRIPE_PRICE_ID: [...this.meteredPrices][0],
      STRIPE_API_BASE: this.baseUrl,
      ...extra,
    };
  }

  // ----- test controls -----

  /** Fail the next `count` matching calls with `status` (default 500). */
  failNext(count: number, options: Partial<Omit<FailureRule, 'remaining'>> = {}): void {
    this.failures.push({
      remaining: count,
      status: options.status ?? 500,
      pathPrefix: options.pathPrefix ?? '/',
      afterProcessing: options.afterProcessing ?? false,
      error: options.error,
    });
  }

  /** Distinct meter-event identifiers Stripe accepted (each is billed once). */
  get billedIdentifiers(): string[] {
    return [...this.meterEvents.keys()];
  }

  /** What a meter that sums its events' values bills: the accepted events' values added up (of one customer when given). */
  billedUnits(customerId?: string): number {
    let units = 0;
    for (const ev of this.meterEvents.values()) {
      const payload = ev.payload as { stripe_customer_id?: string; value?: string };
      if (customerId === undefined || payload.stripe_customer_id === customerId) units += Number(payload.value ?? 0);
    }
    return units;
  }

  createCustomer(fields: Obj = {}): Obj {
    const customer = { id: fields.id ?? id('cus'), object: 'customer', created: now(), email: fields.email ?? null, livemode: false, metadata: {} };
    this.customers.set(customer.id, customer);
    return customer;
  }

  /**
   * Mark a checkout session paid and complete, creating its customer (unless
   * the session has one) and an active subscription on the session's price.
   */
  completeSession(
    sessionId: string,
    options: { paymentStatus?: string; customerId?: string; subscriptionId?: string } = {},
  ): { session: Obj; subscription: Obj; customer: Obj } {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`unknown session ${sessionId}`);
    const customer =
      this.customers.get(options.customerId ?? session.customer ?? '') ??
      this.createCustomer({ id: options.customerId, email: session.customer_email ?? session.customer_details?.email ?? null });
    const price = session._line_items?.[0]?.price ?? [...this.meteredPrices][0];
    const subscription = this.createSubscription(customer.id, price, options.subscriptionId);
    Object.assign(session, {
      status: 'complete',
      payment_status: options.paymentStatus ?? 'paid',
      customer: customer.id,
      subscription: subscription.id,
      customer_details: { email: customer.email },
    });
    return { session, subscription, customer };
  }

  createSubscription(customerId: string, price: string, subscriptionId?: string): Obj {
    const start = now();
    const sub = {
      id: subscriptionId ?? id('sub'),
      object: 'subscription',
      customer: customerId,
      status: 'active',
      created: start,
      start_date: start,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      livemode: false,
      metadata: {},
      items: {
        object: 'list',
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            price: { id: price, object: 'price', recurring: { usage_type: 'metered', interval: 'month' } },
            current_period_start: start,
            current_period_end: start + 30 * 86400,
          },
        ],
        has_more: false,
        url: '/v1/subscription_items',
      },
    };
    this.subscriptions.set(sub.id, sub);
    return sub;
  }

  /** Add an invoice for a customer (Stripe's Invoice fields that the service reads). */
  addInvoice(customerId: string, fields: Obj = {}): Obj {
    const created = fields.created ?? now();
    const invoice = {
      id: id('in'),
      object: 'invoice',
      customer: customerId,
      number: `FAKE-${String(this.invoices.size + 1).padStart(4, '0')}`,
      currency: 'jpy',
      amount_due: 300,
      amount_paid: 300,
      status: 'paid',
      created,
      period_start: created - 30 * 86400,
      period_end: created,
      hosted_invoice_url: `${this.url}/invoice/hosted`,
      invoice_pdf: `${this.url}/invoice/pdf`,
      livemode: false,
      parent: null,
      ...fields,
    };
    this.invoices.set(invoice.id, invoice);
    return invoice;
  }

  /** Build a webhook event and its `t=…,v1=…` signature header (Stripe's scheme). */
  signedEvent(type: string, object: Obj, options: { id?: string; timestamp?: number; secret?: string } = {}): { payload: string; header: string; event: Obj } {
    const event = {
      id: options.id ?? id('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    };
    const payload = JSON.stringify(event);
    return { payload, header: this.sign(payload, options), event };
  }

  /** Signature header for a raw payload. */
  sign(payload: string, options: { timestamp?: number; secret?: string } = {}): string {
    const t = options.timestamp ?? now();
    const v1 = createHmac('sha256', options.secret ?? this.webhookSecret)
      .update(`${t}.${payload}`, 'utf8')
      .digest('hex');
    return `t=${t},v1=${v1}`;
  }

  // ----- HTTP -----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const query = parseStripeForm(url.search.slice(1));
    const body = method === 'POST' ? parseStripeForm(raw) : {};
    const idem = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    this.requests.push({ method, path: url.pathname, query, body, idempotencyKey: idem });

    const send = (status: number, payload: unknown, headers: Record<string, string> = {}): void => {
      const text = JSON.stringify(payload);
      if (idem && method === 'POST') this.idempotent.set(idem, { status, body: text });
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...headers });
      res.end(text);
    };

    if (!/^Bearer sk_(test|live)_\S+$/.test(String(req.headers.authorization ?? ''))) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }));
      return;
    }
    if (idem && method === 'POST') {
      const replay = this.idempotent.get(idem);
      if (replay) {
        res.writeHead(replay.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        res.end(replay.body);
        return;
      }
    }

    const rule = this.failures.find((f) => f.remaining > 0 && url.pathname.startsWith(f.pathPrefix));
    if (rule) rule.remaining--;
    const failure = { error: rule?.error ?? { type: 'api_error', message: 'Fake Stripe: injected failure' } };
    if (rule && !rule.afterProcessing) {
      // Never processed: not stored under the idempotency key, so a retry runs for real.
      res.writeHead(rule.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(failure));
      return;
    }

    try {
      const result = this.route(method, url.pathname, query, body);
      if (rule) return send(rule.status, failure);
      send(200, result);
    } catch (err) {
      if (err instanceof StripeFakeError) {
        send(err.status, { error: { type: err.type, code: err.code, message: err.message, param: err.param } }, err.headers);
      } else {
        send(500, { error: { type: 'api_error', message: String((err as Error).message) } });
      }
    }
  }

  private route(method: string, path: string, query: Obj, body: Obj): unknown {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createCheckoutSession(body);
    if (method === 'GET' && (m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) {
      const s = this.sessions.get(decodeURIComponent(m[1]));
      if (!s) throw missing('checkout.session', decodeURIComponent(m[1]), 'session');
      return this.publicSession(s);
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') return this.createPortalSession(body);
    if (method === 'POST' && path === '/v1/billing/meter_events') return this.createMeterEvent(body);
    if (method === 'GET' && path === '/v1/invoices') return this.listInvoices(query);
    if (method === 'GET' && (m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const s = this.subscriptions.get(decodeURIComponent(m[1]));
      if (!s) throw missing('subscription', decodeURIComponent(m[1]), 'id');
      return s;
    }
    if (method === 'POST' && path === '/v1/customers') return this.createCustomer({ email: body.email });
    if (method === 'GET' && (m = /^\/v1\/customers\/([^/]+)$/.exec(path))) {
      const c = this.customers.get(decodeURIComponent(m[1]));
      if (!c) throw missing('customer', decodeURIComponent(m[1]), 'id');
      return c;
    }
    throw new StripeFakeError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  private createCheckoutSession(body: Obj): Obj {
    if (!body.mode) throw new StripeFakeError(400, 'Missing required param: mode.', { code: 'parameter_missing', param: 'mode' });
    if (!['payment', 'setup', 'subscription'].includes(body.mode)) {
      throw new StripeFakeError(400, `Invalid mode: ${body.mode}`, { code: 'parameter_invalid_string', param: 'mode' });
    }
    if (!body.success_url) throw new StripeFakeError(400, 'Missing required param: success_url.', { code: 'parameter_missing', param: 'success_url' });
    const items: Obj[] = Array.isArray(body.line_items) ? body.line_items : [];
    if (body.mode === 'subscription' && items.length === 0) {
      throw new StripeFakeError(400, 'Missing required param: line_items.', { code: 'parameter_missing', param: 'line_items' });
    }
    items.forEach((item, i) => {
      if (!item.price)
        throw new StripeFakeError(400, `Missing required param: line_items[${i}][price].`, { code: 'parameter_missing', param: `line_items[${i}][price]` });
      if (!this.meteredPrices.has(item.price)) throw missing('price', item.price, `line_items[${i}][price]`);
      if (item.quantity !== undefined) {
        throw new StripeFakeError(400, 'Quantity should not be specified where usage_type is `metered`. Remove quantity from `line_items[0]`', {
          param: `line_items[${i}][quantity]`,
        });
      }
    });
    if (body.customer && !this.customers.has(body.customer)) throw missing('customer', body.customer, 'customer');
    const sid = id('cs');
    const session = {
      id: sid,
      object: 'checkout.session',
      mode: body.mode,
      status: 'open',
      payment_status: 'unpaid',
      url: `${this.url}/c/pay/${sid}`,
      success_url: body.success_url,
      cancel_url: body.cancel_url ?? null,
      customer: body.customer ?? null,
      customer_email: body.customer_email ?? null,
      client_reference_id: body.client_reference_id ?? null,
      subscription: null,
      created: now(),
      expires_at: now() + 86400,
      livemode: false,
      metadata: body.metadata ?? {},
      _line_items: items,
    };
    this.sessions.set(sid, session);
    return this.publicSession(session);
  }

  private publicSession(s: Obj): Obj {
    const { _line_items, ...rest } = s;
    void _line_items;
    return rest;
  }

  private createPortalSession(body: Obj): Obj {
    if (!body.customer) throw new StripeFakeError(400, 'Missing required param: customer.', { code: 'parameter_missing', param: 'customer' });
    if (!this.customers.has(body.customer)) throw missing('customer', body.customer, 'customer');
    const session = {
      id: id('bps'),
      object: 'billing_portal.session',
      customer: body.customer,
      return_url: body.return_url ?? null,
      url: `${this.url}/p/session/${randomBytes(8).toString('hex')}`,
      created: now(),
      livemode: false,
    };
    this.portalSessions.push(session);
    return session;
  }

  private createMeterEvent(body: Obj): Obj {
    this.meterEventAttempts++;
    if (!body.event_name) throw new StripeFakeError(400, 'Missing required param: event_name.', { code: 'parameter_missing', param: 'event_name' });
    const payload = (body.payload ?? {}) as Record<string, string>;
    if (!payload.stripe_customer_id)
      throw new StripeFakeError(400, 'Missing required param: payload[stripe_customer_id].', { code: 'parameter_missing', param: 'payload' });
    if (payload.value === undefined || !Number.isFinite(Number(payload.value))) {
      throw new StripeFakeError(400, 'payload[value] must be a number.', { param: 'payload' });
    }
    const identifier = body.identifier ?? id('mev');
    if (this.refusedIdentifiers.has(identifier)) {
      throw new StripeFakeError(400, `No customer found for payload[stripe_customer_id] of event ${identifier}.`, {
        param: 'payload',
        headers: { 'stripe-should-retry': 'false' },
      });
    }
    if (this.meterEvents.has(identifier)) {
      // What Stripe answers for a repeated identifier: a 400 it marks as not retryable.
      throw new StripeFakeError(400, `An event already exists with identifier ${identifier}.`, { headers: { 'stripe-should-retry': 'false' } });
    }
    const timestamp = body.timestamp === undefined ? now() : Number(body.timestamp);
    if (timestamp < now() - 35 * 86400 || timestamp > now() + 300) {
      throw new StripeFakeError(400, 'timestamp must be within the past 35 calendar days or up to 5 minutes in the future.', { param: 'timestamp' });
    }
    const record: MeterEventRecord = { identifier, event_name: body.event_name, payload, timestamp, created: now() };
    this.meterEvents.set(identifier, record);
    return { object: 'billing.meter_event', livemode: false, ...record };
  }

  private listInvoices(query: Obj): Obj {
    const limit = Math.min(Math.max(Number(query.limit ?? 10), 1), 100);
    let rows = [...this.invoices.values()];
    if (query.customer) rows = rows.filter((i) => i.customer === query.customer);
    rows.sort((a, b) => b.created - a.created);
    return { object: 'list', url: '/v1/invoices', has_more: rows.length > limit, data: rows.slice(0, limit) };
  }
}

/** Start a fake and stop it after the test. */
export async function startFakeStripe(t: { after(fn: () => unknown): void }, options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const fake = await new FakeStripe(options).start();
  t.after(() => fake.stop());
  return fake;
}
