// Raw UTF-8 in a request target, read as if it were percent-encoded.
//
// curl, wget and many HTTP libraries send `GET /v1/programs/search?q=省エネ`
// with the Japanese bytes as they are. Node's HTTP parser (llhttp) refuses
// any byte above 0x7F in the target (HPE_INVALID_URL, "Invalid char in url
// query"), and none of its leniency settings changes that: neither
// `insecureHTTPParser` nor `httpValidation: 'insecure'` accepts them, and
// both would loosen header and framing checks besides. So the refusal is
// turned into a second reading instead:
//
// 1. The parser refuses a request; our clientError handler
//    (plugins/framework-errors.ts) asks `rereadRawUtf8Target` first.
// 2. It takes the connection over only when the refused byte is above 0x7F,
//    inside the first request line of what the parser was reading, the line
//    is `METHOD SP /target SP HTTP/1.x CRLF` with a method this server
//    routes, the target is valid UTF-8, and no answer is under way on the
//    connection.
// 3. The connection is handed to the same HTTP server again as a new one (a
//    thin stream over the socket, so a fresh parser reads it), and the bytes
//    are replayed with that one request line's target rewritten: each byte
//    above 0x7F becomes `%XX`. Nothing else is changed: the method, the
//    version, every header and the body reach the fresh parser as they came,
//    and it checks them as strictly as it checks any request. A target that
//    is not valid UTF-8, is cut by a CR or LF, or holds anything else the
//    parser refuses (control characters) is not read again: 400 as before.
//    A later request of the same connection with raw bytes is read again
//    the same way (a new stream over the same socket).
//
// Only connections that would otherwise have been refused take this path;
// every other request is parsed once, by Node, as before. A pipelined
// request (one sent before the previous answer) whose target holds raw
// bytes is not reread (its line does not start the parser's buffer): 400.
import { Duplex } from 'node:stream';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Methods this server routes (others answer 400 when their target has raw bytes; 404 otherwise). */
const METHODS = ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'];
const SP = 0x20;
const CR = 0x0d;
const LF = 0x0a;
/** Node's default limit of a request's head (--max-http-header-size): a longer target is not waited for. */
const DEFAULT_MAX_HEAD = 16 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const VERSIONS = [' HTTP/1.1\r\n', ' HTTP/1.0\r\n'].map((v) => Buffer.from(v, 'latin1'));

/** Streams and sockets whose failed parser's bytes are now read by another stream: its later errors are not answered. */
const abandoned = new WeakSet<object>();

/** The start of the target when `bytes` begins `METHOD SP /`, else -1. */
function targetStart(bytes: Buffer): number {
  for (const method of METHODS) {
    const n = method.length;
    if (bytes.length > n + 1 && bytes.toString('latin1', 0, n) === method && bytes[n] === SP && bytes[n + 1] === 0x2f) return n + 1;
  }
  return -1;
}

export type TargetRewrite =
  | { kind: 'rewritten'; bytes: Buffer }
  /** Nothing to rewrite, or not a request line this reads (not valid UTF-8, no HTTP/1.x version after it): the parser judges. */
  | { kind: 'unchanged' }
  /** The request line has not ended yet: wait for more bytes. */
  | { kind: 'incomplete' };

/**
 * The request head `bytes` (from the start of a request line) with the
 * target's bytes above 0x7F percent-encoded, when the line is
 * `METHOD SP target SP HTTP/1.x CRLF` and the target is valid UTF-8.
 */
export function percentEncodeTarget(bytes: Buffer): TargetRewrite {
  const start = targetStart(bytes);
  if (start < 0) return { kind: 'unchanged' };
  let end = start;
  while (end < bytes.length && bytes[end] !== SP && bytes[end] !== CR && bytes[end] !== LF) end++;
  const version = bytes.subarray(end, end + VERSIONS[0].length);
  if (version.length < VERSIONS[0].length)
    return VERSIONS.some((v) => v.subarray(0, version.length).equals(version)) ? { kind: 'incomplete' } : { kind: 'unchanged' };
  // A target ended by CR or LF (a line without a version, or one cut by an injected line break) is not read again.
  if (!VERSIONS.some((v) => v.equals(version))) return { kind: 'unchanged' };
  const target = bytes.subarray(start, end);
  if (!target.some((b) => b > 0x7f)) return { kind: 'unchanged' };
  try {
    utf8.decode(target);
  } catch {
    return { kind: 'unchanged' };
  }
  let encoded = '';
  for (const b of target) encoded += b > 0x7f ? `%${b.toString(16).toUpperCase()}` : String.fromCharCode(b);
  return { kind: 'rewritten', bytes: Buffer.concat([bytes.subarray(0, start), Buffer.from(encoded, 'latin1'), bytes.subarray(end)]) };
}

interface ParseError extends Error {
  code?: string;
  rawPacket?: Buffer;
  bytesParsed?: number;
}

type Connection = (Socket | SocketStream) & { server?: Server; _httpMessage?: unknown };

/**
 * Called first by the clientError handler. True: the request is being read
 * again (or the error is a leftover of a parser whose bytes another stream
 * now reads) and must not be answered; false: answer the error as usual.
 */
export function rereadRawUtf8Target(err: ParseError, connection: Connection): boolean {
  if (abandoned.has(connection)) return true;
  if (err.code !== 'HPE_INVALID_URL') return false;
  const packet = err.rawPacket;
  const at = err.bytesParsed;
  // The refused byte is a raw one, in the first line of what the parser was reading.
  if (!packet || typeof at !== 'number' || !(packet[at] > 0x7f) || packet.subarray(0, at).includes(LF)) return false;
  const server = connection.server;
  if (!server || connection._httpMessage || connection.destroyed) return false;
  const maxHead = (server as Server & { maxHeaderSize?: number }).maxHeaderSize ?? DEFAULT_MAX_HEAD;
  const rewrite = percentEncodeTarget(packet);
  if (rewrite.kind === 'unchanged' || (rewrite.kind === 'incomplete' && packet.length > maxHead)) return false;

  abandoned.add(connection);
  let socket: Socket;
  let unread: Buffer[] = [];
  if (connection instanceof SocketStream) {
    // A later request of a connection read again already: a new stream over the same socket.
    ({ socket, unread } = connection.detach());
  } else {
    socket = connection;
    // Node's parser of this socket has failed for good: only its 'close' listener (which frees it) stays.
    for (const event of ['data', 'end'] as const) for (const listener of socket.listeners(event)) socket.removeListener(event, listener as never);
    // A keep-alive timer of an earlier answer must not cut the request that is now read again.
    socket.setTimeout(0);
  }
  const stream = new SocketStream(socket, maxHead);
  for (const chunk of [packet, ...unread]) stream.receive(chunk);
  server.emit('connection', stream);
  return true;
}

/**
 * The socket as the HTTP server sees a connection: reads are the socket's
 * bytes with the first request line's target rewritten; writes, timeouts and
 * destruction go to the socket; the addresses are the socket's.
 */
class SocketStream extends Duplex {
  private held: Buffer | null = Buffer.alloc(0);
  private detached = false;
  private readonly socket: Socket;
  private readonly maxHead: number;
  private readonly forwarders: [string, (chunk: Buffer) => void][];

  constructor(socket: Socket, maxHead: number) {
    super({ allowHalfOpen: true });
    this.socket = socket;
    this.maxHead = maxHead;
    this.forwarders = [
      ['data', (chunk: Buffer) => this.receive(chunk)],
      ['end', () => this.receiveEnd()],
      ['drain', () => this.emit('drain')],
      ['timeout', () => this.emit('timeout')],
      ['close', () => this.destroy()],
      ['error', () => this.destroy()],
    ];
    // Adding a 'data' listener also makes Node's HTTP server stop feeding the socket to its own parser.
    for (const [event, listener] of this.forwarders) socket.on(event, listener);
  }

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }
  get remotePort(): number | undefined {
    return this.socket.remotePort;
  }
  get remoteFamily(): string | undefined {
    return this.socket.remoteFamily;
  }
  get localAddress(): string | undefined {
    return this.socket.localAddress;
  }
  get localPort(): number | undefined {
    return this.socket.localPort;
  }

  /** Bytes from the socket: held until the first request line has ended (or cannot be read again), then passed on as they come. */
  receive(chunk: Buffer): void {
    if (this.held !== null) {
      this.held = Buffer.concat([this.held, chunk]);
      const rewrite = percentEncodeTarget(this.held);
      if (rewrite.kind === 'incomplete' && this.held.length <= this.maxHead) return;
      chunk = rewrite.kind === 'rewritten' ? rewrite.bytes : this.held;
      this.held = null;
    }
    if (!this.push(chunk) && !this.detached) this.socket.pause();
  }

  receiveEnd(): void {
    if (this.held?.length) this.push(this.held);
    this.held = null;
    this.push(null);
  }

  /** Stop reading the socket (a new stream takes it over); returns it with the bytes received but not yet read. */
  detach(): { socket: Socket; unread: Buffer[] } {
    this.detached = true;
    for (const [event, listener] of this.forwarders) this.socket.removeListener(event, listener);
    const unread: Buffer[] = [];
    if (this.held?.length) unread.push(this.held);
    this.held = null;
    for (let chunk = this.read() as Buffer | null; chunk !== null; chunk = this.read() as Buffer | null) unread.push(chunk);
    this.destroy();
    return { socket: this.socket, unread };
  }

  override _read(): void {
    if (!this.detached) this.socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.socket.write(chunk, encoding, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end(callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.detached && !this.socket.destroyed) this.socket.destroy();
    callback(error);
  }

  setTimeout(ms: number, callback?: () => void): this {
    if (!this.detached) this.socket.setTimeout(ms);
    if (callback) this.once('timeout', callback);
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.socket.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, initialDelay?: number): this {
    this.socket.setKeepAlive(enable, initialDelay);
    return this;
  }
}
