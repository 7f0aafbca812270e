// Memory of our server's process tree, per process, from /proc: what the
// bench reports beside the tree's summed resident memory (treeRss), so a
// figure can be traced to the process (primary, worker, child) that holds it.
// Per process: resident (VmRSS, what the ≤ 500 MB goal sums), of it anonymous
// and file-backed pages, and the proportional share (Pss, smaps_rollup: pages
// shared with other processes, such as the node binary or a file's page
// cache, divided among them), which is what the tree costs the machine.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface ProcessMemory {
  pid: number;
  /** primary, worker or child (any other descendant, e.g. the preparation child). */
  role: string;
  rssBytes: number;
  anonBytes: number;
  fileBytes: number;
  /** Proportional set size: shared pages divided among the processes sharing them. */
  pssBytes: number;
}

const kb = (text: string, field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;

function parentOf(pid: number): { ppid: number; comm: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    return { ppid: Number(stat.slice(close + 2).split(' ')[1]), comm: stat.slice(stat.indexOf('(') + 1, close) };
  } catch {
    return null;
  }
}

/** Every node process under `rootPid` (shells excluded), the first one found under the root being the primary. */
export function treeMemory(rootPid: number): ProcessMemory[] {
  const parents = new Map<number, number>();
  const comms = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const p = parentOf(Number(entry));
    if (!p) continue;
    parents.set(Number(entry), p.ppid);
    comms.set(Number(entry), p.comm);
  }
  const depth = (pid: number): number => {
    let d = 0;
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parents.get(p), d++) if (p === rootPid) return d;
    return -1;
  };
  const members = [...parents.keys()].filter((pid) => depth(pid) >= 0 && comms.get(pid) !== 'sh').sort((a, b) => depth(a) - depth(b) || a - b);
  const primary = members[0];
  const out: ProcessMemory[] = [];
  for (const pid of members) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const role =
        pid === primary
          ? members.length === 1
            ? 'single'
            : 'primary'
          : cmdline.includes('--prepare-only')
            ? 'prepare child'
            : parents.get(pid) === primary
              ? 'worker'
              : 'child';
      out.push({
        pid,
        role,
        rssBytes: kb(status, 'VmRSS'),
        anonBytes: kb(status, 'RssAnon'),
        fileBytes: kb(status, 'RssFile') + kb(status, 'RssShmem'),
        pssBytes: kb(rollup, 'Pss'),
      });
    } catch {
      // the process ended while we read
    }
  }
  return out;
}

/** One line per process and the sums, for the bench's report. */
export function describeTreeMemory(processes: readonly ProcessMemory[]): string {
  const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
  const sum = (f: (p: ProcessMemory) => number) => processes.reduce((s, p) => s + f(p), 0);
  const lines = processes.map(
    (p) =>
      `  ${p.role.padEnd(13)} ${String(p.pid).padStart(7)}: resident ${mb(p.rssBytes)} MB (anonymous ${mb(p.anonBytes)}, file ${mb(p.fileBytes)}), proportional ${mb(p.pssBytes)} MB`,
  );
  lines.push(
    `  sum of ${processes.length}: resident ${mb(sum((p) => p.rssBytes))} MB (anonymous ${mb(sum((p) => p.anonBytes))}, file ${mb(sum((p) => p.fileBytes))}), proportional ${mb(sum((p) => p.pssBytes))} MB`,
  );
  return lines.join('\n');
}

/** jpsp_memory_bytes by component from the server's /metrics (summed over its workers). */
export async function memoryComponents(metricsUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(metricsUrl)).text();
  return Object.fromEntries([...text.matchAll(/^jpsp_memory_bytes\{component="([a-z0-9_]+)"\} (\S+)$/gm)].map((m) => [m[1], Number(m[2])]));
}

export const describeComponents = (c: Record<string, number>): string =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${(v / 1024 / 1024).toFixed(0)}`)
    .join(', ');

/**
 * One process's resident memory by kind of mapping (`/proc/<pid>/smaps`),
 * largest first, for `bench/fixed-traffic.ts --mappings`: V8 allocates its
 * heap in anonymous mappings under 1 MB each (256 KB pages), glibc's main
 * arena is `[heap]`, its thread arenas and large blocks are anonymous
 * mappings of 1-64 MB, V8's code range one executable anonymous reservation
 * of 64 MB or more; file mappings are named by file (the node binary above all).
 */
export function describeMappings(pid: number, minBytes = 512 * 1024): string {
  const groups = new Map<string, { rss: number; count: number }>();
  let key = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const size = parseInt(head[2], 16) - parseInt(head[1], 16);
      const name = head[4];
      key = name
        ? `${name.startsWith('[') ? name : path.basename(name)} ${head[3]}`
        : size >= 64 * 1024 * 1024
          ? `anonymous ≥ 64 MB ${head[3]}`
          : size >= 1024 * 1024
            ? `anonymous 1-64 MB ${head[3]}`
            : `anonymous < 1 MB ${head[3]}`;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) {
      const g = groups.get(key) ?? { rss: 0, count: 0 };
      g.rss += Number(rss[1]) * 1024;
      g.count++;
      groups.set(key, g);
    }
  }
  return [...groups]
    .filter(([, g]) => g.rss >= minBytes)
    .sort((a, b) => b[1].rss - a[1].rss)
    .map(([k, g]) => `    ${k.padEnd(36)} ${(g.rss / 1024 / 1024).toFixed(1).padStart(6)} MB (${g.count} mapping${g.count === 1 ? '' : 's'})`)
    .join('\n');
}
