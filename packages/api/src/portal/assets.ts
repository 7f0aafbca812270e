// The files the portal's pages load, all served by this server (no CDN, no
// font host): our stylesheets, our page scripts, and Swagger UI from its npm
// package (swagger-ui-dist). Everything is read once, when the app starts.
//
// The page scripts are TypeScript in ./browser/, type-checked with the rest
// of the code base and served as JavaScript by Node's own type stripping
// (`module.stripTypeScriptTypes`, which replaces annotations with blanks):
// no bundler, no build step. They import each other by relative `.ts` paths,
// which the browser resolves to the same URLs. Stripping loads Node's type
// stripper (amaro, ~9 MB of wasm memory kept for the life of the process):
// with the compile cache on (process/compile-cache.ts, decision 0426), a
// script's stripped form is kept beside that cache, keyed by its source and
// Node's version, so a worker started on a warm cache never loads it.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, getCompileCacheDir, stripTypeScriptTypes } from 'node:module';
import path from 'node:path';
import { brotliCompress, constants } from 'node:zlib';

const HERE = import.meta.dirname;
const BROWSER_DIR = path.join(HERE, 'browser');
const STATIC_DIR = path.join(HERE, 'static');
const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const SWAGGER_VERSION = (JSON.parse(readFileSync(path.join(SWAGGER_DIR, 'package.json'), 'utf8')) as { version: string }).version;

/** Where the pages find their assets. */
export const ASSET = {
  css: '/portal/portal.css',
  docsCss: '/portal/docs.css',
  script: (name: string): string => `/portal/js/${name}.ts`,
  // Versioned path: a new swagger-ui-dist is a new URL, so the old one may be cached for good.
  swaggerJs: `/portal/vendor/swagger-ui-${SWAGGER_VERSION}/swagger-ui-bundle.js`,
  swaggerCss: `/portal/vendor/swagger-ui-${SWAGGER_VERSION}/swagger-ui.css`,
} as const;

export interface Asset {
  body: Buffer;
  type: string;
  cacheControl: string;
  /** Swagger UI's files (1.9 MB, never changing): compressed once per process, not per request. */
  brotli?: BrotliOnce;
}

/**
 * A file's brotli form, made once in the background (zlib's thread pool,
 * quality 9: 392 KB for the Swagger UI bundle against 447 KB at the quality
 * compressing each answer uses) the first time it is asked for. Until it is
 * ready, answers are compressed as any other.
 */
export class BrotliOnce {
  private compressed: Buffer | null = null;
  private started = false;
  get(body: Buffer): Buffer | null {
    if (!this.started) {
      this.started = true;
      const params = { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length };
      brotliCompress(body, { params }, (err, out) => {
        if (!err) this.compressed = out;
      });
    }
    return this.compressed;
  }
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
/** Our own files change with the code: revalidate each time (the ETag makes that a 304). */
const REVALIDATE = 'no-cache';
const FOREVER = 'public, max-age=31536000, immutable';

/** A page script: TypeScript with its types blanked out, byte offsets unchanged. */
export function browserScript(source: string): string {
  return stripTypeScriptTypes(source, { mode: 'strip' });
}

/**
 * browserScript(source), read from `dir` when an earlier process stripped the
 * same source on the same Node, else stripped and written there (to a
 * temporary name, then renamed: a concurrent reader sees the whole file or
 * none). Without a directory, or when it cannot be written, just stripped.
 */
export function cachedBrowserScript(source: string, dir: string | null): string {
  if (!dir) return browserScript(source);
  const key = createHash('sha256').update(process.version).update('\0').update(source).digest('hex').slice(0, 32);
  const file = path.join(dir, `${key}.js`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // not stripped yet
  }
  const js = browserScript(source);
  try {
    mkdirSync(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, js);
    renameSync(temporary, file);
  } catch {
    // an unwritable cache: serve what was stripped
  }
  return js;
}

/** Where stripped page scripts are kept: beside Node's compile cache, when it is on. */
function scriptCacheDir(): string | null {
  const compileCache = getCompileCacheDir();
  return compileCache ? path.join(path.dirname(compileCache), 'portal-scripts') : null;
}

/** Every asset by URL path. */
export function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const cacheDir = scriptCacheDir();
  for (const file of readdirSync(BROWSER_DIR).filter((f) => f.endsWith('.ts'))) {
    const js = cachedBrowserScript(readFileSync(path.join(BROWSER_DIR, file), 'utf8'), cacheDir);
    assets.set(ASSET.script(file.slice(0, -3)), { body: Buffer.from(js), type: JS, cacheControl: REVALIDATE });
  }
  assets.set(ASSET.css, { body: readFileSync(path.join(STATIC_DIR, 'portal.css')), type: CSS, cacheControl: REVALIDATE });
  assets.set(ASSET.docsCss, { body: readFileSync(path.join(STATIC_DIR, 'docs.css')), type: CSS, cacheControl: REVALIDATE });
  // The bundle ends with a sourceMappingURL comment; the map is not served (a browser asks for it only with its tools open).
  const vendor = { cacheControl: FOREVER };
  assets.set(ASSET.swaggerJs, { ...vendor, body: readFileSync(path.join(SWAGGER_DIR, 'swagger-ui-bundle.js')), type: JS, brotli: new BrotliOnce() });
  assets.set(ASSET.swaggerCss, { ...vendor, body: readFileSync(path.join(SWAGGER_DIR, 'swagger-ui.css')), type: CSS, brotli: new BrotliOnce() });
  return assets;
}
