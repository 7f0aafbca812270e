// The StateStore contract: every repository's part, composed into one suite
// and run against each store (../sqlite.test.ts, ../postgres.test.ts).
// Concurrency cases use two handles on the same database, as two server
// processes would.
import type { StoreFactory } from '../stores.ts';
import { advisorsContract } from './advisors.ts';
import { analyticsContract } from './analytics.ts';
import { billingCacheContract } from './billing-cache.ts';
import { countersContract } from './counters.ts';
import { deviceCodesContract } from './device-codes.ts';
import { feedbackContract } from './feedback.ts';
import { issuanceContract } from './issuance.ts';
import { keysContract } from './keys.ts';
import { lifecycleContract } from './lifecycle.ts';
import { meterOutboxContract } from './meter-outbox.ts';
import { referralsContract } from './referrals.ts';
import { sessionsContract } from './sessions.ts';
import { informedContract } from './informed.ts';
import { settingsContract } from './settings.ts';
import { usageContract } from './usage.ts';
import { webhooksContract } from './webhooks.ts';
import { faultsContract } from './faults.ts';
import { speedStateContract } from './speed-state.ts';
import { catalogVersionsContract } from './catalog-versions.ts';

const PARTS = [
  lifecycleContract,
  settingsContract,
  keysContract,
  countersContract,
  usageContract,
  meterOutboxContract,
  feedbackContract,
  webhooksContract,
  issuanceContract,
  billingCacheContract,
  deviceCodesContract,
  advisorsContract,
  referralsContract,
  analyticsContract,
  sessionsContract,
  informedContract,
  faultsContract,
  speedStateContract,
  catalogVersionsContract,
];

export function stateContract(factory: StoreFactory): void {
  for (const part of PARTS) part(factory);
}
