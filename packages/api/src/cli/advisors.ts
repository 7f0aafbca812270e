// `advisors`: operator commands for the advisor listing.
//   advisors list                                   every advisor, pending ones included
//   advisors verify <id> [--owner-key-prefix am_…]  list it; bind the advisor's own API key (dashboard access)
import type { Command } from './types.ts';
import { openStateStore } from '../state/index.ts';

export const advisorsCommand: Command = {
  name: 'advisors',
  summary: 'Advisor listing: `advisors list`, `advisors verify <id> [--owner-key-prefix <key prefix>]`',
  async run(args, config) {
    const [sub, ...rest] = args;
    if (sub !== 'list' && sub !== 'verify') {
      process.stderr.write('usage: advisors list | advisors verify <id> [--owner-key-prefix <key prefix>]\n');
      return 2;
    }
    const store = await openStateStore(config);
    try {
      await store.migrate();
      if (sub === 'list') {
        const { rows } = await store.advisors.list({ verifiedOnly: false, limit: 10_000, offset: 0 });
        for (const a of rows) {
          process.stdout.write(
            `${a.id}\t${a.verifiedAt ? 'verified' : 'pending'}\t${a.firmType}\t${a.prefecture}\t${a.firmName}${a.ownerKeyHash ? '\t(key bound)' : ''}\n`,
          );
        }
        process.stderr.write(`${rows.length} advisor(s)\n`);
        return 0;
      }
      const id = Number(rest[0]);
      if (!Number.isInteger(id) || id < 1) {
        process.stderr.write('advisors verify: <id> must be a positive integer\n');
        return 2;
      }
      let ownerKeyHash: string | null = null;
      const flag = rest.indexOf('--owner-key-prefix');
      if (flag >= 0) {
        const prefix = rest[flag + 1];
        if (!prefix) {
          process.stderr.write('advisors verify: --owner-key-prefix needs a value\n');
          return 2;
        }
        const keys = (await store.keys.list()).filter((k) => k.prefix === prefix || k.prefix.startsWith(prefix));
        if (keys.length !== 1) {
          process.stderr.write(`advisors verify: ${keys.length === 0 ? 'no key' : 'several keys'} with prefix ${prefix}\n`);
          return 1;
        }
        ownerKeyHash = keys[0].keyHash;
      }
      if (!(await store.advisors.verify(id, ownerKeyHash))) {
        process.stderr.write(`advisors verify: no advisor ${id}\n`);
        return 1;
      }
      process.stdout.write(`advisor ${id} verified${ownerKeyHash ? ' (owner key bound)' : ''}\n`);
      return 0;
    } finally {
      await store.close();
    }
  },
};
