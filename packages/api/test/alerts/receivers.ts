// Local receivers for the outbound tests: a real SMTP server (smtp-server)
// that keeps the parsed messages (mailparser), and an HTTP webhook receiver
// whose answer status the test sets.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

type Ctx = { after(fn: () => unknown): void };

export interface SmtpSink {
  url: string;
  messages: ParsedMail[];
  /** Resolves when at least `n` messages have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<ParsedMail[]>;
}

export async function startSmtpSink(t: Ctx): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        messages.push(mail);
        for (const w of waiters.splice(0)) w();
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(n, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} messages, got ${messages.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return messages;
    },
  };
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: Received[];
  /** The status the next requests are answered with. */
  status: number;
}

export async function startWebhookReceiver(t: Ctx): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = { url: '', port: 0, received: [], status: 200 };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, body, status: receiver.status });
      res.writeHead(receiver.status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks/jpsp`;
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return receiver;
}
