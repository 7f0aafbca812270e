// 002: browser sessions of the developer portal (POST /v1/session). A row
// holds the SHA-256 of the opaque session id the cookie carries, never the id
// itself nor the key: the key is referenced by its row id.
import type { Migration } from './migration.ts';

const sql = `
CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  key_id INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX sessions_expires ON sessions (expires_at);
CREATE INDEX sessions_key ON sessions (key_id);
`;

export const sessions: Migration = { version: 2, name: 'sessions', sqlite: sql, postgres: sql };
