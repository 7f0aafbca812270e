#!/usr/bin/env node
// The stdio MCP server: an HTTP client of the API (JPSP_API_BASE_URL, default
// http://127.0.0.1:8080; JPSP_BASE_URL is read too), key from JPSP_API_KEY), the registry's tools (tools/index.ts), stdin/stdout.
// Nothing but protocol messages may go to stdout; diagnostics go to stderr.
import { JpSupportClient } from '@jp-support/client';
import { createServer } from './server.ts';
import { serveStdio } from './transports/stdio.ts';
import { parseToolsets } from './tools/index.ts';

const baseUrl = process.env.JPSP_API_BASE_URL || process.env.JPSP_BASE_URL || 'http://127.0.0.1:8080';
const apiKey = process.env.JPSP_API_KEY || null;

try {
  const client = new JpSupportClient({ baseUrl, apiKey });
  // JPSP_MCP_TOOLSETS=informed adds the optional toolset (change feed, saved searches, calendars).
  await serveStdio(createServer(client, { toolsets: parseToolsets(process.env.JPSP_MCP_TOOLSETS) }));
} catch (err) {
  process.stderr.write(`jp-support-mcp: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
