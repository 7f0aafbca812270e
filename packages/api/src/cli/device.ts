// `device approve <user_code> [--tier free|paid] [--customer-id ID]` issues a
// key for a waiting device (handed over once at /v1/device/token);
// `device deny <user_code>` refuses it.
import { parseArgs } from 'node:util';
import type { Command } from './types.ts';
import { openStateStore } from '../state/index.ts';
import { approveDevice, denyDevice, DeviceFlowError } from '../access/device.ts';

export const deviceCommand: Command = {
  name: 'device',
  summary: 'Approve (approve <user_code> [--tier free|paid] [--customer-id ID]) or deny <user_code> a device authorisation',
  async run(args, config) {
    const [sub, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { tier: { type: 'string', default: 'free' }, 'customer-id': { type: 'string' } },
    });
    if ((sub !== 'approve' && sub !== 'deny') || positionals.length !== 1) {
      console.error('usage: device approve <user_code> [--tier free|paid] [--customer-id ID] | device deny <user_code>');
      return 1;
    }
    if (values.tier !== 'free' && values.tier !== 'paid') {
      console.error('device approve: --tier must be free or paid');
      return 1;
    }
    const store = await openStateStore(config);
    try {
      if (sub === 'approve') {
        const { prefix } = await approveDevice(store, config, positionals[0], values.tier, values['customer-id'] ?? null);
        console.log(`approved: key ${prefix}… (${values.tier}) will be handed to the device at its next poll`);
      } else {
        await denyDevice(store, positionals[0]);
        console.log('denied');
      }
      return 0;
    } catch (err) {
      if (err instanceof DeviceFlowError) {
        console.error(err.message);
        return 1;
      }
      throw err;
    } finally {
      await store.close();
    }
  },
};
