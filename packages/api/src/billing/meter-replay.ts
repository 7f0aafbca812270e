// Replaying parked meter events (`npm run cli -- meter replay`). A parked
// event may still have reached Stripe once (an answer lost, then a refusal),
// and Stripe de-duplicates an identifier only for a limited time after it
// first saw it (at least 24 hours, its documentation says). So a replay sends
// again only events first attempted within REPLAY_WINDOW_MS (23 hours, a
// margin under Stripe's 24): inside it a duplicate is refused by Stripe and
// billed once. Older events are listed, not sent, unless the operator has
// checked in Stripe's dashboard that they were not recorded
// (`--outside-window`). Events whose usage is older than Stripe's 35-day
// limit for meter event timestamps cannot be sent at all.
import type { ParkedMeterEvent } from '../state/repositories/meter-outbox.ts';
import type { StateStore } from '../state/store.ts';

export const REPLAY_WINDOW_MS = 23 * 3600_000;
/** Stripe accepts meter events whose timestamp is at most 35 days old. */
export const MAX_EVENT_AGE_MS = 35 * 86400_000;

export interface ReplayPlan {
  /** Sent again (put back in the queue). */
  replay: ParkedMeterEvent[];
  /** First attempted before the de-duplication window: not sent without --outside-window. */
  outsideWindow: ParkedMeterEvent[];
  /** Usage older than Stripe accepts: never sent. */
  tooOld: ParkedMeterEvent[];
}

export function planReplay(parked: ParkedMeterEvent[], now: Date, options: { outsideWindow?: boolean } = {}): ReplayPlan {
  const plan: ReplayPlan = { replay: [], outsideWindow: [], tooOld: [] };
  for (const event of parked) {
    if (now.getTime() - event.timestamp * 1000 > MAX_EVENT_AGE_MS) plan.tooOld.push(event);
    else if (event.firstAttemptAt && now.getTime() - Date.parse(event.firstAttemptAt) > REPLAY_WINDOW_MS && !options.outsideWindow)
      plan.outsideWindow.push(event);
    else plan.replay.push(event);
  }
  return plan;
}

/** Put the parked events of the plan (all parked, or those of `ids`) back in the queue; with `dryRun` only plan. */
export async function replayParked(
  store: StateStore,
  options: { ids?: string[]; outsideWindow?: boolean; dryRun?: boolean; now?: Date } = {},
): Promise<ReplayPlan> {
  const wanted = options.ids?.length ? new Set(options.ids) : null;
  const parked = (await store.meterOutbox.parked(100_000)).filter((e) => !wanted || wanted.has(e.eventId));
  const plan = planReplay(parked, options.now ?? new Date(), options);
  if (!options.dryRun) await store.meterOutbox.unpark(plan.replay.map((e) => e.eventId));
  return plan;
}
