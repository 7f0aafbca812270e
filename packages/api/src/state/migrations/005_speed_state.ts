// 005: what the paid-call hot path needs from the store (issue 9 §3, issue 11 finding 7):
// - monthly_spend.reserved_yen and spend_reservations: a capped key's call
//   reserves its price before it is served (one guarded statement on the
//   month's row: spent + reserved + price <= cap), and its usage event then
//   moves the reservation into spent_yen (or a non-2xx releases it). A row per
//   reservation, with an expiry, lets a sweep give back what a crashed
//   process reserved and never settled (docs/decisions/0093-spend-cap-reservation.md);
// - state_generations: a counter per cached table ('keys'), bumped in the
//   transaction of every change to a key, which each process's key cache
//   polls to drop what another process changed (state/key-cache.ts).
import type { Migration } from './migration.ts';

const sql = `
ALTER TABLE monthly_spend ADD COLUMN reserved_yen INTEGER NOT NULL DEFAULT 0;

CREATE TABLE spend_reservations (
  id TEXT PRIMARY KEY,
  key_id INTEGER NOT NULL,
  billing_month TEXT NOT NULL,
  amount_yen INTEGER NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX spend_reservations_expiry ON spend_reservations (expires_at);

CREATE TABLE state_generations (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
INSERT INTO state_generations (name, value) VALUES ('keys', 0);
`;

export const speedState: Migration = { version: 5, name: 'speed_state', sqlite: sql, postgres: sql };
