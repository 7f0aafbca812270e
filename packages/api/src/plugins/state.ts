// Makes the state store available as `app.state` (opened from the
// configuration unless one is passed in) with its group commit as
// `app.groupCommit` (state/group-commit.ts: the hot path's writes, several
// requests per transaction; drained when the app closes, before the store
// closes, so a graceful shutdown loses no answered write), and resolves the master secret that
// each day's address salt is derived from (address-salt.ts): IP_HASH_SALT
// (required in production), else, outside production, a random one persisted
// in the store on first start so every replica hashes alike.
import fp from 'fastify-plugin';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { StateStore } from '../state/store.ts';
import { openStateStore } from '../state/index.ts';
import { dailySalts } from '../access/address-salt.ts';
import { GROUP_COMMIT_DEFAULTS, GroupCommit } from '../state/group-commit.ts';

declare module 'fastify' {
  interface FastifyInstance {
    state: StateStore;
    /** Writes of many requests in one transaction; each resolves once committed. */
    groupCommit: GroupCommit;
    /** The HMAC-SHA256 salt for client addresses on the Japan-time day of `now` (default: today). */
    addressSalt: (now?: Date) => string;
  }
}

export interface StatePluginOptions {
  store?: StateStore;
  /** Close an injected store when the app closes (a store opened here is always closed). */
  ownsStore?: boolean;
}

export default fp(
  async function statePlugin(app: FastifyInstance, opts: StatePluginOptions) {
    const store = opts.store ?? (await openStateStore(app.config));
    const commit = new GroupCommit((fn) => store.atomically(fn), GROUP_COMMIT_DEFAULTS);
    app.addHook('onClose', async () => {
      await commit.drain();
      if (!opts.store || opts.ownsStore) await store.close();
    });
    app.decorate('state', store);
    app.decorate('groupCommit', commit);
    app.healthChecks.add(() => store.ping());
    const master = app.config.ipHashSalt ?? (await store.settings.getOrCreate('ip_hash_salt', () => randomBytes(32).toString('hex')));
    app.decorate('addressSalt', dailySalts(master));
  },
  { name: 'state' },
);
