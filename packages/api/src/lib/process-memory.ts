// What one process holds in memory, by kind of page and by V8 heap space
// (bytes), for /metrics (plugins/metrics.ts: jpsp_memory_bytes for the
// serving processes, jpsp_primary_memory_bytes for a cluster primary).
//
// - resident_anonymous, resident_file, proportional: from
//   /proc/self/smaps_rollup (Linux only; absent elsewhere). Anonymous pages
//   are the process's own (V8's heap, the C heap, Buffers, stacks); file
//   pages are mapped files (the node binary's ~50 MB above all) and shared
//   memory, the same pages in every process that maps them; proportional
//   (Pss) divides shared pages among the processes sharing them, so summed
//   over a process tree it is what the tree costs the machine.
// - v8_<space>: the resident pages of each V8 heap space
//   (v8.getHeapSpaceStatistics, physical_space_size): new_space is the
//   young generation, old_space what survived it, large_object_space the
//   objects over ~128 KB, code_space and trusted_space compiled code.
// - outside_v8_anonymous: anonymous pages less V8's spaces: the C heap
//   (glibc's arenas, SQLite's page caches, Buffers' bytes), thread stacks,
//   wasm memory (Linux only).
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

/** Rss, Pss and Anonymous of /proc/self/smaps_rollup in bytes, or null where it cannot be read (not Linux). */
export function smapsRollup(): { rss: number; pss: number; anonymous: number } | null {
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps_rollup', 'utf8');
  } catch {
    return null;
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN) * 1024;
  const out = { rss: kb('Rss'), pss: kb('Pss'), anonymous: kb('Anonymous') };
  return Object.values(out).every(Number.isFinite) ? out : null;
}

/** The process's memory by kind of page and V8 heap space (see above), plus resident, heap used and committed, external. */
export function processMemory(): Record<string, number> {
  const m = process.memoryUsage();
  const out: Record<string, number> = { resident: m.rss, heap_used: m.heapUsed, heap_committed: m.heapTotal, external: m.external };
  let v8Resident = 0;
  for (const space of getHeapSpaceStatistics()) {
    out[`v8_${space.space_name}`] = space.physical_space_size;
    v8Resident += space.physical_space_size;
  }
  const rollup = smapsRollup();
  if (rollup) {
    out.resident_anonymous = rollup.anonymous;
    out.resident_file = Math.max(0, rollup.rss - rollup.anonymous);
    out.proportional = rollup.pss;
    out.outside_v8_anonymous = Math.max(0, rollup.anonymous - v8Resident);
  }
  return out;
}
