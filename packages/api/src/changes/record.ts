// Record the catalogue's dataset version in the state store: the one writer
// of the change feed. Called by a publication of a dataset version (a sync or
// a rollback, versions/publish.ts: in the transaction that moves the head, so
// a version's events are recorded once, by the version), by `cli ingest`
// after it built the catalogue, and by the server's start when it built one
// (without DATABASE_URL) or the store has no version yet. The same content never records twice (fingerprint), so calling it
// again is harmless.
import type { Catalog } from '../catalog/catalog.ts';
import type { Repositories } from '../state/store.ts';
import type { RecordOutcome } from '../state/repositories/changes.ts';
import type { RecordSetSpec } from '../catalog/record-sets/index.ts';
import { versionSnapshot } from './tracked.ts';
import { savedSearchFanOut } from './fan-out.ts';

export async function recordDatasetVersion(
  catalog: Catalog,
  store: Pick<Repositories, 'changes'>,
  options: { recordSets?: readonly RecordSetSpec[]; now?: Date; snapshot?: ReturnType<typeof versionSnapshot> } = {},
): Promise<RecordOutcome> {
  // A snapshot taken before the caller's transaction keeps that transaction short.
  const snapshot = options.snapshot ?? versionSnapshot(catalog.db, options.recordSets);
  return store.changes.recordVersion(snapshot, savedSearchFanOut(catalog), (options.now ?? new Date()).toISOString());
}

/** One line for the operator: what the version recorded. */
export function describeOutcome(outcome: RecordOutcome): string {
  const v = outcome.version;
  if (!outcome.recorded) return `dataset version ${v.version} unchanged (fingerprint ${v.fingerprint.slice(0, 12)}): no change events`;
  if (v.baseline)
    return `dataset version ${v.version} recorded as the baseline (${Object.entries(v.counts)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')})`;
  const c = v.changeCounts;
  return `dataset version ${v.version} recorded: ${c.created} created, ${c.amended} amended, ${c.removed} removed (events ${v.firstSeq}–${v.lastSeq})`;
}
