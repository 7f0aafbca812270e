// Raw UTF-8 in the request target, as curl sends `?q=スマート農業`, over a
// raw socket (node:net): the bytes answer 200 with the body the
// percent-encoded form gets, on fresh and keep-alive connections and when
// the line arrives in pieces; anything else the HTTP parser refuses (bad
// header bytes, CR/LF in the target, invalid UTF-8) still answers 400.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import { build } from '../helper.ts';
import { percentEncodeTarget } from '../../src/http/raw-utf8-target.ts';

interface Answer {
  status: number;
  headers: string;
  body: string;
}

/**
 * The answers on one connection: each request written (its parts with a
 * pause between them, as a slow client would), then its answer awaited
 * before the next, as curl does on a kept-alive connection. Stops early when
 * the server closes the connection. `expected`: answers to wait for in all
 * (more than the requests when one write holds several).
 */
async function exchange(port: number, requests: (Buffer | Buffer[])[], expected = requests.length): Promise<Answer[]> {
  const socket = net.connect(port, '127.0.0.1');
  let raw = Buffer.alloc(0);
  let closed = false;
  const answers: Answer[] = [];
  let wake = () => {};
  socket.on('data', (chunk) => {
    raw = Buffer.concat([raw, chunk]);
    for (;;) {
      const headEnd = raw.indexOf('\r\n\r\n');
      if (headEnd < 0) break;
      const head = raw.subarray(0, headEnd).toString('latin1');
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (raw.length < headEnd + 4 + length) break;
      answers.push({ status: Number(head.split(' ')[1]), headers: head, body: raw.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8') });
      raw = raw.subarray(headEnd + 4 + length);
    }
    wake();
  });
  const stop = () => {
    closed = true;
    wake();
  };
  socket.on('close', stop);
  socket.on('error', stop);
  const until = async (n: number) => {
    while (answers.length < n && !closed) await new Promise<void>((resolve) => (wake = resolve));
  };
  await new Promise((resolve) => socket.once('connect', resolve));
  for (const [i, parts] of requests.entries()) {
    for (const [j, part] of [parts].flat().entries()) {
      if (j) await new Promise((resolve) => setTimeout(resolve, 30));
      socket.write(part);
    }
    await until(i === requests.length - 1 ? expected : i + 1);
  }
  socket.destroy();
  return answers;
}

const request = (target: string | Buffer, headers = 'Host: x\r\n', body = ''): Buffer =>
  Buffer.concat([Buffer.from('GET '), Buffer.isBuffer(target) ? target : Buffer.from(target, 'utf8'), Buffer.from(` HTTP/1.1\r\n${headers}\r\n${body}`)]);

async function listening(t: { after(fn: () => unknown): void }): Promise<number> {
  const app = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

const SEARCH = '/v1/programs/search?q=スマート農業&tier=S&tier=A&limit=5&fields=minimal';
const ENCODED = `/v1/programs/search?q=${encodeURIComponent('スマート農業')}&tier=S&tier=A&limit=5&fields=minimal`;

test('a target with raw UTF-8 answers 200 with the body of its percent-encoded form', async (t) => {
  const port = await listening(t);
  const [encoded] = await exchange(port, [request(ENCODED)]);
  const [raw] = await exchange(port, [request(SEARCH)]);
  assert.equal(encoded.status, 200);
  assert.equal(raw.status, 200, raw.body);
  assert.ok(JSON.parse(raw.body).total > 0, 'the search found programmes');
  assert.deepEqual(JSON.parse(raw.body), JSON.parse(encoded.body));

  // In the path too: the same 404 as the encoded path, naming the decoded path.
  const [rawPath] = await exchange(port, [request('/v1/制度')]);
  const [encodedPath] = await exchange(port, [request(`/v1/${encodeURIComponent('制度')}`)]);
  assert.equal(rawPath.status, 404);
  assert.deepEqual(JSON.parse(rawPath.body), JSON.parse(encodedPath.body));

  // A POST with a body: the body reaches the route unchanged.
  const post = (target: string) => {
    const json = JSON.stringify({ program_ids: ['UNI-194743d166', 'UNI-76ff1702bc'], note: '併給' });
    return Buffer.concat([
      Buffer.from('POST '),
      Buffer.from(target, 'utf8'),
      Buffer.from(` HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`),
    ]);
  };
  const [rawPost] = await exchange(port, [post('/v1/exclusions/check?from=併給')]);
  const [encodedPost] = await exchange(port, [post(`/v1/exclusions/check?from=${encodeURIComponent('併給')}`)]);
  assert.deepEqual([rawPost.status, rawPost.body], [encodedPost.status, encodedPost.body]);
});

test('keep-alive: raw UTF-8 after an ordinary request, an ordinary one after it, and a line that arrives in pieces', async (t) => {
  const port = await listening(t);
  const answers = await exchange(port, [
    request('/healthz'),
    request(SEARCH),
    request('/v1/ping'),
    request('/v1/programs/search?q=省エネ&limit=1'),
    request('/v1/programs/search?q=創業&limit=1'),
    request('/healthz'),
  ]);
  assert.deepEqual(
    answers.map((a) => a.status),
    [200, 200, 200, 200, 200, 200],
  );
  for (const i of [1, 3, 4]) assert.ok(JSON.parse(answers[i].body).total > 0, `answer ${i} found programmes`);
  assert.ok(!answers.slice(0, 5).some((a) => /\r\nconnection: close/i.test(a.headers)), 'the connection is kept alive throughout');

  // The target split inside a UTF-8 sequence and again inside the line.
  const whole = request('/v1/programs/search?q=省エネ&limit=1');
  const cut = whole.indexOf(Buffer.from('エ', 'utf8')) + 1;
  const [split] = await exchange(port, [[whole.subarray(0, cut), whole.subarray(cut, cut + 5), whole.subarray(cut + 5)]]);
  assert.equal(split.status, 200, split.body);
  assert.ok(JSON.parse(split.body).total > 0);
});

test('what the parser refuses still answers 400: bad header bytes, CR or LF in the target, invalid UTF-8, a pipelined raw target', async (t) => {
  const port = await listening(t);
  const refused: [string, Buffer][] = [
    ['a control byte in a header value', request(SEARCH, 'Host: x\r\nX-Bad: a\x01b\r\n')],
    ['a space in a header name', request(SEARCH, 'Host: x\r\nX Bad: 1\r\n')],
    ['a header line without a colon', request(SEARCH, 'Host: x\r\nNoColon\r\n')],
    ['CRLF injected in the target', Buffer.from('GET /v1/ping?q=日本\r\nX-Injected: 1 HTTP/1.1\r\nHost: x\r\n\r\n', 'utf8')],
    ['a lone CR in the target', Buffer.from('GET /v1/ping?q=日本\rX: 1 HTTP/1.1\r\nHost: x\r\n\r\n', 'utf8')],
    ['a lone LF in the target', Buffer.from('GET /v1/ping?q=日本\nX: 1 HTTP/1.1\r\nHost: x\r\n\r\n', 'utf8')],
    ['a tab after raw UTF-8', request(Buffer.from('/v1/ping?q=日本\tx', 'utf8'))],
    ['invalid UTF-8', request(Buffer.from('/v1/ping?q=\xff\xfe', 'latin1'))],
    ['an overlong UTF-8 form of "/"', request(Buffer.from('/v1/ping?q=\xc0\xaf', 'latin1'))],
    ['a truncated UTF-8 sequence', request(Buffer.concat([Buffer.from('/v1/ping?q='), Buffer.from('日', 'utf8').subarray(0, 2)]))],
    ['a surrogate encoded in UTF-8', request(Buffer.from('/v1/ping?q=\xed\xa0\x80', 'latin1'))],
    ['a method this server does not route', Buffer.from('PROPFIND /v1/ping?q=日本 HTTP/1.1\r\nHost: x\r\n\r\n', 'utf8')],
    ['HTTP/0.9 style', Buffer.from('GET /v1/ping?q=日本\r\n\r\n', 'utf8')],
  ];
  for (const [what, bytes] of refused) {
    const answers = await exchange(port, [bytes]);
    assert.equal(answers.length, 1, `${what}: one answer`);
    assert.equal(answers[0].status, 400, `${what}: ${answers[0].body}`);
    assert.equal(typeof JSON.parse(answers[0].body).detail, 'string', what);
    assert.match(answers[0].headers, /\r\nConnection: close/i, what);
  }
  // Pipelined (sent before the previous answer): the raw target is not read again.
  // (The parse error is answered at once, as any is; the earlier request's answer may be cut off by it.)
  const pipelined = await exchange(port, [Buffer.concat([request('/healthz'), request(SEARCH)])], 2);
  assert.equal(pipelined.at(-1)?.status, 400);
  assert.ok(!pipelined.some((a) => /"total"/.test(a.body)), 'the raw pipelined search is not answered');
});

test('percentEncodeTarget rewrites only the target, only when it is valid UTF-8, and waits for its end', () => {
  const rewrite = percentEncodeTarget(Buffer.from('GET /a?q=日本 HTTP/1.1\r\nX-Name: 日本\r\n\r\n{"q":"日本"}', 'utf8'));
  assert.equal(rewrite.kind, 'rewritten');
  assert.equal(
    rewrite.kind === 'rewritten' && rewrite.bytes.toString('utf8'),
    'GET /a?q=%E6%97%A5%E6%9C%AC HTTP/1.1\r\nX-Name: 日本\r\n\r\n{"q":"日本"}',
    'headers and body are as they came',
  );
  assert.equal(percentEncodeTarget(Buffer.from('GET /a?q=日', 'utf8')).kind, 'incomplete');
  assert.equal(percentEncodeTarget(Buffer.from('GET /a?q=abc HTTP/1.1\r\n')).kind, 'unchanged');
  assert.equal(percentEncodeTarget(Buffer.from('GET /a?q=\xff HTTP/1.1\r\n', 'latin1')).kind, 'unchanged');
  assert.equal(percentEncodeTarget(Buffer.from('GET http://x/日 HTTP/1.1\r\n', 'utf8')).kind, 'unchanged', 'origin-form targets only');
});
