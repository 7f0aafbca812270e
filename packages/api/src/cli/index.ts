import type { Command } from './types.ts';
import { ingestCommand } from './ingest.ts';
import { openapiCommand } from './openapi.ts';
import { settingsCommand } from './settings.ts';

export const COMMANDS: Command[] = [ingestCommand, openapiCommand, settingsCommand];
