// The process settings: worker count, connection timeouts, shutdown bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { serverOptions } from '../../src/app.ts';

test('WEB_CONCURRENCY defaults to the available cores; 1 means one process', () => {
  assert.equal(loadConfig({}).webConcurrency, availableParallelism());
  assert.equal(loadConfig({ WEB_CONCURRENCY: '1' }).webConcurrency, 1);
  assert.throws(() => loadConfig({ WEB_CONCURRENCY: '0' }), /WEB_CONCURRENCY must be at least 1/);
  assert.throws(() => loadConfig({ WEB_CONCURRENCY: 'all' }), ConfigError);
});

test('the connection timeouts reach the HTTP server, checked every quarter of the request timeout', () => {
  const config = loadConfig({ REQUEST_TIMEOUT_SECONDS: '2', HEADERS_TIMEOUT_SECONDS: '1', KEEP_ALIVE_TIMEOUT_SECONDS: '5' });
  const options = serverOptions(config, false) as Record<string, unknown>;
  assert.equal(options.requestTimeout, 2000);
  assert.equal(options.keepAliveTimeout, 5000);
  assert.deepEqual(options.http, { headersTimeout: 1000, requestTimeout: 2000, connectionsCheckingInterval: 500 });
  assert.equal(options.return503OnClosing, false, 'a request on an open connection during shutdown is served, not refused');
  const defaults = loadConfig({});
  assert.deepEqual(
    [defaults.requestTimeoutSeconds, defaults.headersTimeoutSeconds, defaults.keepAliveTimeoutSeconds, defaults.shutdownTimeoutSeconds],
    [30, 10, 72, 10],
  );
});

test('headers must be allowed no longer than the whole request', () => {
  assert.throws(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: '5', HEADERS_TIMEOUT_SECONDS: '6' }), /HEADERS_TIMEOUT_SECONDS must not exceed/);
  assert.throws(() => loadConfig({ HEADERS_TIMEOUT_SECONDS: '0' }), /HEADERS_TIMEOUT_SECONDS/);
  assert.equal(loadConfig({ REQUEST_TIMEOUT_SECONDS: '0' }).headersTimeoutSeconds, 10, 'no request timeout: headers still bounded');
});
