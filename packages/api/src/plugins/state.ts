// Makes the state store available as `app.state` (opened from the
// configuration unless one is passed in) and resolves the master secret that
// each day's address salt is derived from (address-salt.ts): IP_HASH_SALT
// (required in production), else, outside production, a random one persisted
// in the store on first start so every replica hashes alike.
import fp from 'fastify-plugin';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { StateStore } from '../state/store.ts';
import { openStateStore } from '../state/index.ts';
import { dailySalts } from '../address-salt.ts';

declare module 'fastify' {
  interface FastifyInstance {
    state: StateStore;
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
    if (!opts.store || opts.ownsStore) app.addHook('onClose', async () => store.close());
    app.decorate('state', store);
    app.healthChecks.add(() => store.ping());
    const master = app.config.ipHashSalt ?? (await store.settings.getOrCreate('ip_hash_salt', () => randomBytes(32).toString('hex')));
    app.decorate('addressSalt', dailySalts(master));
  },
  { name: 'state' },
);
