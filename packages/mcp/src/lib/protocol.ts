// The protocol revision this server speaks: 2025-06-18. The SDK (1.32) has
// no option to cap the revision it negotiates (its own initialize handler
// answers a newer client with the SDK's latest revision), so the server
// answers `initialize` itself, through the public `setRequestHandler`.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InitializeRequestSchema, SUPPORTED_PROTOCOL_VERSIONS, type Implementation, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';

export const PROTOCOL_VERSION = '2025-06-18';

/** The revision answered at initialize: the client's when it is 2025-06-18 or older and supported, else 2025-06-18. */
export function negotiateProtocol(requested: string): string {
  return requested <= PROTOCOL_VERSION && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : PROTOCOL_VERSION;
}

/** Answer `initialize` with the negotiated revision, our capabilities, identity and instructions. */
export function answerInitialize(server: Server, serverInfo: Implementation, capabilities: ServerCapabilities, instructions: string): void {
  server.setRequestHandler(InitializeRequestSchema, (request) => ({
    protocolVersion: negotiateProtocol(request.params.protocolVersion),
    capabilities,
    serverInfo,
    instructions,
  }));
}
