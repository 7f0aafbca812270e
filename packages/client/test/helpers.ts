// Test helpers: a real local node:http server whose answers a test scripts,
// and a sleep recorder so retry tests never wait.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface ScriptedServer {
  baseUrl: string;
  /** Every request received, in order. */
  requests: Recorded[];
  close(): Promise<void>;
}

/** `handle(req, res, n)` answers the n-th request (0-based); it may also destroy the socket or never answer. */
export async function scriptedServer(
  t: { after(fn: () => unknown): void },
  handle: (req: Recorded, res: ServerResponse, n: number) => void,
): Promise<ScriptedServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(rec);
      handle(rec, res, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  t.after(close);
  return { baseUrl: `http://127.0.0.1:${port}`, requests, close };
}

/** Answer JSON with a status and optional headers. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A `sleep` that records the requested delays and returns at once. */
export function recordingSleep(): { delays: number[]; sleep: (ms: number) => Promise<void> } {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}
