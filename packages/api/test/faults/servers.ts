// Real server processes for the fault tests, started as `npm start` starts
// them (node packages/api/src/server.ts), with their environment; killed
// with SIGKILL or stopped with SIGTERM, and restarted.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { REPO_ROOT } from '../../src/config.ts';
import { ensureTestCatalog } from '../catalog-fixture.ts';
import { treeRss } from '../../../../bench/lib/processes.ts';
import { openPostgresStore } from '../../src/state/postgres.ts';
import { openSqliteStore } from '../../src/state/sqlite.ts';
import { TEST_DATABASE_URL } from '../state/stores.ts';
import type { StateStore } from '../../src/state/store.ts';

export type Ctx = { after(fn: () => unknown): void };

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote (stdout and stderr). */
  output(): string;
  /** Resident memory of the process and its workers, in bytes (Linux). */
  rss(): number;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startServer(t: Ctx, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'packages/api/src/server.ts'], {
    cwd: REPO_ROOT,
    // LOG_LEVEL info: the "Server listening at" line is how the address is learnt.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await once(child, 'exit');
  };
  t.after(() => kill('SIGKILL'));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += String(chunk);
      if (out.length > 2_000_000) out = out.slice(-1_000_000);
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out.slice(-800)}`)));
  });
  return {
    child,
    url,
    output: () => out,
    rss: () => treeRss(child.pid!),
    kill,
  };
}

/** A fresh PostgreSQL schema of TEST_DATABASE_URL: its URL for servers, a store for the test, dropped afterwards. */
export async function postgresSchema(t: Ctx, baseUrl: string): Promise<{ url: string; store: StateStore }> {
  const schema = `f_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const store = openPostgresStore(baseUrl, { schema, max: 4 });
  await store.migrate();
  t.after(async () => {
    await store.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), store };
}

/** DATA_DIR holding the shared test catalogue (servers open it read-only); only with DATABASE_URL set. */
export async function catalogDir(): Promise<string> {
  return path.dirname(await ensureTestCatalog());
}

/** A DATA_DIR of the test's own with a copy of the test catalogue (its state.sqlite is the test's). */
export async function privateDataDir(t: Ctx): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'jpsp-faults-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(await ensureTestCatalog(), path.join(dir, 'catalog.sqlite'));
  return dir;
}

/** A state store that several server processes share: its handle for the test and the environment for the servers. */
export interface SharedStore {
  kind: 'postgres' | 'sqlite';
  skip: string | false;
  open(t: Ctx): Promise<{ store: StateStore; env: Record<string, string> }>;
}

/** One PostgreSQL schema (when TEST_DATABASE_URL is set), and one SQLite file in a private DATA_DIR. */
export const SHARED_STORES: SharedStore[] = [
  {
    kind: 'postgres',
    skip: TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set',
    async open(t) {
      const { url, store } = await postgresSchema(t, TEST_DATABASE_URL!);
      return { store, env: { DATA_DIR: await catalogDir(), DATABASE_URL: url } };
    },
  },
  {
    kind: 'sqlite',
    skip: false,
    async open(t) {
      const dataDir = await privateDataDir(t);
      const store = openSqliteStore(path.join(dataDir, 'state.sqlite'));
      await store.migrate();
      t.after(() => store.close());
      return { store, env: { DATA_DIR: dataDir } };
    },
  },
];

/** Run `fn` over `items` with at most `width` at once. */
export async function pool<T, R>(items: T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i], i);
      }
    }),
  );
  return results;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request over `agent` (node:http, keep-alive); network errors reject. */
export function request(
  agent: http.Agent,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
