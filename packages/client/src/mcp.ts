// launchToolServer: start a tool server as a child process over stdio and
// return a connected MCP client. The caller says which command starts the
// server (the client knows nothing of where it is installed; the tool
// server package answers that with `toolServerCommand()` from
// `@jp-support/mcp/launch`). The MCP SDK is an optional peer dependency,
// imported only here and only when this function runs, so the rest of the
// client stays dependency-free (and browser-safe).
import { JpSupportError } from './errors.ts';
import { VERSION } from './client.ts';

export interface LaunchToolServerOptions {
  /** API address the tool server calls (passed as `JPSP_API_BASE_URL`). */
  baseUrl: string;
  /** API key the tool server sends (passed as `JPSP_API_KEY`); omit for anonymous calls. */
  apiKey?: string | null;
  /** Executable that starts the tool server, e.g. `process.execPath` or `npx`. */
  command: string;
  /** Its arguments, e.g. the path of the server's entry point. */
  args?: string[];
  /** Extra environment for the child (merged over the SDK's safe default environment). */
  env?: Record<string, string>;
  /** Working directory of the child. */
  cwd?: string;
  /** The child's stderr (its diagnostics): inherited by default, or ignored. */
  stderr?: 'inherit' | 'ignore';
  /** Name and version the MCP client announces. */
  clientInfo?: { name: string; version: string };
}

/**
 * Start the tool server and connect to it. Close it with `await client.close()`
 * (which also ends the child process).
 */
export async function launchToolServer(options: LaunchToolServerOptions) {
  if (!options?.baseUrl) throw new JpSupportError('launchToolServer: baseUrl is required');
  if (!options.command)
    throw new JpSupportError('launchToolServer: command is required (the bundled tool server gives it: toolServerCommand() in @jp-support/mcp/launch)');
  const proc = (globalThis as { process?: unknown }).process;
  if (!proc) throw new JpSupportError('launchToolServer needs Node.js (it starts a child process).');
  let sdk: [typeof import('@modelcontextprotocol/sdk/client/index.js'), typeof import('@modelcontextprotocol/sdk/client/stdio.js')];
  try {
    sdk = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/stdio.js')]);
  } catch (cause) {
    throw new JpSupportError('launchToolServer needs the optional peer dependency @modelcontextprotocol/sdk: npm install @modelcontextprotocol/sdk', { cause });
  }
  const [{ Client }, { StdioClientTransport, getDefaultEnvironment }] = sdk;
  const { command, args = [] } = options;
  const env: Record<string, string> = {
    ...getDefaultEnvironment(),
    JPSP_API_BASE_URL: options.baseUrl,
    ...(options.apiKey ? { JPSP_API_KEY: options.apiKey } : {}),
    ...options.env,
  };
  const transport = new StdioClientTransport({ command, args, env, cwd: options.cwd, stderr: options.stderr ?? 'inherit' });
  const client = new Client(options.clientInfo ?? { name: '@jp-support/client', version: VERSION });
  try {
    await client.connect(transport);
  } catch (cause) {
    await transport.close().catch(() => {});
    throw new JpSupportError(`launchToolServer: could not start or connect to ${command} ${args.join(' ')}`, { cause });
  }
  return client;
}
