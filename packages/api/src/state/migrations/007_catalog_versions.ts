// 007: dataset versions published through the state store (issue 26), so that
// every server on every machine follows one catalogue:
// - catalog_files: the overlay files of the versions, content-addressed
//   (SHA-256 of the JSONL text), stored once however many versions share one;
// - catalog_versions: one row per version, named by the hash of its manifest
//   (which file of which source), with its publication order, its parent, the
//   sync's report, and the change-feed version its events were recorded as;
// - catalog_head: the version every server should serve (one row; moved by a
//   publication or a rollback, under its row lock);
// - catalog_servers: what each serving process serves, reported by itself.
import type { Migration } from './migration.ts';

const sql = `
CREATE TABLE catalog_files (
  sha256 TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  content TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE catalog_versions (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  parent TEXT,
  manifest TEXT NOT NULL,
  reason TEXT NOT NULL,
  report TEXT,
  published_by TEXT NOT NULL,
  published_at TEXT NOT NULL,
  feed_version INTEGER
);

CREATE TABLE catalog_head (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version_id TEXT,
  changed_at TEXT,
  changed_by TEXT
);
INSERT INTO catalog_head (id, version_id, changed_at, changed_by) VALUES (1, NULL, NULL, NULL);

CREATE TABLE catalog_servers (
  server_id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  data_dir TEXT NOT NULL,
  version_id TEXT NOT NULL,
  catalog_fingerprint TEXT NOT NULL,
  started_at TEXT NOT NULL,
  seen_at TEXT NOT NULL
);
`;

export const catalogVersions: Migration = { version: 7, name: 'catalog_versions', sqlite: sql, postgres: sql };
