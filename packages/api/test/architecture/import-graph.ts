// The import graph of the workspace's source files (packages/*/src/**/*.ts),
// read with TypeScript's parser (a devDependency already): `import … from`,
// `import '…'`, `export … from`, `import('…')` and `import('…')` types;
// comments and strings never count. Type-only imports count too: they are
// dependencies a reader follows, even though the runtime erases them.
//
// Edges are kept for relative specifiers (resolved to `.ts` files; JSON data
// files are leaves and left out) and for the workspace's own packages
// (`@jp-support/<name>[/sub]`, resolved through the package's `exports`).
// Anything else (node:, npm packages) is ignored.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const PACKAGES_DIR = path.join(REPO_ROOT, 'packages');

export interface ImportGraph {
  /** Repository-relative file -> repository-relative files it imports. */
  edges: Map<string, string[]>;
  /** Specifiers that look like our own files but resolve to nothing (`file: spec`). */
  unresolved: string[];
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** `@jp-support/<pkg>[/sub]` -> the file its package.json `exports` names. */
function workspaceEntries(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const dir of readdirSync(PACKAGES_DIR)) {
    const manifest = path.join(PACKAGES_DIR, dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; exports?: string | Record<string, string>; main?: string };
    const exports = typeof pkg.exports === 'string' ? { '.': pkg.exports } : (pkg.exports ?? (pkg.main ? { '.': pkg.main } : {}));
    for (const [sub, target] of Object.entries(exports)) {
      if (typeof target !== 'string') continue;
      entries.set(sub === '.' ? pkg.name : `${pkg.name}/${sub.replace(/^\.\//, '')}`, path.join(PACKAGES_DIR, dir, target));
    }
  }
  return entries;
}

/** The module specifiers a file imports, in any form. */
export function importSpecifiers(file: string, text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false));
  return found;
}

/** The `.ts` file a relative specifier names; 'data' for another existing file (JSON); null when nothing exists. */
function resolveRelative(from: string, spec: string): string | 'data' | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return existsSync(base) && statSync(base).isFile() ? 'data' : null;
}

export function sourceFiles(): string[] {
  const files: string[] = [];
  for (const dir of readdirSync(PACKAGES_DIR)) {
    const src = path.join(PACKAGES_DIR, dir, 'src');
    if (existsSync(src)) files.push(...tsFiles(src));
  }
  return files.sort();
}

export function importGraph(files: string[] = sourceFiles()): ImportGraph {
  const packages = workspaceEntries();
  const edges = new Map<string, string[]>();
  const unresolved: string[] = [];
  const rel = (f: string): string => path.relative(REPO_ROOT, f).split(path.sep).join('/');
  for (const file of files) {
    const targets = new Set<string>();
    for (const spec of importSpecifiers(file, readFileSync(file, 'utf8'))) {
      let target: string | null = null;
      if (spec.startsWith('.')) {
        const resolved = resolveRelative(file, spec);
        if (!resolved) unresolved.push(`${rel(file)}: ${spec}`);
        // Data files (package.json) import nothing: not nodes of the graph.
        target = resolved === 'data' ? null : resolved;
      } else if (spec.startsWith('@jp-support/')) {
        target = packages.get(spec) ?? null;
        if (!target) unresolved.push(`${rel(file)}: ${spec}`);
      }
      if (target) targets.add(rel(target));
    }
    edges.set(rel(file), [...targets].sort());
  }
  return { edges, unresolved };
}

/**
 * Every import cycle, one per strongly connected component (Tarjan), each
 * written as a closed path `a -> b -> … -> a` found inside the component.
 */
export function findCycles(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
      }
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = (edges.get(v) ?? []).includes(v);
      if (component.length > 1 || selfLoop) components.push(component);
    }
  };
  for (const v of [...edges.keys()].sort()) if (!indexOf.has(v)) visit(v);
  return components.map((c) => shortestCycle(edges, new Set(c), [...c].sort()[0]));
}

/** The shortest path from `start` back to itself inside `members` (breadth-first). */
function shortestCycle(edges: Map<string, string[]>, members: Set<string>, start: string): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of edges.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const cycle = [start];
        for (let at: string | undefined = v; at !== undefined && at !== start; at = previous.get(at)) cycle.splice(1, 0, at);
        cycle.push(start);
        return cycle;
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
