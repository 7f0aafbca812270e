// Memory of our server's process tree, per process, from /proc: what the
// bench reports beside the tree's summed resident memory (treeRss), so a
// figure can be traced to the process (primary, worker, child) that holds it.
// Per process: resident (VmRSS, what the ≤ 500 MB goal sums), of it anonymous
// and file-backed pages, and the proportional share (Pss, smaps_rollup: pages
// shared with other processes, such as the node binary or a file's page
// cache, divided among them), which is what the tree costs the machine.
import { readFileSync, readdirSync } from 'node:fs';

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
