// Where this package's stdio server is, for whoever starts it as a child
// process: `launchToolServer({ baseUrl, ...toolServerCommand() })` from
// @jp-support/client, or an MCP host configuration. Resolved relative to this
// file, so it holds wherever the package is installed.
import { fileURLToPath } from 'node:url';

export interface ToolServerCommand {
  command: string;
  args: string[];
}

/** The entry point of the stdio server (src/bin.ts beside this file). */
export const TOOL_SERVER_ENTRY: string = fileURLToPath(new URL('./bin.ts', import.meta.url));

/** The command that starts the stdio server with this Node binary (Node 24 runs the TypeScript source). */
export function toolServerCommand(nodePath: string = process.execPath): ToolServerCommand {
  return { command: nodePath, args: ['--disable-warning=ExperimentalWarning', TOOL_SERVER_ENTRY] };
}
