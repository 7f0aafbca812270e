// The application as a Fastify plugin tree: cross-cutting plugins first, then
// routes, then the error and 404 handlers (plugins/errors.ts). The process
// concerns (logger, listen, signals) live in server.ts.
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cors from '@fastify/cors';
import compress from '@fastify/compress';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Catalog } from './catalog/catalog.ts';
import type { LiveCatalog } from './catalog/live.ts';
import routePolicy from './plugins/route-policy.ts';
import errors from './plugins/errors.ts';
import { validatorCompiler } from './http/validation.ts';
import { COMPRESS_THRESHOLD, ENCODINGS, SYNC_THRESHOLD, compressionZlib } from './http/compression.ts';
import requestId, { genRequestId } from './plugins/request-id.ts';
import etag from './plugins/etag.ts';
import requestLog from './plugins/request-log.ts';
import forwardedHost from './plugins/forwarded-host.ts';
import jsonBody from './plugins/json-body.ts';
import { clientErrorHandler, frameworkErrors } from './plugins/framework-errors.ts';
import catalogPlugin from './plugins/catalog.ts';
import openapi from './plugins/openapi.ts';
import statePlugin from './plugins/state.ts';
import auth from './plugins/auth.ts';
import limits from './plugins/limits.ts';
import usage from './plugins/usage.ts';
import inProcess, { ROUTER_OPTIONS } from './plugins/in-process.ts';
import billingPlugin from './plugins/billing.ts';
import maintenance from './plugins/maintenance.ts';
import metrics from './plugins/metrics.ts';
import servedVersion from './plugins/served-version.ts';
import outboundPlugin from './plugins/outbound.ts';
import billingRoutes from './routes/v1/billing/index.ts';
import billingHistoryRoutes from './routes/v1/billing/history.ts';
import type { StateStore } from './state/store.ts';
import meRoutes from './routes/v1/me/index.ts';
import sessionRoutes from './routes/v1/session.ts';
import feedbackRoutes from './routes/v1/feedback.ts';
import deviceRoutes from './routes/v1/device/index.ts';
import devicePageRoutes from './routes/device-page.ts';
import adminRoutes from './routes/v1/admin/index.ts';
import metaRoutes from './routes/meta.ts';
import programsRoutes from './routes/v1/programs/index.ts';
import exclusionsRoutes from './routes/v1/exclusions/index.ts';
import pingRoutes from './routes/v1/ping.ts';
import attributionRoutes from './routes/v1/attribution.ts';
import openapiRoutes from './routes/v1/openapi.ts';
import { recordSetRoutes } from './routes/v1/record-sets.ts';
import { RECORD_SETS, type RecordSetSpec } from './catalog/record-sets/index.ts';
import { PROGRAM_SEARCH_PARAMETERS, type ProgramSearchParameter } from './catalog/programs/parameters.ts';
import advisorsRoutes from './routes/v1/advisors/index.ts';
import mcpRoutes from './routes/mcp.ts';
import amRoutes from './routes/v1/am/index.ts';
import portal from './portal/index.ts';
import changesRoutes from './routes/v1/changes.ts';
import programHistoryRoutes from './routes/v1/programs/history.ts';
import savedSearchRoutes from './routes/v1/me/saved-searches.ts';
import webhookRoutes from './routes/v1/me/webhooks.ts';
import subscriberRoutes from './routes/v1/subscribers.ts';
import calendarRoutes from './routes/v1/calendar.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Readonly<Config>;
    /** Extra liveness checks (e.g. the state store) run by /healthz. */
    healthChecks: { add(check: () => Promise<boolean>): void; every(): Promise<boolean> };
    /** The parameter table of programme search: its REST schema, saved searches, calendars, the explore form. */
    programSearchParameters: readonly ProgramSearchParameter[];
  }
}

export interface BuildOptions {
  config: Readonly<Config>;
  catalog: Catalog;
  /** The server's catalogue, swapped in place when a sync publishes a new one (catalog/live.ts); `catalog` is ignored then. */
  live?: LiveCatalog;
  /** Close the catalogue when the app closes (the server owns it; tests may share one). */
  ownsCatalog?: boolean;
  logger?: FastifyServerOptions['logger'];
  /** A state store to use instead of opening the configured one (tests, document builds). */
  state?: StateStore;
  /** Close the injected `state` when the app closes (a store opened from the configuration always is). */
  ownsState?: boolean;
  /** The record sets served under /v1/<name> (default: the service's; the catalogue must hold their tables). */
  recordSets?: readonly RecordSetSpec[];
  /** The parameters of programme search (default: the service's table, catalog/programs/parameters.ts). */
  programSearchParameters?: readonly ProgramSearchParameter[];
  /** Further work of the process stopped when the app closes, before the state store closes (the dataset-version follower). */
  closeWith?: (() => Promise<void>)[];
}

const trustHops =
  (hops: number) =>
  (_address: string, hop: number): boolean =>
    hop < hops;

/**
 * How long a client may take to send a request and keep an idle connection
 * (REQUEST_/HEADERS_/KEEP_ALIVE_TIMEOUT_SECONDS). Node enforces the request
 * and header timeouts on a sweep every `connectionsCheckingInterval` (30 s by
 * default), so the sweep runs every quarter of the request timeout: a
 * half-sent body is cut off within 1.25× the bound (answered 408 by
 * clientErrorHandler). During a shutdown a request on an open keep-alive
 * connection is still served, with `Connection: close` (return503OnClosing
 * off: Fastify's 503 is not in our `{detail}` shape, and the request would be
 * lost for no gain; the listening socket is already closed).
 */
function connectionTimeouts(
  config: Readonly<Config>,
): Pick<FastifyServerOptions, 'requestTimeout' | 'keepAliveTimeout' | 'return503OnClosing'> & { http: object } {
  const requestTimeout = Math.round(config.requestTimeoutSeconds * 1000);
  const headersTimeout = Math.round(config.headersTimeoutSeconds * 1000);
  const sweep = Math.min(30_000, Math.max(100, Math.floor((requestTimeout || headersTimeout) / 4)));
  return {
    requestTimeout,
    keepAliveTimeout: Math.round(config.keepAliveTimeoutSeconds * 1000),
    return503OnClosing: false,
    http: { headersTimeout, requestTimeout, connectionsCheckingInterval: sweep },
  };
}

/** Fastify options shared by the server and tests. */
export function serverOptions(config: Readonly<Config>, logger: FastifyServerOptions['logger']): FastifyServerOptions {
  return {
    logger,
    genReqId: genRequestId,
    requestIdHeader: false,
    // A hop count as Fastify's own reading of a number (its types omit numbers).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // plugins/request-log.ts writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 256 * 1024,
    ...connectionTimeouts(config),
    // Shared with the router of the calls answered in process (plugins/in-process.ts).
    routerOptions: ROUTER_OPTIONS,
    // Errors raised before our hooks run still answer {detail} (plugins/framework-errors.ts).
    frameworkErrors,
    clientErrorHandler,
  };
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(options.config, options.logger ?? false)).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('config', options.config);
  app.decorate('programSearchParameters', options.programSearchParameters ?? PROGRAM_SEARCH_PARAMETERS);
  const checks: (() => Promise<boolean>)[] = [];
  app.decorate('healthChecks', {
    add: (check: () => Promise<boolean>) => void checks.push(check),
    every: async () => (await Promise.all(checks.map((c) => c()))).every(Boolean),
  });

  // JSON only: other content types answer 415 (routes needing a raw body register their own parser).
  app.removeContentTypeParser('text/plain');
  await app.register(jsonBody);
  app.setValidatorCompiler(validatorCompiler);
  // First: every route added after this must declare what it is (plugins/route-policy.ts).
  await app.register(routePolicy);
  await app.register(errors);
  await app.register(forwardedHost);
  await app.register(requestId);
  await app.register(requestLog);
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-API-Key', 'X-Request-ID', 'If-None-Match'],
    exposedHeaders: ['X-Request-ID', 'ETag', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
    maxAge: 86400,
  });
  await app.register(etag);
  // One compression mechanism for every answer; its zlib keeps the compressed form of a cached answer's Buffer (http/compression.ts).
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD,
    encodings: [...ENCODINGS],
    syncThreshold: SYNC_THRESHOLD,
    zlib: compressionZlib,
  });
  await app.register(openapi);
  await app.register(catalogPlugin, { catalog: options.catalog, live: options.live, closeOnExit: options.ownsCatalog ?? false });
  await app.register(statePlugin, { store: options.state, ownsStore: options.ownsState });
  // Before usage: onClose hooks run in reverse order, so the meter flusher's
  // last flush on close comes after usage has committed its last events.
  await app.register(billingPlugin);
  await app.register(metrics);
  // The server reports the dataset version it serves (cli versions).
  if (options.live) await app.register(servedVersion, { live: options.live });
  for (const stop of options.closeWith ?? []) app.addHook('onClose', stop);
  await app.register(auth);
  await app.register(limits);
  await app.register(usage);
  // Before the routes: it sees every route added (onRoute) and answers the ones that declare an answer in process.
  await app.register(inProcess);
  await app.register(maintenance);
  await app.register(outboundPlugin);

  await app.register(metaRoutes);
  await app.register(devicePageRoutes);
  await app.register(
    async (v1) => {
      await v1.register(programsRoutes, { prefix: '/programs' });
      await v1.register(programHistoryRoutes, { prefix: '/programs' });
      await v1.register(changesRoutes);
      await v1.register(exclusionsRoutes, { prefix: '/exclusions' });
      await v1.register(pingRoutes);
      await v1.register(attributionRoutes);
      await v1.register(openapiRoutes);
      await v1.register(amRoutes, { prefix: '/am' });
      await v1.register(meRoutes);
      await v1.register(sessionRoutes);
      await v1.register(savedSearchRoutes);
      await v1.register(webhookRoutes);
      await v1.register(subscriberRoutes);
      await v1.register(calendarRoutes);
      await v1.register(feedbackRoutes);
      await v1.register(deviceRoutes, { prefix: '/device' });
      await v1.register(adminRoutes, { prefix: '/admin' });
      for (const spec of options.recordSets ?? RECORD_SETS) await v1.register(recordSetRoutes(spec), { prefix: `/${spec.name}` });
      await v1.register(advisorsRoutes, { prefix: '/advisors' });
      await v1.register(billingRoutes, { prefix: '/billing' });
      await v1.register(billingHistoryRoutes);
    },
    { prefix: '/v1' },
  );
  await app.register(mcpRoutes);
  await app.register(portal);

  await app.ready();
  return app;
}
