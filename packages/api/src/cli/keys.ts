// `keys create --tier free|paid [--customer-id ID]`: issue a key; the key
// alone is the last line of stdout (shown once, stored only as a hash).
// `keys revoke <prefix|id>`, `keys list` (prefixes only).
import { parseArgs } from 'node:util';
import type { Command } from './types.ts';
import { openStateStore } from '../state/index.ts';
import { generateApiKey } from '../access/keys.ts';

const USAGE = 'usage: keys create --tier free|paid [--customer-id ID] | keys revoke <prefix|id> | keys list';

export const keysCommand: Command = {
  name: 'keys',
  summary: 'Issue (create --tier free|paid [--customer-id ID]), revoke <prefix|id> or list API keys',
  async run(args, config) {
    const [sub, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { tier: { type: 'string' }, 'customer-id': { type: 'string' } },
    });
    if (sub !== 'create' && sub !== 'revoke' && sub !== 'list') {
      console.error(USAGE);
      return 1;
    }
    if (sub === 'create' && values.tier !== 'free' && values.tier !== 'paid') {
      console.error('keys create: --tier must be free or paid');
      return 1;
    }
    if (sub === 'revoke' && positionals.length !== 1) {
      console.error('keys revoke: give one key prefix (am_…) or numeric id');
      return 1;
    }
    const store = await openStateStore(config);
    try {
      if (sub === 'create') {
        const { key, hash, prefix } = generateApiKey();
        const record = await store.keys.create({ keyHash: hash, prefix, tier: values.tier as 'free' | 'paid', customerId: values['customer-id'] ?? null });
        console.error(`created key #${record.id} (${record.tier}, prefix ${prefix}); it is shown once, store it now:`);
        process.stdout.write(`${key}\n`);
        return 0;
      }
      if (sub === 'revoke') {
        const target = positionals[0];
        const n = await store.keys.revoke(/^\d+$/.test(target) ? Number(target) : target);
        if (n === 0) {
          console.error(`no active key matches ${target}`);
          return 1;
        }
        console.error(`revoked ${n} key${n === 1 ? '' : 's'}`);
        return 0;
      }
      const keys = await store.keys.list();
      console.log(['id', 'prefix', 'tier', 'status', 'customer', 'cap_yen', 'created_at'].join('\t'));
      for (const k of keys) {
        console.log([k.id, k.prefix, k.tier, k.status, k.customerId ?? '-', k.monthlyCapYen ?? '-', k.createdAt].join('\t'));
      }
      return 0;
    } finally {
      await store.close();
    }
  },
};
