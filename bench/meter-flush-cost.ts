// `node bench/meter-flush-cost.ts [--calls 20000] [--seconds 5] [--root <checkout>]`:
// what reporting paid calls to Stripe costs the process that reports them,
// independent of the machine's load. Queues `calls` billable usage events of
// one customer spread over `seconds` (the bench's paid load: thousands of
// calls a second), then has the meter flusher drain them into a fake Stripe
// running in a process of its own; prints the flushing process's CPU time
// (process.cpuUsage) per call reported and the meter events Stripe received.
// --root measures another checkout's flusher and store (before/after).
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './lib/processes.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '5' },
    root: { type: 'string' },
    'fake-stripe': { type: 'boolean' },
  },
});

if (values['fake-stripe']) {
  // The child: a fake Stripe that prints its base URL and counts the meter events it accepted.
  const { FakeStripe } = await import('../packages/api/test/fakes/stripe-server.ts');
  const fake = await new FakeStripe().start();
  process.stdout.write(`${fake.baseUrl}\n`);
  process.on('message', () => process.send!({ events: fake.meterEvents.size, units: fake.billedUnits() }));
} else {
  const root = values.root ? path.resolve(values.root) : REPO_ROOT;
  const src = (p: string) => pathToFileURL(path.join(root, 'packages', 'api', 'src', p)).href;
  const { openSqliteStore } = (await import(src('state/sqlite.ts'))) as typeof import('../packages/api/src/state/sqlite.ts');
  const { MeterFlusher } = (await import(src('billing/meter-flusher.ts'))) as typeof import('../packages/api/src/billing/meter-flusher.ts');
  const { createStripeClient } = (await import(src('billing/stripe-client.ts'))) as typeof import('../packages/api/src/billing/stripe-client.ts');
  const { timeOrderedId } = (await import(src('state/event-id.ts'))) as typeof import('../packages/api/src/state/event-id.ts');

  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', import.meta.filename, '--fake-stripe'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const baseUrl = await new Promise<string>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
  const dir = mkdtempSync(path.join(tmpdir(), 'jpsp-meter-'));
  const store = openSqliteStore(path.join(dir, 'state.sqlite'));
  await store.migrate();
  const key = await store.keys.create({ keyHash: 'bench-hash', prefix: 'am_bench', tier: 'paid', customerId: 'cus_bench', subscriptionId: 'sub_bench' });
  const calls = Number(values.calls);
  const seconds = Number(values.seconds);
  const start = Math.floor(Date.now() / 1000) - seconds;
  for (let i = 0; i < calls; i += 500) {
    const entries = Array.from({ length: Math.min(500, calls - i) }, (_, j) => {
      const at = new Date((start + Math.floor(((i + j) * seconds) / calls)) * 1000);
      return {
        capYen: null,
        event: {
          eventId: timeOrderedId(),
          keyId: key.id,
          customerId: 'cus_bench',
          tier: 'paid' as const,
          method: 'GET',
          route: '/v1/programs/:unified_id',
          status: 200,
          billable: true,
          amountYen: 3,
          billingMonth: '2026-12',
          createdAt: at.toISOString(),
        },
      };
    });
    await store.usage.recordMany(entries);
  }
  const stripe = createStripeClient({ stripeSecretKey: 'sk_test_bench', stripeApiBase: baseUrl, stripeMaxNetworkRetries: 0 })!;
  const log = { info() {}, warn() {}, error() {} } as unknown as ConstructorParameters<typeof MeterFlusher>[0]['log'];
  const flusher = new MeterFlusher({ store, stripe, eventName: 'api_requests', log });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let reported = 0;
  for (let r = await flusher.flush(); r.sent > 0; r = await flusher.flush()) reported += r.sent;
  const cpu = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  const received = await new Promise<{ events: number; units: number }>((resolve) => {
    child.once('message', (m) => resolve(m as { events: number; units: number }));
    child.send('count');
  });
  console.log(
    `${reported} calls over ${seconds} s reported in ${received.events} meter events (${received.units} units billed): ${((cpu.user + cpu.system) / reported).toFixed(1)} µs CPU per call, ${(wall / 1000).toFixed(1)} s`,
  );
  child.kill();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
