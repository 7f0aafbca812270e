// Progress of a sync for the operator: a bar redrawn in place on a terminal,
// plain lines (at most one per 10 % and per phase change) otherwise — cron
// mail and journald get a readable log, not a wall of carriage returns.

export interface Progress {
  phase(name: string, total: number): void;
  tick(done: number): void;
  line(text: string): void;
  end(): void;
}

export function progressReporter(out: NodeJS.WriteStream | { write(s: string): unknown; isTTY?: boolean }, quiet = false): Progress {
  const tty = Boolean(out.isTTY);
  let name = '';
  let total = 0;
  let lastDecile = -1;
  let drawn = false;
  const clear = () => {
    if (drawn) out.write('\r\x1b[K');
    drawn = false;
  };
  return {
    phase(next, count) {
      if (quiet) return;
      clear();
      name = next;
      total = count;
      lastDecile = -1;
      out.write(`${name}: ${count} to do\n`);
    },
    tick(done) {
      if (quiet || total === 0) return;
      const ratio = Math.min(1, done / total);
      if (tty) {
        const width = 30;
        const full = Math.round(ratio * width);
        out.write(`\r[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${done}/${total} ${name}`);
        drawn = true;
        return;
      }
      const decile = Math.floor(ratio * 10);
      if (decile !== lastDecile && decile > lastDecile) {
        lastDecile = decile;
        out.write(`${name}: ${done}/${total} (${Math.round(ratio * 100)}%)\n`);
      }
    },
    line(text) {
      if (quiet) return;
      clear();
      out.write(`${text}\n`);
    },
    end() {
      clear();
    },
  };
}
