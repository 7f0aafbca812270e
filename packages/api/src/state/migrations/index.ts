// Versioned migrations of the state store, applied in order and recorded in
// `schema_migrations`. Never edit a released migration: add the next number.
import { initial } from './001_initial.ts';

export interface Migration {
  version: number;
  name: string;
  /** DDL for SQLite (may hold several statements). */
  sqlite: string;
  /** DDL for PostgreSQL (may hold several statements). */
  postgres: string;
}

export const MIGRATIONS: readonly Migration[] = [initial];
