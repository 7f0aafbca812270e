// A throwaway PostgreSQL server of the test's own (initdb into a temporary
// directory, pg_ctl on a free port), so a test can stop and start the
// database under a running service without touching the PostgreSQL other
// tests and engineers share. As root, the server runs as the `postgres` user.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { freePort } from '../free-port.ts';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

const BIN_ROOT = '/usr/lib/postgresql';

/** The directory of initdb/pg_ctl, or null when PostgreSQL's server binaries are not installed. */
export function postgresBinDir(): string | null {
  if (!existsSync(BIN_ROOT)) return null;
  const versions = readdirSync(BIN_ROOT)
    .filter((v) => existsSync(path.join(BIN_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(BIN_ROOT, versions[0], 'bin') : null;
}

export class ThrowawayPostgres {
  readonly dir: string;
  readonly port: number;
  private readonly bin: string;
  private readonly asPostgres: boolean;

  private constructor(bin: string, dir: string, port: number) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
    this.asPostgres = userInfo().uid === 0;
  }

  static async create(): Promise<ThrowawayPostgres> {
    const bin = postgresBinDir();
    if (!bin) throw new Error('PostgreSQL server binaries not found');
    const dir = mkdtempSync(path.join(tmpdir(), 'jpsp-pg-'));
    const pg = new ThrowawayPostgres(bin, dir, await freePort());
    if (pg.asPostgres) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(dir, uid, gid);
      chmodSync(dir, 0o700);
    }
    pg.run('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    await pg.start();
    return pg;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private run(tool: string, args: string[]): void {
    const command = path.join(this.bin, tool);
    if (this.asPostgres) {
      const quoted = [command, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
      execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { stdio: 'pipe' });
    } else {
      execFileSync(command, args, { stdio: 'pipe' });
    }
  }

  async start(): Promise<void> {
    this.run('pg_ctl', [
      '-D',
      path.join(this.dir, 'data'),
      '-w',
      '-l',
      path.join(this.dir, 'log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`,
      'start',
    ]);
  }

  async stop(): Promise<void> {
    this.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-w', '-m', 'fast', 'stop']);
  }

  async destroy(): Promise<void> {
    try {
      await this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
