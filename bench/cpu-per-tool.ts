// `node bench/cpu-per-tool.ts [--tools search_loan_programs,list_open_programs,get_meta] [--root <checkout>]`:
// CPU time per MCP `tools/call` of tools other than search_programs (which
// bench/cpu-per-call.ts measures as `mcp-search`), in process, independent
// of the machine's load, with the driver of cpu-per-call.ts (bench/lib/cpu.ts:
// the app built as a worker builds it over the bench catalogue), a paid key,
// each call through `inject`, 16 at a time; per call the CPU µs
// (process.cpuUsage, the least of 3 rounds) and the Fastify passes (the /mcp
// request plus each call a tool sends to a route through `inject`; a call
// answered in process, plugins/in-process.ts, adds none).
// --root measures another checkout's app (before/after).
import { parseArgs } from 'node:util';
import path from 'node:path';
import { REPO_ROOT } from './lib/processes.ts';
import { concurrentRun, leastCpuPerCall, measuredApp } from './lib/cpu.ts';

/** Arguments of each tool measured: calls the bench catalogue answers with rows. */
const ARGUMENTS: Record<string, object> = {
  search_loan_programs: { q: '創業', limit: 10 },
  list_open_programs: { prefecture: '東京都', limit: 10 },
  get_am_tax_rule: { measure_name_or_id: '特別償却' },
  get_meta: {},
};

const { values } = parseArgs({
  options: {
    tools: { type: 'string', default: Object.keys(ARGUMENTS).join(',') },
    calls: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    root: { type: 'string' },
  },
});
const measured = await measuredApp(values.root ? path.resolve(values.root) : REPO_ROOT);
const headers = { 'x-api-key': measured.keys.paid, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const calls = Number(values.calls);
for (const name of values.tools.split(',')) {
  const args = ARGUMENTS[name];
  if (!args) throw new Error(`no arguments for ${name}: one of ${Object.keys(ARGUMENTS).join(', ')}`);
  const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const run = concurrentRun(
    measured,
    () => ({ method: 'POST', url: '/mcp', headers, payload }),
    Number(values.concurrency),
    (res) => res.statusCode !== 200 || res.body.includes('"isError":true'),
  );
  const { cpuMicros, passesPerCall, failures } = await leastCpuPerCall(measured, run, calls, Number(values.rounds), 300);
  console.log(
    `${name}: ${cpuMicros.toFixed(0)} µs CPU per call (least of ${values.rounds} × ${calls}), ${passesPerCall.toFixed(2)} passes per call, ${failures} failures`,
  );
}
await measured.close();
