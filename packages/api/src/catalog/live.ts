// The served catalogue of one process, swapped without a restart.
//
// A sync (or `cli ingest`) builds a new catalogue into a temporary file and
// renames it over DATA_DIR/catalog.sqlite: the rename is the publication.
// Every serving process (one per cluster worker; they share nothing but the
// file system) notices the new file by itself — fs.watch on DATA_DIR, and a
// poll of the file's identity as a fallback for file systems without
// notifications — opens it, loads its search index *before* the swap (the
// first request on the new catalogue must not pay for it), and then replaces
// the reference in one assignment. The previous catalogue stays open until
// every request that started on it has finished (leases), then it is closed.
import { statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { Catalog } from './catalog.ts';

interface Generation {
  catalog: Catalog;
  identity: string;
  leases: number;
  retired: boolean;
}

export interface Lease {
  readonly catalog: Catalog;
  /** Idempotent. */
  release(): void;
}

export interface LiveCatalogOptions {
  /** Poll interval in ms besides fs.watch (0: watch only). */
  pollMs?: number;
  /** Hears swaps and failed opens (the server logs them). */
  log?: (event: { type: 'swapped'; from: string; to: string } | { type: 'open-failed'; error: string } | { type: 'closed-retired'; version: string }) => void;
}

/** dev:ino:size:mtime of the file, or null when it is missing. */
function identityOf(file: string): string | null {
  try {
    const st = statSync(file);
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return null;
  }
}

export class LiveCatalog {
  readonly file: string;
  private current: Generation;
  private readonly retired = new Set<Generation>();
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<boolean> | null = null;
  private readonly log: NonNullable<LiveCatalogOptions['log']>;

  private readonly options: LiveCatalogOptions;

  constructor(file: string, options: LiveCatalogOptions = {}) {
    this.file = file;
    this.options = options;
    const identity = identityOf(file) ?? '';
    this.current = { catalog: new Catalog(file), identity, leases: 0, retired: false };
    this.log = options.log ?? (() => {});
  }

  /** The catalogue new work should use. */
  get catalog(): Catalog {
    return this.current.catalog;
  }

  /** Pins the current catalogue open until release() (one per request). */
  acquire(): Lease {
    const gen = this.current;
    gen.leases++;
    let released = false;
    return {
      catalog: gen.catalog,
      release: () => {
        if (released) return;
        released = true;
        gen.leases--;
        this.closeIfIdle(gen);
      },
    };
  }

  /** Starts watching the file's directory (and polling). */
  start(): void {
    const dir = path.dirname(this.file);
    const base = path.basename(this.file);
    try {
      this.watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (name === null || name === base) void this.check();
      });
      this.watcher.on('error', () => {
        this.watcher?.close();
        this.watcher = null;
      });
    } catch {
      this.watcher = null; // the poll below still notices
    }
    const pollMs = this.options.pollMs ?? 5000;
    if (pollMs > 0) {
      this.timer = setInterval(() => void this.check(), pollMs);
      this.timer.unref();
    }
  }

  /**
   * Swaps in the file on disk when it is not the one being served. Resolves
   * true when it swapped. Concurrent calls share one check.
   */
  check(): Promise<boolean> {
    this.checking ??= this.swapIfChanged().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async swapIfChanged(): Promise<boolean> {
    const identity = identityOf(this.file);
    if (identity === null || identity === this.current.identity) return false;
    let next: Catalog;
    try {
      next = new Catalog(this.file);
      if (!next.db.ping()) throw new Error('catalogue does not answer');
      // Build the in-memory search columns (and what first requests build) now, not on the first request.
      next.warm();
    } catch (err) {
      // A half-written file is never renamed into place; this is a broken
      // file or a race with the next rename. Keep serving the old one.
      this.log({ type: 'open-failed', error: err instanceof Error ? err.message : String(err) });
      return false;
    }
    const previous = this.current;
    this.current = { catalog: next, identity, leases: 0, retired: false };
    previous.retired = true;
    this.retired.add(previous);
    this.log({ type: 'swapped', from: previous.catalog.version, to: next.version });
    this.closeIfIdle(previous);
    return true;
  }

  private closeIfIdle(gen: Generation): void {
    if (!gen.retired || gen.leases > 0) return;
    this.retired.delete(gen);
    const version = gen.catalog.version;
    gen.catalog.close();
    this.log({ type: 'closed-retired', version });
  }

  /** Stops watching and closes every catalogue (the process is ending). */
  close(): void {
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
    for (const gen of this.retired) gen.catalog.close();
    this.retired.clear();
    this.current.catalog.close();
  }
}
