// `versions [list] [--json] | show ID | rollback [--to ID] [--no-changes] | pull`:
// the dataset versions published through the state store (versions/), their
// reports and which servers serve them; a rollback to the previous version in
// one command; and the pull a server runs to follow the current version
// (process/follow.ts runs it in a child process).
import { parseArgs } from 'node:util';
import type { Command } from './types.ts';
import { openStateStore } from '../state/index.ts';
import { SERVER_SEEN_SECONDS, type CatalogVersion, type ServerReport } from '../state/repositories/catalog-versions.ts';
import { pullHead } from '../versions/pull.ts';
import { rollback, RollbackRefused } from '../versions/rollback.ts';
import { PULL_BUSY_EXIT } from '../process/follow.ts';
import { IngestError } from '../ingest/ingest.ts';

const USAGE = 'usage: versions [list] [--limit N] [--json] | versions show ID | versions rollback [--to ID] [--no-changes] | versions pull';

/** A version's report in one line (counts and quarantine), for the list. */
function reportLine(report: unknown): string {
  if (!report || typeof report !== 'object') return '';
  const r = report as { counts?: Record<string, number>; quarantine?: { set_aside: number } | null };
  const counts = Object.entries(r.counts ?? {})
    .filter(([k]) => k !== 'errors')
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return `${counts}${r.quarantine ? `; set aside ${r.quarantine.set_aside}` : ''}`;
}

const serverName = (s: ServerReport) => `${s.host} pid ${s.pid} (${s.dataDir})`;

export const versionsCommand: Command = {
  name: 'versions',
  summary:
    'Dataset versions published by syncs (newest first), their reports and which servers serve them; `versions rollback` makes the previous version current again on every server; `versions show ID`; `versions pull` (what a server runs to follow the current one)',
  async run(args, config) {
    const [sub = 'list', ...rest] = args[0]?.startsWith('-') ? ['list', ...args] : args;
    let values;
    let positionals;
    try {
      ({ values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          json: { type: 'boolean', default: false },
          limit: { type: 'string' },
          to: { type: 'string' },
          'no-changes': { type: 'boolean', default: false },
          quiet: { type: 'boolean', default: false },
        },
      }));
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
      return 2;
    }
    const store = await openStateStore(config);
    try {
      if (sub === 'list') {
        const limit = values.limit === undefined ? 20 : Number(values.limit);
        if (!(Number.isInteger(limit) && limit > 0)) {
          process.stderr.write(`--limit must be a positive integer\n${USAGE}\n`);
          return 2;
        }
        const now = Date.now();
        const head = await store.catalogVersions.head();
        const versions = await store.catalogVersions.versions(limit);
        const servers = await store.catalogVersions.servers(
          new Date(now - SERVER_SEEN_SECONDS * 1000).toISOString(),
          new Date(now - 24 * 3600_000).toISOString(),
        );
        const servedBy = (v: CatalogVersion) => servers.filter((s) => s.versionId === v.id);
        const known = new Set(versions.map((v) => v.id));
        const elsewhere = servers.filter((s) => !known.has(s.versionId));
        if (values.json) {
          process.stdout.write(
            `${JSON.stringify(
              {
                current: head.versionId,
                changed_at: head.changedAt,
                changed_by: head.changedBy,
                versions: versions.map((v) => ({
                  id: v.id,
                  seq: v.seq,
                  current: v.id === head.versionId,
                  parent: v.parent,
                  reason: v.reason,
                  published_at: v.publishedAt,
                  published_by: v.publishedBy,
                  feed_version: v.feedVersion,
                  sources: Object.fromEntries(Object.entries(v.manifest).map(([s, m]) => [s, m.name])),
                  report: v.report,
                  servers: servedBy(v),
                })),
                other_servers: elsewhere,
              },
              null,
              2,
            )}\n`,
          );
          return 0;
        }
        if (versions.length === 0) process.stdout.write('no dataset version published yet (a sync publishes one)\n');
        for (const v of versions) {
          const mark = v.id === head.versionId ? '*' : ' ';
          const sources = Object.entries(v.manifest)
            .map(([s, m]) => `${s} ${m.name}`)
            .join(', ');
          process.stdout.write(`${mark} ${v.id}  #${v.seq}  ${v.publishedAt}  ${v.reason}  by ${v.publishedBy}\n`);
          process.stdout.write(`    overlays: ${sources || 'none (the bundled dataset only)'}\n`);
          const line = reportLine(v.report);
          if (line) process.stdout.write(`    report: ${line}\n`);
          if (v.feedVersion !== null) process.stdout.write(`    change feed: version ${v.feedVersion}\n`);
          for (const s of servedBy(v)) process.stdout.write(`    served by ${serverName(s)}\n`);
        }
        for (const s of elsewhere) process.stdout.write(`  ${s.versionId} (not published through the store) served by ${serverName(s)}\n`);
        if (head.versionId)
          process.stdout.write(`current: ${head.versionId} since ${head.changedAt} (${head.changedBy}); \`versions rollback\` goes back to its parent\n`);
        return 0;
      }
      if (sub === 'show') {
        const id = positionals[0];
        const v = id ? await store.catalogVersions.version(id) : null;
        if (!v) {
          process.stderr.write(id ? `no dataset version ${id}\n` : `${USAGE}\n`);
          return id ? 1 : 2;
        }
        process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
        return 0;
      }
      if (sub === 'rollback') {
        try {
          const out = await rollback(config, store, {
            to: values.to,
            recordChanges: !values['no-changes'],
            log: (l) => process.stderr.write(`${l}\n`),
          });
          process.stderr.write(`rolled back from ${out.from} to ${out.versionId}; every server follows it\n`);
          return 0;
        } catch (err) {
          if (err instanceof RollbackRefused || err instanceof IngestError) {
            process.stderr.write(`rollback refused: ${err.message}\n`);
            return 1;
          }
          throw err;
        }
      }
      if (sub === 'pull') {
        const say = (l: string) => {
          if (!values.quiet) process.stderr.write(`${l}\n`);
        };
        const out = await pullHead(config, store, { progress: say });
        if (out.kind === 'busy') {
          say(`another process (pid ${out.pid}) is updating this DATA_DIR's catalogue`);
          return PULL_BUSY_EXIT;
        }
        say(
          out.kind === 'none'
            ? 'no dataset version published yet: DATA_DIR keeps what it has'
            : out.kind === 'current'
              ? `dataset version ${out.versionId} is served already`
              : `dataset version ${out.versionId} pulled`,
        );
        return 0;
      }
      process.stderr.write(`${USAGE}\n`);
      return 2;
    } finally {
      await store.close();
    }
  },
};
