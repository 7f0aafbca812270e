// 006: no customer can hurt another (issue 24).
// - api_keys.generation: the 'keys' generation at which the key last
//   changed, written in the same transaction as the change. A key cache that
//   sees the generation move reads which keys changed since it last looked
//   and drops only those (state/key-cache.ts): another key's changes cost a
//   cached key nothing.
// - subscribers (status, created_at): the sweep of sign-ups never confirmed.
import type { Migration } from './migration.ts';

const sql = `
ALTER TABLE api_keys ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
CREATE INDEX api_keys_generation ON api_keys (generation);
CREATE INDEX subscribers_unconfirmed ON subscribers (status, created_at);
`;

export const security: Migration = { version: 6, name: 'security', sqlite: sql, postgres: sql };
