// The floor of the benchmark: a bare node:http server that answers each
// request with the very bytes our server gave to the same request (recorded
// by bench/run.ts). No routing, validation, database or logging: what is left
// is the cost of HTTP on this machine, measured in the same run as ours.
//
// Usage: node bench/bare-replay.ts <recordings.json> <port>
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { replayKey, type Recording } from './lib/recording.ts';

const [file, port] = process.argv.slice(2);
const recordings = JSON.parse(readFileSync(file, 'utf8')) as Recording[];
const answers = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
for (const r of recordings) {
  const body = Buffer.from(r.responseBase64, 'base64');
  answers.set(replayKey(r.method, r.path, r.body), {
    status: r.status,
    headers: { ...r.headers, 'content-length': String(body.length) },
    body,
  });
}
const healthz = Buffer.from('{"status":"ok"}');

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : null;
    const answer = answers.get(replayKey(req.method ?? 'GET', req.url ?? '/', body));
    if (answer) {
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    } else if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(healthz.length) });
      res.end(healthz);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not recorded');
    }
  });
});
server.keepAliveTimeout = 72_000;
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
