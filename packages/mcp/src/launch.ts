// Where this package's stdio server is, for whoever starts it as a child
// process: `launchToolServer({ baseUrl, ...toolServerCommand() })` from
// @jp-support/client, or an MCP host configuration. Resolved relative to this
// file, so it holds wherever the package is installed: in this repository
// Node 24 runs the TypeScript source (src/bin.ts), in an installed package
// any Node from 20 on runs the compiled dist/bin.js.
import { fileURLToPath } from 'node:url';

export interface ToolServerCommand {
  command: string;
  args: string[];
}

/** This file is the TypeScript source (the repository), not the compiled package. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** The entry point of the stdio server, beside this file. */
export const TOOL_SERVER_ENTRY: string = fileURLToPath(new URL(FROM_SOURCE ? './bin.ts' : './bin.js', import.meta.url));

/** The command that starts the stdio server with this Node binary. */
export function toolServerCommand(nodePath: string = process.execPath): ToolServerCommand {
  // Type stripping warns that it is experimental; the warning would only clutter the host's log.
  const flags = FROM_SOURCE ? ['--disable-warning=ExperimentalWarning'] : [];
  return { command: nodePath, args: [...flags, TOOL_SERVER_ENTRY] };
}
