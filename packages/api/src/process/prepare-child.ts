// The cluster primary's one-time work (prepare.ts: migrations, the catalogue
// build, the dataset version) runs in a child process, so that the primary,
// which serves nothing, never holds what that work loads: the module graph of
// ingest and of the state store, and on a build the reading dictionary
// (kuromoji, about 350 MB while it is used). Freed memory is not always given
// back to the system; a process that ends gives back all of it. The child is
// this same program with PREPARE_ONLY (server.ts), the same node flags and
// environment; its output goes where the primary's goes.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Config } from '../config.ts';
import { signalsDuringStart } from './shutdown.ts';

const SERVER = path.join(import.meta.dirname, '..', 'server.ts');
import { PREPARE_ONLY } from './roles.ts';

/** In the primary: run the one-time work in a child; resolves when it succeeded, rejects with its exit otherwise. */
export function prepareInChild(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, SERVER, PREPARE_ONLY], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`the preparation before serving failed (${signal ?? `exit ${code}`}); see its message above`));
    });
  });
}

/**
 * In the child: the one-time work, then exit 0. A signal meanwhile (the
 * process group's SIGTERM) waits for the work to end consistently, as it does
 * in a single process; the primary, which saw it too, then starts no workers.
 */
export async function prepareAndExit(config: Readonly<Config>): Promise<void> {
  const early = signalsDuringStart();
  try {
    // Imported here: the primary, which imports this module for prepareInChild, must not load it.
    const { prepareToServe } = await import('./prepare.ts');
    await prepareToServe(config);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  early.take();
  process.exit(0);
}
