// The files the portal's pages load, all served by this server (no CDN, no
// font host): our stylesheets, our page scripts, and Swagger UI from its npm
// package (swagger-ui-dist). Everything is read once, when the app starts.
//
// The page scripts are TypeScript in ./browser/, type-checked with the rest
// of the code base and served as JavaScript by Node's own type stripping
// (`module.stripTypeScriptTypes`, which replaces annotations with blanks):
// no bundler, no build step. They import each other by relative `.ts` paths,
// which the browser resolves to the same URLs.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire, stripTypeScriptTypes } from 'node:module';
import path from 'node:path';

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

/** Every asset by URL path. */
export function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const file of readdirSync(BROWSER_DIR).filter((f) => f.endsWith('.ts'))) {
    const js = browserScript(readFileSync(path.join(BROWSER_DIR, file), 'utf8'));
    assets.set(ASSET.script(file.slice(0, -3)), { body: Buffer.from(js), type: JS, cacheControl: REVALIDATE });
  }
  assets.set(ASSET.css, { body: readFileSync(path.join(STATIC_DIR, 'portal.css')), type: CSS, cacheControl: REVALIDATE });
  assets.set(ASSET.docsCss, { body: readFileSync(path.join(STATIC_DIR, 'docs.css')), type: CSS, cacheControl: REVALIDATE });
  // The bundle ends with a sourceMappingURL comment; the map is not served (a browser asks for it only with its tools open).
  assets.set(ASSET.swaggerJs, { body: readFileSync(path.join(SWAGGER_DIR, 'swagger-ui-bundle.js')), type: JS, cacheControl: FOREVER });
  assets.set(ASSET.swaggerCss, { body: readFileSync(path.join(SWAGGER_DIR, 'swagger-ui.css')), type: CSS, cacheControl: FOREVER });
  return assets;
}
