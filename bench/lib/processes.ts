// Child processes of the benchmark: our server, started exactly as `npm start`
// starts it (the `start` script of package.json, run by `sh -c` with the
// project's node_modules/.bin first on PATH, as npm does), and the bare
// replay server. Also the resident memory of a process tree from /proc.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** A TCP port free on 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Started {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** Resolve when GET `${url}/healthz` answers 200, or throw after `timeoutMs`. */
async function waitHealthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server at ${url} not ready after ${timeoutMs} ms`);
}

/** True while any process of the group `pgid` is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM to the child's process group (the `sh` of the start script, our
 * server and its cluster workers), then wait until the whole group is gone:
 * `sh` dies at once, the server only after its graceful shutdown. SIGKILL
 * after 30 s (the server's own bound is 2 × SHUTDOWN_TIMEOUT_SECONDS + 5 s).
 */
function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    const pgid = child.pid!;
    if (!groupAlive(pgid)) return;
    try {
      process.kill(-pgid, 'SIGTERM');
    } catch {
      return;
    }
    const deadline = Date.now() + 30_000;
    // A process nobody reaps stays a zombie that kill(0) still finds: give up 5 s after the SIGKILL.
    while (groupAlive(pgid) && Date.now() < deadline + 5000) {
      if (Date.now() > deadline) {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
}

/** The `start` script of the root package.json, as npm would run it. */
export function startScript(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return pkg.scripts.start;
}

/** Environment npm gives a script: the project's .bin first on PATH. */
function npmLikeEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const bin = path.join(REPO_ROOT, 'node_modules', '.bin');
  return { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, ...env };
}

/** Start our server as `npm start` does, on `port`, and wait until it is healthy. */
export async function startServer(port: number, env: Record<string, string>): Promise<Started> {
  const child = spawn('sh', ['-c', startScript()], {
    cwd: REPO_ROOT,
    env: npmLikeEnv({ ...env, PORT: String(port), HOST: '127.0.0.1' }),
    detached: true,
    // The request log goes where a user's would go; a file keeps the
    // per-request logging cost honest without filling the terminal.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = stopper(child);
  try {
    await waitHealthy(url, child, 180_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { child, url, stop };
}

/** Start the bare node:http replay server over a recordings file. */
export async function startBare(port: number, recordingsFile: string): Promise<Started> {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', path.join(REPO_ROOT, 'bench', 'bare-replay.ts'), recordingsFile, String(port)],
    {
      cwd: REPO_ROOT,
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = stopper(child);
  await waitHealthy(url, child, 30_000);
  return { child, url, stop };
}

/** Run one CLI command of the service (`npm run cli -- …`) and return its stdout. */
export function runCli(args: string[], env: Record<string, string>): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const r = spawnSync('sh', ['-c', `${pkg.scripts.cli} ${args.map((a) => `'${a}'`).join(' ')}`], {
    cwd: REPO_ROOT,
    env: npmLikeEnv(env),
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`cli ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** The bench's two keys, made through the CLI as an operator makes them: a paid key (billed to cus_bench) and a free one. */
export function createBenchKeys(env: Record<string, string>): { paid: string; free: string } {
  const lastLine = (s: string) => s.trim().split('\n').at(-1)!.trim();
  return {
    paid: lastLine(runCli(['keys', 'create', '--tier', 'paid', '--customer-id', 'cus_bench'], env)),
    free: lastLine(runCli(['keys', 'create', '--tier', 'free'], env)),
  };
}

/** Resident set size (bytes) of a process and all its descendants, shells excluded. */
export function treeRss(rootPid: number): number {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so split after the last ')'.
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      const pid = Number(entry);
      parent.set(pid, Number(fields[1]));
      comm.set(pid, stat.slice(stat.indexOf('(') + 1, close));
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const m = /VmRSS:\s+(\d+) kB/.exec(status);
      rss.set(pid, m ? Number(m[1]) * 1024 : 0);
    } catch {
      // the process ended while we read
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) if (p === rootPid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, bytes] of rss) if (inTree(pid) && comm.get(pid) !== 'sh') total += bytes;
  return total;
}

/** Count of node processes in the tree (1 + workers). */
export function treeProcessCount(rootPid: number): number {
  let n = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) === 'sh') continue;
      let p = Number(entry);
      while (p > 1 && p !== rootPid) {
        const s = readFileSync(`/proc/${p}/stat`, 'utf8');
        p = Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
      }
      if (p === rootPid) n++;
    } catch {
      // gone
    }
  }
  return n;
}
