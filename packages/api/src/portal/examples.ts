// The copy-paste examples of the landing page, for the origin the reader
// used. The README shows the same snippets for http://127.0.0.1:8080, and
// tests keep the two equal (test/portal/readme.test.ts) and run every one
// of them as pasted against a started server (test/portal/examples.test.ts;
// the stdio MCP configuration in packages/mcp/test/pack-install.registry.ts).
//
// What works today, and says so: the packages are not on the npm registry
// yet, so the client and the stdio tool server come from the tarballs a
// clone builds (`npm run pack:packages` writes them to dist-packages/); the
// Streamable HTTP configuration needs no install at all.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../config.ts';

/** The placeholder that stands for the reader's key in every example. */
export const KEY_PLACEHOLDER = 'am_your_api_key';

/** The placeholder that stands for the reader's clone of the repository (where dist-packages/ is). */
export const CLONE_PLACEHOLDER = '/path/to/jp-support-programs';

/** MCP server name used in host configurations. */
const SERVER_NAME = 'jp-support';

/** The three packages share one version (packages/client/test/version.test.ts). */
const PACKAGE_VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages', 'mcp', 'package.json'), 'utf8')) as { version: string }).version;

/** The file `npm run pack:packages` writes for a package, in the reader's clone. */
export const tarballPath = (name: 'client' | 'mcp'): string => `${CLONE_PLACEHOLDER}/dist-packages/jp-support-${name}-${PACKAGE_VERSION}.tgz`;

export function curlExample(origin: string): string {
  return [
    `curl '${origin}/v1/programs/search?q=スマート農業&tier=S&tier=A&limit=5&fields=minimal'`,
    `curl -X POST ${origin}/v1/exclusions/check -H 'content-type: application/json' \\`,
    `     -d '{"program_ids":["UNI-194743d166","UNI-76ff1702bc"]}'`,
    `curl -H "X-API-Key: $JPSP_API_KEY" ${origin}/v1/me/dashboard`,
  ].join('\n');
}

/** Installing the client into a new directory (Node 20 or later; once published: `npm install @jp-support/client`). */
export function clientSetup(): string {
  return ['mkdir try-client && cd try-client', `npm install ${tarballPath('client')}`].join('\n');
}

/** The client example, as `example.mjs` (plain JavaScript: Node 20 runs it as it is). */
export function clientExample(origin: string): string {
  return [
    `import { JpSupportClient } from '@jp-support/client';`,
    `const client = new JpSupportClient({ baseUrl: '${origin}', apiKey: process.env.JPSP_API_KEY });`,
    `const { total, results } = await client.programs.search({ q: '省エネ', tier: ['S', 'A'], limit: 5 });`,
    `const { hits } = await client.exclusions.check({ program_ids: results.map((p) => p.unified_id) });`,
    `console.log(total, results[0]?.primary_name, hits.length);`,
  ].join('\n');
}

/**
 * An MCP host's configuration for the stdio server of @jp-support/mcp: npx
 * runs the packed tarball (it carries the client and vocabulary packages;
 * the MCP SDK comes from the registry). Once the package is published the
 * argument becomes `@jp-support/mcp`. npx needs the `file:` form for an
 * absolute path (a bare path is taken for a command).
 */
export function mcpStdioConfig(origin: string) {
  return {
    mcpServers: {
      [SERVER_NAME]: {
        command: 'npx',
        args: ['-y', `file:${tarballPath('mcp')}`],
        env: { JPSP_API_BASE_URL: origin, JPSP_API_KEY: KEY_PLACEHOLDER },
      },
    },
  };
}

/** An MCP host's configuration for this server's Streamable HTTP endpoint (url and key header): nothing to install. */
export function mcpHttpConfig(origin: string) {
  return {
    mcpServers: {
      [SERVER_NAME]: {
        type: 'http',
        url: `${origin}/mcp`,
        headers: { 'X-API-Key': KEY_PLACEHOLDER },
      },
    },
  };
}

export const asJson = (value: unknown): string => JSON.stringify(value, null, 2);
