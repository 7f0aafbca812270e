// Hostile webhook receivers in a process of their own (issue 24, M1), over
// raw sockets so every byte is ours to time:
// - /trickle…  reads the request, then sends its status line and headers one
//              byte every TRICKLE_MS, never finishing them;
// - /stream…   answers 200 at once and streams a chunked body forever;
// - /ok…       answers 200 and closes; /fail… answers 500 and closes.
// The test reads what they saw from a control port: sockets open now,
// connections accepted, and requests per path.
// `startSlowReceivers(t)` spawns this file; run directly, it serves.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const TRICKLE_MS = 300;

export interface ReceiverStats {
  /** Sockets open now. */
  open: number;
  accepted: number;
  /** Requests per path, in the order they arrived. */
  paths: string[];
}

export interface SlowReceivers {
  /** http://127.0.0.1:port (append /trickle, /stream, /ok or /fail and anything after). */
  base: string;
  stats(): Promise<ReceiverStats>;
  /** Wait until `done(stats)` holds, or fail after `timeoutMs` (a safety net, not a measurement). */
  waitFor(done: (s: ReceiverStats) => boolean, timeoutMs?: number): Promise<ReceiverStats>;
}

function serve(): void {
  const sockets = new Set<net.Socket>();
  const stats: ReceiverStats = { open: 0, accepted: 0, paths: [] };
  const receivers = net.createServer((socket) => {
    sockets.add(socket);
    stats.accepted++;
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    let head = '';
    let started = false;
    socket.on('data', (chunk) => {
      if (started) return;
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      started = true;
      const path = head.split(' ')[1] ?? '/';
      stats.paths.push(path);
      if (path.startsWith('/trickle')) {
        const answer = `HTTP/1.1 200 OK\r\nX-Trickle: ${'z'.repeat(100_000)}`;
        let i = 0;
        const timer = setInterval(() => {
          if (socket.destroyed) return clearInterval(timer);
          socket.write(answer[i++ % answer.length]);
        }, TRICKLE_MS);
        socket.on('close', () => clearInterval(timer));
      } else if (path.startsWith('/stream')) {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n');
        const timer = setInterval(() => {
          if (socket.destroyed) return clearInterval(timer);
          socket.write(`400\r\n${'x'.repeat(0x400)}\r\n`);
        }, 20);
        socket.on('close', () => clearInterval(timer));
      } else if (path.startsWith('/fail')) {
        socket.end('HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      } else {
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
      }
    });
  });
  const control = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...stats, open: sockets.size }));
  });
  receivers.listen(0, '127.0.0.1', () => {
    control.listen(0, '127.0.0.1', () => {
      const port = (receivers.address() as net.AddressInfo).port;
      const controlPort = (control.address() as net.AddressInfo).port;
      process.stdout.write(`${JSON.stringify({ port, controlPort })}\n`);
    });
  });
}

export async function startSlowReceivers(t: { after(fn: () => unknown): void }): Promise<SlowReceivers> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', fileURLToPath(import.meta.url)], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
  const { port, controlPort } = await new Promise<{ port: number; controlPort: number }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += String(c);
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
    });
    child.once('exit', (code) => reject(new Error(`slow receivers exited with ${code}`)));
  });
  const agent = new http.Agent({ keepAlive: false });
  const stats = () =>
    new Promise<ReceiverStats>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${controlPort}/`, { agent }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve(JSON.parse(body)));
        })
        .on('error', reject);
    });
  return {
    base: `http://127.0.0.1:${port}`,
    stats,
    async waitFor(done, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const s = await stats();
        if (done(s)) return s;
        if (Date.now() > until) throw new Error(`receivers never reached the expected state: ${JSON.stringify({ ...s, paths: s.paths.length })}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serve();
