// The secrets of outbound traffic, all derived (HKDF) from the server secret
// (SERVER_SECRET, else the random one persisted in the state store, shared
// by every replica): webhook signing secrets sealed at rest (AES-256-GCM,
// bound to their endpoint id), subscriber addresses sealed at rest and looked
// up by a keyed hash, and the HMAC tokens of the confirm and unsubscribe
// links (no login: the token is the proof).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';
import type { StateStore } from '../state/store.ts';
import { deriveKey, seal, serverSecret, unseal } from '../access/seal.ts';

export type TokenPurpose = 'confirm' | 'unsubscribe';

export class OutboundSecrets {
  private readonly webhookKey: Buffer;
  private readonly emailKey: Buffer;
  private readonly hashKey: Buffer;
  private readonly tokenKey: Buffer;

  private constructor(secret: string) {
    this.webhookKey = deriveKey(secret, 'webhook-secret');
    this.emailKey = deriveKey(secret, 'subscriber-email');
    this.hashKey = deriveKey(secret, 'subscriber-email-hash');
    this.tokenKey = deriveKey(secret, 'subscriber-token');
  }

  static async load(config: Pick<Config, 'serverSecret'>, store: Pick<StateStore, 'settings'>): Promise<OutboundSecrets> {
    return new OutboundSecrets(await serverSecret(config.serverSecret, store));
  }

  /** A new signing secret, shown once to its owner. */
  static newWebhookSecret(): string {
    return `whsec_${randomBytes(24).toString('base64url')}`;
  }

  sealWebhookSecret(endpointId: string, secret: string): string {
    return seal(this.webhookKey, secret, `webhook:${endpointId}`);
  }

  unsealWebhookSecret(endpointId: string, sealed: string): string {
    return unseal(this.webhookKey, sealed, `webhook:${endpointId}`);
  }

  /** The lookup form of an address (case of the domain ignored); the address itself is never stored in the clear. */
  emailHash(email: string): string {
    return createHmac('sha256', this.hashKey).update(normalizeEmail(email)).digest('hex');
  }

  sealEmail(emailHash: string, email: string): string {
    return seal(this.emailKey, email, `email:${emailHash}`);
  }

  unsealEmail(emailHash: string, sealed: string): string {
    return unseal(this.emailKey, sealed, `email:${emailHash}`);
  }

  /** `<subscriber id>.<HMAC>`: the link token of `purpose` for a subscriber. */
  token(purpose: TokenPurpose, subscriberId: string): string {
    return `${subscriberId}.${this.mac(purpose, subscriberId)}`;
  }

  /** The subscriber id a token was made for, or null when it is not a valid token of `purpose`. */
  verifyToken(purpose: TokenPurpose, token: string): string | null {
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return null;
    const id = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.mac(purpose, id));
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  }

  private mac(purpose: TokenPurpose, id: string): string {
    return createHmac('sha256', this.tokenKey).update(`${purpose}:${id}`).digest('base64url');
  }
}

/** Addresses compare with the domain lower-cased (the local part is the mailbox's own business). */
export function normalizeEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? email.trim()
    : `${email.slice(0, at).trim()}@${email
        .slice(at + 1)
        .trim()
        .toLowerCase()}`;
}
