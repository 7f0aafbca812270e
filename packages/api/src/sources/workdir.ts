// The scratch state of one source's sync, under DATA_DIR/sources/<source>/work:
// what makes a sync killed halfway continue where it stopped.
//   checkpoint.json  the plan and how far it got (replaced by rename: never torn)
//   fetched.jsonl    one line per record fetched (appended; a kill may tear the
//                    last line, which is then fetched again)
//   lock             the pid of the running sync (one sync per source at a time)
// The work directory is removed when a sync published its dataset version.
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sourcesDir } from '../ingest/overlays.ts';
import { LockHeld, takePidLock } from '../lib/pid-lock.ts';

export class SyncLocked extends Error {}

export class SyncWorkDir {
  readonly dir: string;
  private release: (() => void) | null = null;

  constructor(dataDir: string, source: string) {
    this.dir = path.join(sourcesDir(dataDir), source, 'work');
    mkdirSync(this.dir, { recursive: true });
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }

  /** Takes the source's lock; a lock whose process is gone (a kill -9) is taken over. */
  lock(): void {
    try {
      this.release = takePidLock(this.file('lock'));
    } catch (err) {
      if (err instanceof LockHeld) throw new SyncLocked(`another sync (pid ${err.pid}) is running for ${path.basename(path.dirname(this.dir))}`);
      throw err;
    }
  }

  unlock(): void {
    this.release?.();
    this.release = null;
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
