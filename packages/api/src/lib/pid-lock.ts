// A lock file holding the pid of its holder: one process at a time on one
// machine (a source's sync work directory, the local catalogue being rebuilt).
// A lock whose process is gone (a kill -9) is taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

export class LockHeld extends Error {
  readonly pid: number;
  constructor(file: string, pid: number) {
    super(`${file} is held by pid ${pid}`);
    this.pid = pid;
  }
}

/** Takes the lock file or throws LockHeld; returns the release (idempotent). */
export function takePidLock(file: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let held = true;
      return () => {
        if (held) rmSync(file, { force: true });
        held = false;
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let pid = Number.NaN;
      try {
        pid = Number(readFileSync(file, 'utf8').trim());
      } catch {
        // removed meanwhile: try again
      }
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) throw new LockHeld(file, pid);
      rmSync(file, { force: true });
    }
  }
  throw new LockHeld(file, 0);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
