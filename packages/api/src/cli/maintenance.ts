// `maintenance`: run the state store's housekeeping once now (what every
// server process also runs on a timer): purge expired device codes, revoke
// device keys never picked up, erase sealed keys past SEALED_KEY_TTL_HOURS.
import type { Command } from './types.ts';
import { openStateStore } from '../state/index.ts';
import { runMaintenance } from '../state/maintenance.ts';

export const maintenanceCommand: Command = {
  name: 'maintenance',
  summary: 'Purge expired device codes and erase sealed keys never picked up (the server also does it every 10 minutes)',
  async run(_args, config) {
    const store = await openStateStore(config);
    try {
      console.log(JSON.stringify(await runMaintenance(store, config)));
      return 0;
    } finally {
      await store.close();
    }
  },
};
