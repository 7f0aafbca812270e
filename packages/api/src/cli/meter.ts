// `meter status`: the meter outbox's pending and parked counts.
// `meter replay [--id EVENT_ID]... [--dry-run] [--outside-window]`: put events
// Stripe refused (parked) back in the queue, within Stripe's de-duplication
// window (billing/meter-replay.ts), and flush once when Stripe is configured
// (otherwise the servers' flusher sends them).
import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import type { Command } from './types.ts';
import { openStateStore } from '../state/index.ts';
import { replayParked } from '../billing/meter-replay.ts';
import { createStripeClient } from '../billing/stripe-client.ts';
import { MeterFlusher } from '../billing/meter-flusher.ts';

/** The flusher's log lines, on stderr (stdout is the command's answer). */
const write = (fields: object, message?: string) => console.error(message ?? '', JSON.stringify(fields));
const stderrLog = { info: write, warn: write, error: write, debug: () => undefined } as unknown as FastifyBaseLogger;

const USAGE = 'usage: meter status | meter replay [--id EVENT_ID]... [--dry-run] [--outside-window]';

export const meterCommand: Command = {
  name: 'meter',
  summary: "Meter outbox: status (pending, parked) or replay parked events within Stripe's de-duplication window",
  async run(args, config) {
    const [sub, ...rest] = args;
    const { values } = parseArgs({
      args: rest,
      options: { id: { type: 'string', multiple: true }, 'dry-run': { type: 'boolean' }, 'outside-window': { type: 'boolean' } },
    });
    if (sub !== 'status' && sub !== 'replay') {
      console.error(USAGE);
      return 1;
    }
    const store = await openStateStore(config);
    try {
      if (sub === 'status') {
        console.log(JSON.stringify(await store.meterOutbox.stats()));
        return 0;
      }
      const plan = await replayParked(store, { ids: values.id, dryRun: values['dry-run'], outsideWindow: values['outside-window'] });
      const line = (label: string, events: { eventId: string; customerId: string; firstAttemptAt: string | null; lastError: string | null }[]) => {
        for (const e of events) console.log(`${label}\t${e.eventId}\t${e.customerId}\tfirst sent ${e.firstAttemptAt ?? '-'}\t${e.lastError ?? ''}`);
      };
      line(values['dry-run'] ? 'would replay' : 'replayed', plan.replay);
      line('outside window (check Stripe, then --outside-window)', plan.outsideWindow);
      line('too old for Stripe (35 days)', plan.tooOld);
      const stripe = createStripeClient(config);
      if (!values['dry-run'] && stripe && plan.replay.length) {
        const flusher = new MeterFlusher({ store, stripe, eventName: config.stripeMeterEventName, log: stderrLog });
        console.log(JSON.stringify(await flusher.flush()));
      }
      console.log(JSON.stringify({ replay: plan.replay.length, outsideWindow: plan.outsideWindow.length, tooOld: plan.tooOld.length }));
      return 0;
    } finally {
      await store.close();
    }
  },
};
