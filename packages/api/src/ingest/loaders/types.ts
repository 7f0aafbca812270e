import type { DatabaseSync } from 'node:sqlite';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

export interface LoadContext {
  db: DatabaseSync;
  datasetDir: string;
  warn(message: string): void;
  /** Facts one loader leaves for a later one (e.g. duplicate groups for aliases). */
  shared: Map<string, unknown>;
}

export type Writer = (record: Record<string, unknown>) => string | null;

/** One record set: its tables, how a line is validated and written. */
export interface Loader {
  /** Key in the ingest report's counts. */
  name: string;
  /** Dataset file base name (`programs` -> programs.jsonl or programs.jsonl.gz). */
  file: string;
  /** A missing required file fails the build; a missing optional one loads 0 rows. */
  required: boolean;
  ddl: string;
  /** A reason when the record is unusable, else null. */
  validate(record: Record<string, unknown>): string | null;
  /**
   * Returns the writer for one valid record; the writer may still reject (e.g.
   * a duplicate key). May be async when the writer needs something loaded
   * first (the programs loader reads the municipality master and a tokenizer).
   */
  prepare(ctx: LoadContext): Writer | Promise<Writer>;
  /** A reviewed data file loaded after the dataset file with the same checks; a bad line fails the build (TableSpec.reviewed). */
  reviewed?: string;
  /** Runs after every loader has loaded (cross-record-set derivations). */
  finalize?(ctx: LoadContext): void;
  /**
   * For derived tables that read several files or earlier tables: when set,
   * ingest calls it instead of the per-line loop (validate/prepare unused)
   * and records the returned row count.
   */
  build?(ctx: LoadContext): Promise<number>;
}

/** A validator that names the first failing field of a record against a TypeBox schema. */
export function schemaValidator(schema: TSchema): (record: Record<string, unknown>) => string | null {
  const compiled = Compile(schema);
  return (record) => {
    if (compiled.Check(record)) return null;
    for (const error of compiled.Errors(record)) {
      const where = error.instancePath ? `field ${error.instancePath.slice(1)}` : 'record';
      return `${where}: ${error.message}`;
    }
    return 'record does not match its schema';
  };
}

export const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/** SQLite's node binding rejects booleans; store them as 0/1 (null stays null). */
export const bool = (value: unknown): number | null => (value === null || value === undefined ? null : value ? 1 : 0);

/** Run `insert`, turning a UNIQUE violation into a rejection reason instead of an abort. */
export function insertOrReject(run: () => void, what: string): string | null {
  try {
    run();
    return null;
  } catch (err) {
    const message = (err as Error).message;
    if (/UNIQUE constraint failed/.test(message)) return `duplicate ${what}`;
    throw err;
  }
}
