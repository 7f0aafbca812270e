// Device authorisation (RFC 8628) over the state store. A device asks for a
// code pair; an operator approves the user code (CLI `device approve`), which
// issues a key and keeps it sealed (AES-256-GCM) until the device's next poll
// of the token endpoint takes it, exactly once. Only the SHA-256 of the
// device code is stored.
import type { Config } from '../config.ts';
import type { StateStore } from '../state/store.ts';
import type { DeviceCodeRecord } from '../state/repositories/device-codes.ts';
import type { Tier } from '../state/repositories/keys.ts';
import { generateApiKey, randomString } from './keys.ts';
import { sha256Hex } from '../lib/hash.ts';
import { deriveKey, seal, serverSecret, unseal } from './seal.ts';

export const DEFAULT_CLIENT_ID = 'jpsp-cli';
export const DEFAULT_SCOPE = 'api:read api:metered';
export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
export const DEVICE_CODE_TTL_SECONDS = 900;
export const POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 §6.1: consonants only (no vowels, no look-alikes), 20^8 codes. */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

export function hashDeviceCode(deviceCode: string): string {
  return sha256Hex(deviceCode);
}

/** `bcdf ghjk`, `BCDFGHJK` and `BCDF-GHJK` all name the same code. */
export function normalizeUserCode(input: string): string | null {
  const bare = input.toUpperCase().replace(/[\s-]/g, '');
  if (bare.length !== 8 || [...bare].some((c) => !USER_CODE_ALPHABET.includes(c))) return null;
  return `${bare.slice(0, 4)}-${bare.slice(4)}`;
}

async function sealingKey(config: Pick<Config, 'serverSecret'>, store: StateStore): Promise<Buffer> {
  return deriveKey(await serverSecret(config.serverSecret, store), 'device-code');
}

export async function startDeviceAuthorization(
  store: StateStore,
  clientId: string,
  scope: string,
): Promise<{
  deviceCode: string;
  userCode: string;
  expiresIn: number;
  interval: number;
}> {
  for (let attempt = 0; ; attempt++) {
    const deviceCode = randomString(43);
    const userCode = normalizeUserCode(randomString(8, USER_CODE_ALPHABET))!;
    try {
      await store.deviceCodes.create({
        deviceCodeHash: hashDeviceCode(deviceCode),
        userCode,
        clientId,
        scope,
        status: 'pending',
        keyId: null,
        sealedKey: null,
        interval: POLL_INTERVAL_SECONDS,
        expiresAt: new Date(Date.now() + DEVICE_CODE_TTL_SECONDS * 1000).toISOString(),
        lastPolledAt: null,
      });
      return { deviceCode, userCode, expiresIn: DEVICE_CODE_TTL_SECONDS, interval: POLL_INTERVAL_SECONDS };
    } catch (err) {
      if (attempt >= 3) throw err; // a user-code collision: draw again
    }
  }
}

export class DeviceFlowError extends Error {}

async function pendingCode(store: StateStore, userCode: string): Promise<DeviceCodeRecord> {
  const code = normalizeUserCode(userCode);
  const record = code ? await store.deviceCodes.findByUserCode(code) : null;
  if (!record) throw new DeviceFlowError(`no device authorisation with user code ${userCode}`);
  if (record.status !== 'pending') throw new DeviceFlowError(`user code ${record.userCode} is already ${record.status}`);
  if (Date.parse(record.expiresAt) <= Date.now()) throw new DeviceFlowError(`user code ${record.userCode} has expired`);
  return record;
}

/** Operator approval: issue a key for the device and keep it sealed for the hand-over. Returns the key's prefix. */
export async function approveDevice(
  store: StateStore,
  config: Pick<Config, 'serverSecret'>,
  userCode: string,
  tier: Tier,
  customerId: string | null,
): Promise<{ prefix: string; keyId: number }> {
  const record = await pendingCode(store, userCode);
  const { key, hash, prefix } = generateApiKey();
  const created = await store.keys.create({ keyHash: hash, prefix, tier, customerId });
  const sealed = seal(await sealingKey(config, store), key, `device:${record.deviceCodeHash}`);
  if (!(await store.deviceCodes.transition(record.deviceCodeHash, 'pending', 'approved', { keyId: created.id, sealedKey: sealed }))) {
    await store.keys.revoke(created.id);
    throw new DeviceFlowError(`user code ${record.userCode} changed state meanwhile`);
  }
  return { prefix, keyId: created.id };
}

export async function denyDevice(store: StateStore, userCode: string): Promise<void> {
  const record = await pendingCode(store, userCode);
  if (!(await store.deviceCodes.transition(record.deviceCodeHash, 'pending', 'denied'))) {
    throw new DeviceFlowError(`user code ${record.userCode} changed state meanwhile`);
  }
}

export type TokenResult =
  | { ok: true; accessToken: string; scope: string }
  | { ok: false; error: 'authorization_pending' | 'slow_down' | 'expired_token' | 'access_denied' | 'invalid_grant'; detail: string };

/** One poll of the token endpoint. */
export async function pollDeviceToken(store: StateStore, config: Pick<Config, 'serverSecret'>, deviceCode: string): Promise<TokenResult> {
  const record = await store.deviceCodes.findByHash(hashDeviceCode(deviceCode));
  if (!record) return { ok: false, error: 'invalid_grant', detail: 'Unknown device_code' };
  if (record.status === 'consumed') return { ok: false, error: 'invalid_grant', detail: 'This device_code was already exchanged for a key' };
  if (record.status === 'denied') return { ok: false, error: 'access_denied', detail: 'The authorisation request was denied' };
  const now = Date.now();
  if (record.status === 'pending' && Date.parse(record.expiresAt) <= now) {
    return { ok: false, error: 'expired_token', detail: 'The device_code has expired: start again' };
  }
  if (record.status === 'approved') {
    if (!(await store.deviceCodes.transition(record.deviceCodeHash, 'approved', 'consumed', { sealedKey: null }))) {
      return { ok: false, error: 'invalid_grant', detail: 'This device_code was already exchanged for a key' };
    }
    const key = unseal(await sealingKey(config, store), record.sealedKey!, `device:${record.deviceCodeHash}`);
    return { ok: true, accessToken: key, scope: record.scope };
  }
  // Pending: enforce the polling interval (RFC 8628 §3.5: slow_down adds 5 seconds).
  const last = record.lastPolledAt ? Date.parse(record.lastPolledAt) : null;
  if (last !== null && now - last < record.interval * 1000) {
    await store.deviceCodes.update(record.deviceCodeHash, { lastPolledAt: new Date(now).toISOString(), interval: record.interval + 5 });
    return { ok: false, error: 'slow_down', detail: `Polling too fast: wait at least ${record.interval + 5} seconds between requests` };
  }
  await store.deviceCodes.update(record.deviceCodeHash, { lastPolledAt: new Date(now).toISOString() });
  return { ok: false, error: 'authorization_pending', detail: 'The user has not approved the request yet' };
}
