// Connect a created server to stdin/stdout.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CreatedServer } from '../server.ts';

export async function serveStdio({ server, cleanup }: CreatedServer): Promise<void> {
  const transport = new StdioServerTransport();
  const stop = () => void cleanup().finally(() => process.exit(0));
  process.stdin.on('close', stop);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await server.connect(transport);
}
