// What every bench driver starts the server with: DATA_DIR=var/bench with a
// fresh state store (the catalogue is kept: its first build is the slow part),
// the fake Stripe the paid key's metering talks to, the primary's metrics
// listener (the workers' event-loop delay, collections and memory), limits
// high enough that no scenario meets them, and one paid and one free key.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { FakeStripe } from '../../packages/api/test/fakes/stripe-server.ts';
import { createBenchKeys, freePort, REPO_ROOT } from './processes.ts';

export interface BenchEnv {
  dataDir: string;
  stripe: FakeStripe;
  metricsUrl: string;
  env: Record<string, string>;
  keys: { paid: string; free: string };
}

export async function prepareBenchEnv(): Promise<BenchEnv> {
  const dataDir = path.join(REPO_ROOT, 'var', 'bench');
  mkdirSync(dataDir, { recursive: true });
  for (const f of ['state.sqlite', 'state.sqlite-wal', 'state.sqlite-shm']) rmSync(path.join(dataDir, f), { force: true });
  const stripe = await new FakeStripe().start();
  const metricsPort = await freePort();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    METRICS_PORT: String(metricsPort),
    ANON_DAILY_LIMIT: '1000000000',
    FREE_DAILY_LIMIT: '1000000000',
    ...stripe.env(),
  };
  return { dataDir, stripe, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`, env, keys: createBenchKeys(env) };
}
