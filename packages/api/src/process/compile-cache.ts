// Node's module compile cache for the service's processes (decision 0426).
// Node runs our TypeScript by stripping its types with a WebAssembly build of
// swc (amaro), loaded on the first .ts file a process strips and kept for the
// life of the process: ~9 MB of wasm memory, its compiled code, and the heap
// the stripping churns through, in every process (primary, preparation child,
// each worker). With the compile cache, a process whose modules are all in it
// reads their stripped source and V8 code from disk and never loads the
// stripper: measured on a warm cache, 18-22 MB less resident per process and
// less CPU at start (docs/performance.md, "Issue 25, 2026-12-02").
//
// The cache lives in the checkout (node_modules/.cache/jpsp-compile), shared
// by every DATA_DIR; NODE_COMPILE_CACHE chooses another directory and
// NODE_DISABLE_COMPILE_CACHE=1 turns it off. Node keys each entry by the
// file's content, Node's version and the V8 flags, so a changed file or
// Node is compiled afresh; a directory that cannot be written leaves the
// cache off, nothing else. The first start of a checkout fills it; starts
// after that read it. The start script sets NODE_COMPILE_CACHE and enters
// through start.js (decision 0432), whose child fills the cache for the
// process's own modules (server.ts and config.ts are stripped before any of
// our code runs) so that the primary does not load the stripper even on the
// first start; a `node packages/api/src/server.ts` without the variable
// enables the cache here for the modules after those and for its children
// (workers, the preparation child), which inherit the variable.
//
// The cache is keyed by the V8 flags, and workers run with their own
// (worker-heap.ts): what the primary or the preparation child compiled is not
// theirs. So before forking, the primary has a child with the workers' flags
// and environment import what a worker imports and strip the portal's
// scripts, then write the cache (warmInChild): the workers of a first start,
// after a deploy or a change of any file, start warm too. On a warm cache the
// child reads everything and writes nothing.
import { spawn } from 'node:child_process';
import module from 'node:module';
import path from 'node:path';
import { WARM_COMPILE_CACHE_ONLY } from './roles.ts';

const SERVER = path.join(import.meta.dirname, '..', 'server.ts');

/** The default directory: the checkout's node_modules/.cache. */
export const COMPILE_CACHE_DIR = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'node_modules', '.cache', 'jpsp-compile');

/**
 * Enable the compile cache in this process (a no-op when NODE_COMPILE_CACHE
 * already did) and name its directory in `env`, so the processes this one
 * starts use it from their first module. The directory, or null when the
 * cache is off (disabled, or the directory could not be made).
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): string | null {
  const { status, directory } = module.enableCompileCache(env.NODE_COMPILE_CACHE || COMPILE_CACHE_DIR);
  const { ENABLED, ALREADY_ENABLED } = module.constants.compileCacheStatus;
  if (status === ENABLED && directory) env.NODE_COMPILE_CACHE = directory;
  // Already on (NODE_COMPILE_CACHE, or an earlier call): Node answers with its per-version subdirectory, whose parent is the cache.
  else if (status === ALREADY_ENABLED) env.NODE_COMPILE_CACHE ||= path.dirname(module.getCompileCacheDir() ?? '.');
  else return null;
  return env.NODE_COMPILE_CACHE;
}

/**
 * Write what this process compiled so far. Node writes the cache at exit; a
 * serving process calls this once it listens, so what it loaded at start is
 * kept even when it is later killed rather than stopped.
 */
export function flushCompileCache(): void {
  module.flushCompileCache();
}

/**
 * In the primary: fill the cache for processes started with `execArgv` and
 * `env` (the workers'), in a child that imports what they import. Resolves
 * when the child ended; a child that failed only leaves the workers to strip
 * what it did not (the cache is an optimisation), so this never rejects.
 */
export function warmInChild(execArgv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...execArgv, SERVER, WARM_COMPILE_CACHE_ONLY], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', () => resolve());
    child.once('exit', () => resolve());
  });
}
