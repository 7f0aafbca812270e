import type { Command } from './types.ts';
import { ingestCommand } from './ingest.ts';
import { openapiCommand } from './openapi.ts';
import { settingsCommand } from './settings.ts';
import { advisorsCommand } from './advisors.ts';
import { keysCommand } from './keys.ts';
import { deviceCommand } from './device.ts';
import { maintenanceCommand } from './maintenance.ts';
import { meterCommand } from './meter.ts';
import { syncCommand } from './sync.ts';
import { versionsCommand } from './versions.ts';
import { qualityCommand } from './quality.ts';

export const COMMANDS: Command[] = [
  ingestCommand,
  openapiCommand,
  settingsCommand,
  advisorsCommand,
  keysCommand,
  deviceCommand,
  maintenanceCommand,
  meterCommand,
  syncCommand,
  versionsCommand,
  qualityCommand,
];
