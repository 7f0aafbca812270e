// The compile cache (process/compile-cache.ts, decision 0426): a serving
// process started on a warm cache never loads Node's type stripper (amaro,
// ~9 MB of wasm memory for the life of the process), neither for our modules
// nor for the portal's page scripts, which it strips once and keeps beside
// the cache. Checked in child processes that import what a worker imports,
// build the portal's assets and report whether the stripper was loaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { browserScript, cachedBrowserScript } from '../../src/portal/assets.ts';
import { warmInChild } from '../../src/process/compile-cache.ts';
import { WORKER_HEAP_FLAGS } from '../../src/process/worker-heap.ts';

const SRC = path.resolve(import.meta.dirname, '..', '..', 'src');
const url = (...parts: string[]) => JSON.stringify(pathToFileURL(path.join(SRC, ...parts)).href);

/** A process importing what a worker imports, enabling the cache as server.ts does, then building the portal's assets. */
function worker(cacheDir: string, flags: readonly string[] = []): { stripperLoaded: boolean; cache: string | null; assets: number } {
  const script = `const { enableCompileCache } = await import(${url('process', 'compile-cache.ts')});
const cache = enableCompileCache();
await import(${url('process', 'serve.ts')});
await import(${url('ingest', 'ingest.ts')});
const { loadAssets } = await import(${url('portal', 'assets.ts')});
const assets = loadAssets().size;
const stripperLoaded = process.moduleLoadList.some((m) => m.includes('internal/deps/amaro'));
process.stdout.write(JSON.stringify({ stripperLoaded, cache, assets }));`;
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_COMPILE_CACHE: cacheDir };
  delete env.NODE_DISABLE_COMPILE_CACHE;
  const r = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', ...flags, '--input-type=module', '-e', script], { encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('a worker started on a warm compile cache does not load the type stripper', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'jpsp-compile-'));
  try {
    const first = worker(dir);
    assert.equal(first.stripperLoaded, true, 'the first start strips our TypeScript');
    assert.equal(first.cache, dir);
    const second = worker(dir);
    assert.equal(second.stripperLoaded, false, 'the second start reads every module and page script from the cache');
    assert.equal(second.assets, first.assets);
    assert.ok(readdirSync(path.join(dir, 'portal-scripts')).length > 0, 'the page scripts are kept beside the cache');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the primary's warming child fills the cache for the workers' flags: the first worker starts without the stripper", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'jpsp-warm-'));
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_COMPILE_CACHE: dir };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    await warmInChild(['--disable-warning=ExperimentalWarning', ...WORKER_HEAP_FLAGS], env);
    const first = worker(dir, WORKER_HEAP_FLAGS);
    assert.equal(first.stripperLoaded, false, 'a worker after the warming child strips nothing');
    // The cache is per set of V8 flags: a process with other flags was not warmed.
    assert.equal(worker(dir).stripperLoaded, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a page script is stripped once, then read from the cache; without a cache it is stripped each time', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'jpsp-scripts-'));
  try {
    const source = 'export const x: number = 1;\nfunction f(a: string): void {}\n';
    assert.equal(cachedBrowserScript(source, null), browserScript(source));
    assert.equal(cachedBrowserScript(source, dir), browserScript(source));
    const [file] = readdirSync(dir);
    assert.match(file, /^[0-9a-f]{32}\.js$/);
    // What is kept is what is served: a cached form is read back, not stripped again.
    writeFileSync(path.join(dir, file), 'kept');
    assert.equal(cachedBrowserScript(source, dir), 'kept');
    assert.equal(cachedBrowserScript(`${source}\n`, dir), browserScript(`${source}\n`), 'another source is another entry');
    assert.equal(readdirSync(dir).length, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// npm start's entry (start.js, decision 0432) has a child fill the cache for its own process first.
const START = path.join(SRC, 'start.js');
const STRIPPER_AT_EXIT = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.on('exit', () => writeSync(1, JSON.stringify({ stripperLoaded: process.moduleLoadList.some((m) => m.includes('internal/deps/amaro')) })));",
)}`;

/** The test's environment with `extra`, the cache on unless `extra` turns it off. */
function envWith(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!extra.NODE_DISABLE_COMPILE_CACHE) delete env.NODE_DISABLE_COMPILE_CACHE;
  if (!extra.NODE_COMPILE_CACHE) delete env.NODE_COMPILE_CACHE;
  return env;
}

/** A process importing `modules` (paths under src/) on the cache `cacheDir`: whether it loaded the stripper. */
function importing(cacheDir: string, modules: readonly (readonly string[])[], env: NodeJS.ProcessEnv = {}): boolean {
  const script = `${modules.map((m) => `await import(${url(...m)});`).join('\n')}
process.stdout.write(JSON.stringify(process.moduleLoadList.some((m) => m.includes('internal/deps/amaro'))));
process.exit(0);`;
  const r = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: envWith({ ...env, NODE_COMPILE_CACHE: cacheDir }),
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test("start.js's child fills the cache for the cluster primary's modules, or for the single process's app", () => {
  for (const [concurrency, modules] of [
    ['2', [['config.ts'], ['process', 'roles.ts'], ['process', 'compile-cache.ts'], ['process', 'primary.ts']]],
    ['1', [['config.ts'], ['process', 'serve.ts'], ['process', 'prepare.ts'], ['ingest', 'ingest.ts']]],
  ] as const) {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpsp-own-'));
    try {
      const env = { WEB_CONCURRENCY: concurrency };
      assert.equal(importing(dir, modules, env), true, 'a cold cache: the modules are stripped');
      rmSync(dir, { recursive: true, force: true });
      const r = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(SRC, 'server.ts'), '--warm-own-modules'], {
        encoding: 'utf8',
        env: envWith({ ...env, NODE_COMPILE_CACHE: dir }),
      });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(importing(dir, modules, env), false, `WEB_CONCURRENCY=${concurrency}: after the child, nothing is stripped`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('a process started through start.js on an empty cache does not load the type stripper', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'jpsp-start-'));
  try {
    // One process (WEB_CONCURRENCY=1) in the warming role: it imports the app as a serving process does, then exits.
    const run = (env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', STRIPPER_AT_EXIT, START, '--warm-compile-cache'], {
        encoding: 'utf8',
        env: envWith({ WEB_CONCURRENCY: '1', ...env }),
      });
    const first = run({ NODE_COMPILE_CACHE: dir });
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { stripperLoaded: false });
    assert.ok(readdirSync(dir).length > 0, 'the cache was filled');
    // With the cache turned off, start.js only imports server.ts, which strips as before.
    const off = run({ NODE_DISABLE_COMPILE_CACHE: '1' });
    assert.equal(off.status, 0, off.stderr);
    assert.deepEqual(JSON.parse(off.stdout), { stripperLoaded: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
