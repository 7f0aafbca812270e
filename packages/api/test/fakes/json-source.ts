// The shell of a local fake of a public JSON API (jgrants-server.ts,
// egov-server.ts): a node:http server on a random loopback port that logs
// every request's path and query and answers through `send`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Send = (status: number, body: unknown, headers?: Record<string, string>) => void;

export interface JsonSource {
  origin: string;
  /** Paths (with query) of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startJsonSource(handle: (url: URL, send: Send) => void): Promise<JsonSource> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(`${url.pathname}${url.search}`);
    handle(url, (status, body, headers = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
