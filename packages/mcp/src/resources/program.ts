// The resource template program://{unified_id}: one program's full JSON.
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { apiErrorInfo, type ToolApi } from '../lib/api.ts';

export function registerProgramResource(server: McpServer, api: ToolApi): void {
  server.registerResource(
    'program',
    new ResourceTemplate('program://{unified_id}', { list: undefined }),
    { title: 'Support program', description: 'One program record (full detail) by unified_id', mimeType: 'application/json' },
    async (uri, variables) => {
      const id = String(Array.isArray(variables.unified_id) ? variables.unified_id[0] : variables.unified_id);
      try {
        const program = await api.programs.get(id, { fields: 'full' });
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(program) }] };
      } catch (err) {
        const info = apiErrorInfo(err);
        throw new Error(info ? `API error ${info.status}: ${info.detail}` : `program ${id} could not be read`);
      }
    },
  );
}
