// The scratch state of one source's sync, under DATA_DIR/sources/<source>/work:
// what makes a sync killed halfway continue where it stopped.
//   checkpoint.json  the plan and how far it got (replaced by rename: never torn)
//   fetched.jsonl    one line per record fetched (appended; a kill may tear the
//                    last line, which is then fetched again)
//   lock             the pid of the running sync (one sync per source at a time)
// The work directory is removed when a sync published its dataset version.
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { sourcesDir } from '../ingest/overlays.ts';

export class SyncLocked extends Error {}

export class SyncWorkDir {
  readonly dir: string;
  private locked = false;

  constructor(dataDir: string, source: string) {
    this.dir = path.join(sourcesDir(dataDir), source, 'work');
    mkdirSync(this.dir, { recursive: true });
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }

  /** Takes the source's lock; a lock whose process is gone (a kill -9) is taken over. */
  lock(): void {
    const file = this.file('lock');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(file, 'wx');
        writeSync(fd, String(process.pid));
        closeSync(fd);
        this.locked = true;
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const pid = Number(readFileSync(file, 'utf8').trim());
        if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) {
          throw new SyncLocked(`another sync (pid ${pid}) is running for ${path.basename(path.dirname(this.dir))}`);
        }
        rmSync(file, { force: true });
      }
    }
    throw new SyncLocked(`could not take ${file}`);
  }

  unlock(): void {
    if (this.locked) rmSync(this.file('lock'), { force: true });
    this.locked = false;
  }

  readCheckpoint<T>(): T | null {
    const file = this.file('checkpoint.json');
    if (!existsSync(file)) return null;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as T;
    } catch {
      return null;
    }
  }

  writeCheckpoint(value: unknown): void {
    const file = this.file('checkpoint.json');
    writeFileSync(`${file}.tmp`, JSON.stringify(value));
    renameSync(`${file}.tmp`, file);
  }

  appendFetched(value: unknown): void {
    appendFileSync(this.file('fetched.jsonl'), `${JSON.stringify(value)}\n`);
  }

  /** Every whole line fetched so far (a torn last line is skipped). */
  readFetched<T>(): T[] {
    const file = this.file('fetched.jsonl');
    if (!existsSync(file)) return [];
    const out: T[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        out.push(JSON.parse(line) as T);
      } catch {
        // torn by a kill mid-write: fetched again
      }
    }
    return out;
  }

  /** Forget the sync's progress (it published, or the operator asked for a fresh start). */
  clear(): void {
    for (const name of ['checkpoint.json', 'fetched.jsonl']) rmSync(this.file(name), { force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
