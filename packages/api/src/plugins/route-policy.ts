// What a route is, declared in its own options, in the manner of
// @fastify/rate-limit's per-route `config.rateLimit`:
//
//   app.get('/search', { config: { access: 'public', counter: 'daily', billed: true }, schema, … }, handler)
//
// The declaration is checked and completed with the defaults below once per
// route, when the route is added (`onRoute`), and kept as `config.policy`.
// The auth, limits and usage hooks read that, and nothing else decides who
// may call a route or what it costs: handlers never check identity or limits.
// A route without a declaration stops the app at startup. HEAD routes that
// Fastify adds for GET routes copy the GET route's `config`, so they inherit.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

/** Who may call the route. */
export const ACCESS = {
  /** Anyone. A key, when one is sent, must be valid (401 otherwise) and then identifies the caller. */
  public: 'anyone; a key, when sent, must be valid',
  /** A valid API key (401 "An API key is required…" without one). */
  key: 'an API key is required',
  /** The key bound to the advisor named by the route's `:id`; another key gets the 404 of an unknown advisor. */
  advisor: 'the API key bound to this advisor is required',
  /** The operator key ADMIN_API_KEY in `X-Admin-Key` or `Authorization: Bearer`; unset -> 404, wrong -> 403. API keys are not read. */
  admin: 'operator only (ADMIN_API_KEY)',
  /** A valid API key bound to an advisor (403 otherwise); the route acts for that advisor (`request.advisor`). */
  advisorKey: 'an API key bound to an advisor is required',
  /** The payment provider: the billing service verifies the signature over the raw body (400 otherwise). */
  signature: 'the payment provider, by the signature of the body',
} as const;
export type Access = keyof typeof ACCESS;

/**
 * Which allowance a call takes. `daily`: the anonymous per-address allowance
 * (Japan-time day) or the free key's (UTC day); paid keys have no volume
 * limit. A counted call made with a key is also recorded as a usage event.
 */
export type Counter = 'daily';

/** A named per-day limit of the route's own, on top of its counter (see plugins/limits.ts). */
export type ExtraLimit = 'feedback' | 'portal' | 'writes' | 'subscribe' | 'checkout' | 'webhookTests';

/** What a route declares in `config`. Only `access` is required. */
export interface RouteDeclaration {
  access: Access;
  /** Default null: never counted, never recorded as usage. */
  counter?: Counter | null;
  /**
   * Default false. True: a 2xx answer to a paid key costs one unit
   * (UNIT_PRICE_YEN), within the key's monthly cap; needs a counter. Every
   * billed call is one unit (a batch counts once, as the contract says).
   */
  billed?: boolean;
  /** Default null. */
  extraLimit?: ExtraLimit | null;
  /**
   * Default false. True: a browser session route of the developer portal
   * (session.ts). When no key is sent, the session cookie stands in for one;
   * an unsafe method without a key must come from this server's own origin
   * (CSRF). Only `public` and `key` routes may declare it.
   * 'pages': a data route the portal's pages call (the explore page's
   * searches). When no key is sent, the session cookie stands in for one
   * only on a request from this server's own pages (any method, since a call
   * may be billed); from anywhere else the cookie is ignored and the call is
   * anonymous, as it would be without it. Only `public` routes.
   */
  session?: Session;
  /**
   * Default 'request': one unit of the counter per request. 'jsonrpc-message':
   * one unit per JSON-RPC message of the body (a batch of n takes n), taken
   * once the body is parsed; each is recorded as a usage event of a key.
   */
  units?: Units;
  /**
   * Default null. A route that can stream its rows as an export
   * (`format=csv|jsonl`): such an answer costs one unit per started
   * `unitRows` rows, for the daily allowance and billing alike, taken before
   * the first byte is sent (plugins/limits.ts `takeUnits`). Any other answer
   * of the route costs one unit as usual. Needs a counter and `units: 'request'`.
   */
  unitRows?: number | null;
  /**
   * Default true. False: an anonymous call is checked against its address's
   * allowance (429 once it is spent) but takes nothing from it; calls with a
   * key are counted as usual. For `/v1/ping`, whose anonymous calls the
   * contract does not count (docs/decisions/0263-ping-remaining-agrees-with-the-header.md).
   */
  countsAnonymous?: boolean;
}

export type Units = 'request' | 'jsonrpc-message';

export type Session = boolean | 'pages';

/** The declaration as the hooks read it: checked, defaults filled, frozen. */
export interface RoutePolicy {
  readonly access: Access;
  readonly counter: Counter | null;
  readonly billed: boolean;
  readonly extraLimit: ExtraLimit | null;
  readonly session: Session;
  readonly units: Units;
  readonly unitRows: number | null;
  readonly countsAnonymous: boolean;
}

/** What a declaration leaves out (test/plugins/route-policy.test.ts spells them out once). */
export const DEFAULTS = { counter: null, billed: false, extraLimit: null, session: false, units: 'request', unitRows: null, countsAnonymous: true } as const;

/** Requests that matched no route (404): anyone, never counted. */
const UNROUTED: RoutePolicy = Object.freeze({ access: 'public', ...DEFAULTS });

/** Routes registered by third-party plugins, which cannot carry our `config`. */
const PLUGIN_ROUTES: Record<string, RouteDeclaration> = {
  // @fastify/cors: preflight requests are answered by its onRequest hook.
  'OPTIONS *': { access: 'public' },
};

declare module 'fastify' {
  interface FastifyContextConfig extends Partial<RouteDeclaration> {
    /** Set at onRoute time from the fields above; read it with `policyOf`. */
    policy?: RoutePolicy;
  }
  interface FastifyInstance {
    /** Every route's policy, by `METHOD url` (HEAD routes included), for introspection and tests. */
    routePolicies: ReadonlyMap<string, RoutePolicy>;
  }
}

const COUNTERS: readonly (Counter | null)[] = ['daily', null];
const EXTRA_LIMITS: readonly (ExtraLimit | null)[] = ['feedback', 'portal', 'writes', 'subscribe', 'checkout', 'webhookTests', null];

/** Check a route's declaration and fill the defaults; throws, naming the route, when it is missing or inconsistent. */
export function resolvePolicy(route: Pick<RouteOptions, 'method' | 'url' | 'config'>): RoutePolicy {
  const name = `${[route.method].flat().join(',')} ${route.url}`;
  const declared: Partial<RouteDeclaration> = { ...PLUGIN_ROUTES[name], ...route.config };
  const fail = (why: string): never => {
    throw new Error(`Route ${name}: ${why} (see packages/api/src/plugins/route-policy.ts)`);
  };
  if (declared.access === undefined) fail("no declaration: add config: { access: 'public' | 'key' | … } to its options");
  if (!Object.hasOwn(ACCESS, declared.access!)) fail(`unknown access '${declared.access}'`);
  const policy: RoutePolicy = {
    access: declared.access!,
    counter: declared.counter ?? DEFAULTS.counter,
    billed: declared.billed ?? DEFAULTS.billed,
    extraLimit: declared.extraLimit ?? DEFAULTS.extraLimit,
    session: declared.session ?? DEFAULTS.session,
    units: declared.units ?? DEFAULTS.units,
    unitRows: declared.unitRows ?? DEFAULTS.unitRows,
    countsAnonymous: declared.countsAnonymous ?? DEFAULTS.countsAnonymous,
  };
  if (policy.units !== 'request' && policy.units !== 'jsonrpc-message') fail(`unknown units '${policy.units}'`);
  if (policy.units === 'jsonrpc-message' && (!policy.counter || policy.billed)) fail("units 'jsonrpc-message' needs a counter and is never billed itself");
  if (policy.unitRows !== null && !(Number.isInteger(policy.unitRows) && policy.unitRows > 0))
    fail(`unitRows must be a positive integer, got ${policy.unitRows}`);
  if (policy.unitRows !== null && (!policy.counter || policy.units !== 'request'))
    fail("a route with unitRows must be counted per request: add counter: 'daily'");
  if (!COUNTERS.includes(policy.counter)) fail(`unknown counter '${policy.counter}'`);
  if (!EXTRA_LIMITS.includes(policy.extraLimit)) fail(`unknown extraLimit '${policy.extraLimit}'`);
  if (policy.billed && !policy.counter) fail("a billed route must be counted: add counter: 'daily'");
  if (!policy.countsAnonymous && (policy.counter !== 'daily' || policy.billed || policy.units !== 'request'))
    fail("countsAnonymous: false is for an unbilled route counted per request (counter: 'daily')");
  if (policy.session !== false && policy.session !== true && policy.session !== 'pages') fail(`unknown session '${policy.session}'`);
  if (policy.session && policy.access !== 'public' && policy.access !== 'key') fail(`access '${policy.access}' cannot accept the browser session`);
  if (policy.session === 'pages' && policy.access !== 'public') fail("session 'pages' is for public routes (a key route declares session: true)");
  if (policy.access === 'advisor' && !/\/:id(\/|$)/.test(route.url ?? '')) fail("access 'advisor' needs an :id parameter naming the advisor");
  return Object.freeze(policy);
}

/** The extra limits, in words, for the published document (their figures are settings). */
const EXTRA_LIMIT_TEXT: Record<ExtraLimit, string> = {
  feedback: 'FEEDBACK_DAILY_LIMIT messages per caller per Japan-time day',
  subscribe: 'SUBSCRIBE_DAILY_LIMIT sign-ups per caller per Japan-time day',
  portal: 'PORTAL_DAILY_LIMIT portal sessions per caller (key, else client address) per Japan-time day',
  writes: 'WRITE_DAILY_LIMIT writes per caller (key, else client address) per Japan-time day, shared by the writes open to anonymous callers',
  checkout: 'CHECKOUT_DAILY_LIMIT checkout sessions and key look-ups per caller (key, else client address) per Japan-time day, shared by both routes',
  webhookTests: 'WEBHOOK_TEST_DAILY_LIMIT test requests per key per Japan-time day',
};

/** One line for an operation's description in the published document: who may call it and what it costs. */
export function describePolicy(policy: RoutePolicy): string {
  const parts = [`Access: ${ACCESS[policy.access]}.`];
  const unit = policy.units === 'jsonrpc-message' ? ' per JSON-RPC message of the body' : '';
  parts.push(
    policy.counter === 'daily' ? `Counted${unit}: takes the daily allowance of an anonymous caller or free key; recorded as usage of a key.` : 'Not counted.',
  );
  parts.push(policy.billed ? 'Billed: one unit per 2xx answer to a paid key.' : 'Never billed.');
  if (policy.unitRows)
    parts.push(
      `Exports (format=csv or jsonl): each started ${policy.unitRows} rows count as one request${policy.billed ? ' and one billed unit' : ''}, taken before the first row is sent.`,
    );
  if (policy.extraLimit) parts.push(`Own limit: ${EXTRA_LIMIT_TEXT[policy.extraLimit]}.`);
  if (policy.session === 'pages')
    parts.push(
      "Browser session: on a call from this server's own pages, the developer portal's session cookie (POST /v1/session) stands in for a key; elsewhere it is ignored.",
    );
  else if (policy.session)
    parts.push(
      "Browser session: the developer portal's session cookie (POST /v1/session) stands in for a key; without a key, a POST must come from this server's own pages.",
    );
  return parts.join(' ');
}

/** The same as OpenAPI vendor extensions of the operation. */
export function policyExtensions(policy: RoutePolicy): Record<`x-${string}`, unknown> {
  return {
    'x-access': policy.access,
    'x-counter': policy.counter,
    'x-billed': policy.billed,
    ...(policy.extraLimit ? { 'x-extra-limit': policy.extraLimit } : {}),
    ...(policy.session ? { 'x-session': policy.session } : {}),
    ...(policy.units !== 'request' ? { 'x-units': policy.units } : {}),
    ...(policy.unitRows ? { 'x-unit-rows': policy.unitRows } : {}),
  };
}

/** The policy of the route a request matched. */
export function policyOf(request: Pick<FastifyRequest, 'routeOptions'> | CountedCall): RoutePolicy {
  return request.routeOptions.config.policy ?? UNROUTED;
}

/**
 * What the limits and the usage recording read and write of one call: a
 * FastifyRequest, or a call a tool makes in process without a request of its
 * own (routes/mcp-calls.ts), which names the route it stands for.
 */
export interface CountedCall {
  readonly id: string;
  readonly method: string;
  readonly log: FastifyRequest['log'];
  readonly identity: FastifyRequest['identity'];
  readonly routeOptions: { readonly url?: string; readonly config: { readonly policy?: RoutePolicy } };
  quota: FastifyRequest['quota'];
  units: number;
  spendReservations: FastifyRequest['spendReservations'];
  spendCapYen: FastifyRequest['spendCapYen'];
}

export type PreHandler = Extract<NonNullable<RouteOptions['preHandler']>, readonly unknown[]>[number];

/**
 * Add preHandlers to one route (at onRoute time), so that what a declaration
 * adds runs only on the routes that declare it: `first`, before the route's
 * own preHandlers (access checks), or `last`, after them (limits, which a
 * request the route refuses must not take).
 */
export function addPreHandlers(route: RouteOptions, where: 'first' | 'last', hooks: readonly PreHandler[]): void {
  const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
  route.preHandler = where === 'first' ? [...hooks, ...own] : [...own, ...hooks];
}

export default fp(
  async function routePolicy(app: FastifyInstance) {
    const policies = new Map<string, RoutePolicy>();
    app.decorate('routePolicies', policies);
    app.addHook('onRoute', (route) => {
      const policy = resolvePolicy(route);
      route.config = { ...route.config, policy };
      for (const method of [route.method].flat()) policies.set(`${method} ${route.url}`, policy);
    });
  },
  { name: 'route-policy' },
);
