// The shape of one versioned migration (its own module so that the list in
// index.ts and each numbered migration import it without importing each other).
export interface Migration {
  version: number;
  name: string;
  /** DDL for SQLite (may hold several statements). */
  sqlite: string;
  /** DDL for PostgreSQL (may hold several statements). */
  postgres: string;
}
