// `npm run pack:packages [-- --out DIR]`: the publishable tarballs of
// @jp-support/vocab, @jp-support/client and @jp-support/mcp.
//
// In the repository a package's manifest points at its TypeScript source
// (Node 24 runs it, no build step); what is published points at JavaScript
// compiled by tsc, with declarations, for Node 20 and later. The published
// fields are written once, in each manifest's `publishConfig` (main, types,
// exports, bin), and applied here the way pnpm and yarn apply them (npm does
// not). Each package is built into a staging directory, its manifest
// written there with `publishConfig` applied and the development-only
// fields dropped, and packed there with `npm pack`; nothing in the
// repository changes. A plain `npm pack` inside packages/* is refused (its
// `prepack`), since it would pack the source manifest.
//
// @jp-support/mcp carries its two sibling packages inside its tarball
// (`bundleDependencies` in its publishConfig): the packed vocab and client
// are unpacked into its stage's node_modules/ before `npm pack`, so
// `npx -y ./jp-support-mcp-<version>.tgz` runs the tool server with no other
// tarball and no unpublished package from the registry (docs/decisions/0261-mcp-tarball-bundles-its-siblings.md).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '..');
/** In dependency order: mcp imports client and vocab. */
export const PUBLISHED = ['vocab', 'client', 'mcp'] as const;

type Manifest = Record<string, unknown> & {
  name: string;
  version: string;
  publishConfig?: Record<string, unknown>;
  bin?: Record<string, string>;
};

/** The manifest as published: `publishConfig` fields over the source ones; scripts and dev-only fields dropped. */
export function publishedManifest(source: Manifest): Manifest {
  const { publishConfig = {}, scripts: _scripts, devDependencies: _dev, ...rest } = source;
  return { ...rest, ...publishConfig } as Manifest;
}

export interface PackedPackage {
  dir: string;
  name: string;
  version: string;
  tarball: string;
}

/** The packed packages a package's `bundleDependencies` name, unpacked into its stage's node_modules/. */
function stageBundled(manifest: Manifest, stage: string, packed: readonly PackedPackage[]): void {
  for (const name of (manifest.bundleDependencies as string[] | undefined) ?? []) {
    const dependency = packed.find((p) => p.name === name);
    if (!dependency) throw new Error(`${manifest.name} bundles ${name}, which must be packed before it (PUBLISHED order)`);
    const target = path.join(stage, 'node_modules', ...name.split('/'));
    mkdirSync(target, { recursive: true });
    execFileSync('tar', ['-xzf', dependency.tarball, '-C', target, '--strip-components=1'], { stdio: 'pipe' });
  }
}

/** Build, stage and pack one package into `outDir` (`packed`: the packages packed before it, for its bundled ones); returns the tarball's path. */
export function packPackage(dir: (typeof PUBLISHED)[number], outDir: string, packed: readonly PackedPackage[] = []): PackedPackage {
  const source = path.join(ROOT, 'packages', dir);
  const stage = mkdtempSync(path.join(tmpdir(), `jpsp-pack-${dir}-`));
  try {
    execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', path.join(source, 'tsconfig.build.json'), '--outDir', path.join(stage, 'dist')], {
      stdio: 'pipe',
    });
    const manifest = publishedManifest(JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8')) as Manifest);
    writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    copyFileSync(path.join(source, 'README.md'), path.join(stage, 'README.md'));
    for (const bin of Object.values(manifest.bin ?? {})) chmodSync(path.join(stage, bin), 0o755);
    stageBundled(manifest, stage, packed);
    mkdirSync(outDir, { recursive: true });
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const [{ filename }] = JSON.parse(out) as { filename: string }[];
    return { dir, name: manifest.name, version: manifest.version, tarball: path.join(outDir, filename) };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

export function packPackages(outDir: string): PackedPackage[] {
  const packed: PackedPackage[] = [];
  for (const dir of PUBLISHED) packed.push(packPackage(dir, outDir, packed));
  return packed;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'dist-packages' } } });
  for (const packed of packPackages(path.resolve(values.out!)))
    console.log(`${packed.name}@${packed.version}: ${path.relative(process.cwd(), packed.tarball)}`);
}
