// Housekeeping of the state store, run by every server process on a timer
// (plugins/maintenance.ts) and by `npm run cli -- maintenance`. Every step
// is an idempotent conditional statement, so several processes running it at
// once do no harm.
// - Device codes that expired are deleted (anonymous callers create them);
//   a key approved for a device that never picked it up is revoked, since
//   nobody holds it.
// - Keys issued by a webhook wait sealed for their one reveal through
//   from-checkout for SEALED_KEY_TTL_HOURS; afterwards the sealed copy is
//   erased (the key stays active; the customer asks the operator for a new one).
// - E-mail sign-ups never confirmed are deleted after UNCONFIRMED_TTL_MS,
//   with their address, queued mail and own search (anyone can sign anyone
//   up: an address nobody confirmed is not kept).
import type { Config } from '../config.ts';
import type { StateStore } from './store.ts';

/** Expired device codes are kept this long after expiry (a late poll still gets `expired_token`, not `invalid_grant`). */
export const DEVICE_CODE_GRACE_MS = 3600_000;
/** A sign-up never confirmed is deleted after this long (the confirmation link of its mail stops working then). */
export const UNCONFIRMED_TTL_MS = 7 * 86_400_000;

export interface MaintenanceResult {
  deviceCodesPurged: number;
  unclaimedDeviceKeysRevoked: number;
  sealedKeysExpired: number;
  unconfirmedSubscribersPurged: number;
}

export async function runMaintenance(store: StateStore, config: Pick<Config, 'sealedKeyTtlHours'>, now = new Date()): Promise<MaintenanceResult> {
  const { purged, unclaimedKeyIds } = await store.deviceCodes.purgeExpired(new Date(now.getTime() - DEVICE_CODE_GRACE_MS).toISOString());
  let revoked = 0;
  for (const id of unclaimedKeyIds) revoked += await store.keys.revoke(id);
  const sealedKeysExpired = await store.issuance.expireSealed(new Date(now.getTime() - config.sealedKeyTtlHours * 3600_000).toISOString());
  const unconfirmedSubscribersPurged = await store.subscribers.purgeUnconfirmed(new Date(now.getTime() - UNCONFIRMED_TTL_MS).toISOString());
  return { deviceCodesPurged: purged, unclaimedDeviceKeysRevoked: revoked, sealedKeysExpired, unconfirmedSubscribersPurged };
}
