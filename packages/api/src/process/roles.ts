// The argument that makes `server.ts` the child process in which the cluster
// primary has its one-time work done (prepare-child.ts). A module of its own
// so that server.ts can read it without loading any role's code.
export const PREPARE_ONLY = '--prepare-only';

/**
 * The argument that makes `server.ts` the child in which the cluster primary
 * fills the compile cache for its workers before forking them
 * (compile-cache.ts, decision 0426).
 */
export const WARM_COMPILE_CACHE_ONLY = '--warm-compile-cache';

/**
 * The argument that makes `server.ts` the child in which `npm start`'s entry
 * (start.js, decision 0432) fills the compile cache for the process's own
 * modules before importing them: a start on a cold cache does not load the
 * type stripper in the primary. start.js names it again (plain JavaScript).
 */
export const WARM_OWN_MODULES_ONLY = '--warm-own-modules';
