import type { Command } from './types.ts';
import { ingestCommand } from './ingest.ts';
import { openapiCommand } from './openapi.ts';

export const COMMANDS: Command[] = [ingestCommand, openapiCommand];
