// Compression of answers: one mechanism, @fastify/compress (registered in
// app.ts: br, gzip, deflate over 1 KiB, Vary, Accept-Encoding negotiation,
// x-no-compression, bodies already carrying a Content-Encoding left alone).
// What we add is only its zlib: the synchronous compressors it calls for a
// buffered body keep each result beside the very Buffer they compressed (a
// WeakMap), so a cached answer (http/answers.ts: the same Buffer object on
// every send) is compressed once per coding and its compressed bytes go with
// it when the cache lets it go; a body built per request is compressed as
// before and its entry dies with it.
//
// Bodies above SYNC_THRESHOLD are streamed by the plugin, uncached (none of
// the cached answers is that large: a page of 100 full records is ~250 KB).
import zlib from 'node:zlib';

/** Bodies up to this size are compressed in one call (and kept); larger ones are streamed. */
export const SYNC_THRESHOLD = 512 * 1024;

/** Bodies smaller than this are sent as they are. */
export const COMPRESS_THRESHOLD = 1024;

/** The content codings the server offers, in its order of preference. */
export const ENCODINGS = ['br', 'gzip', 'deflate'] as const;

/** Compressions done in this process (tests: a repeat of a cached answer compresses nothing). */
export const compressionStats = { compressed: 0 };

type SyncCompressor = (buffer: Buffer, options?: object) => Buffer;

function remembering(compress: SyncCompressor): SyncCompressor {
  const done = new WeakMap<Buffer, Buffer>();
  return (buffer, options) => {
    let out = done.get(buffer);
    if (out === undefined) {
      compressionStats.compressed++;
      out = compress(buffer, options);
      done.set(buffer, out);
    }
    return out;
  };
}

/** The zlib @fastify/compress is given: node:zlib, with its one-shot compressors remembering their results per Buffer. */
export const compressionZlib = {
  ...zlib,
  brotliCompressSync: remembering(zlib.brotliCompressSync),
  gzipSync: remembering(zlib.gzipSync),
  deflateSync: remembering(zlib.deflateSync),
};
