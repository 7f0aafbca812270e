// The copy-paste examples of the landing page, for the origin the reader
// used. The README shows the same snippets for http://127.0.0.1:8080, and a
// test keeps the two equal (test/portal/readme.test.ts).

/** The placeholder that stands for the reader's key in every example. */
export const KEY_PLACEHOLDER = 'am_your_api_key';

/** MCP server name used in host configurations. */
const SERVER_NAME = 'jp-support';

export function curlExample(origin: string): string {
  return [
    `curl '${origin}/v1/programs/search?q=スマート農業&tier=S&tier=A&limit=5&fields=minimal'`,
    `curl -X POST ${origin}/v1/exclusions/check -H 'content-type: application/json' \\`,
    `     -d '{"program_ids":["UNI-194743d166","UNI-76ff1702bc"]}'`,
    `curl -H "X-API-Key: $JPSP_API_KEY" ${origin}/v1/me/dashboard`,
  ].join('\n');
}

export function clientExample(origin: string): string {
  return [
    `import { JpSupportClient } from '@jp-support/client';`,
    `const client = new JpSupportClient({ baseUrl: '${origin}', apiKey: process.env.JPSP_API_KEY });`,
    `const { total, results } = await client.programs.search({ q: '省エネ', tier: ['S', 'A'], limit: 5 });`,
    `const { hits } = await client.exclusions.check({ program_ids: results.map((p) => p.unified_id) });`,
    `console.log(total, results[0]?.primary_name, hits.length);`,
  ].join('\n');
}

/** An MCP host's configuration for the stdio server of @jp-support/mcp (command, args, env with the key). */
export function mcpStdioConfig(origin: string) {
  return {
    mcpServers: {
      [SERVER_NAME]: {
        command: 'npx',
        args: ['-y', '@jp-support/mcp'],
        env: { JPSP_API_BASE_URL: origin, JPSP_API_KEY: KEY_PLACEHOLDER },
      },
    },
  };
}

/** An MCP host's configuration for this server's Streamable HTTP endpoint (url and key header). */
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
