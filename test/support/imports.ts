// The import graph of the TypeScript sources, read from the text (static
// `import`/`export ... from`, `import type`, and `import('...')` with a literal
// path), for the architecture test. Test files (*.test.ts) are left out unless
// asked for. A `#name` import (package.json "imports", the platform seam) is an
// edge to each file its conditions lead to: both twins.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export type Graph = Map<string, Set<string>>;

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string, tests: boolean, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, tests, out);
    else if (name.endsWith('.ts') && (tests || !name.endsWith('.test.ts')) && !name.endsWith('.d.ts')) out.push(path);
  }
}

/** The targets of one entry of package.json "imports" (a path, or conditions leading to paths), in order. */
function targets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(targets);
}

/**
 * package.json "imports" as sources: each `#name` -> the repository files its
 * conditions lead to, in order (a compiled path, dist/X.js, is its source X.ts).
 */
export function subpathImports(root: string): Map<string, { condition: string; file: string }[]> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { imports?: Record<string, unknown> };
  const out = new Map<string, { condition: string; file: string }[]>();
  for (const [name, value] of Object.entries(pkg.imports ?? {})) {
    const entries =
      value !== null && typeof value === 'object'
        ? Object.entries(value).flatMap(([condition, v]) => targets(v).map((t) => ({ condition, target: t })))
        : targets(value).map((t) => ({ condition: 'default', target: t }));
    out.set(
      name,
      entries.map(({ condition, target }) => ({
        condition,
        file: target
          .replace(/^\.\//, '')
          .replace(/^dist\//, '')
          .replace(/\.js$/, '.ts'),
      })),
    );
  }
  return out;
}

/** The repository files `file` imports by a relative path (paths relative to `root`, '/' separated). */
export function relativeImports(root: string, file: string): string[] {
  const deps: string[] = [];
  for (const m of readFileSync(join(root, file), 'utf8').matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2];
    if (!spec.startsWith('.')) continue; // node:, packages and #names
    deps.push(
      relative(root, join(root, dirname(file), spec.replace(/\.js$/, '.ts')))
        .split('\\')
        .join('/'),
    );
  }
  return deps;
}

/** File -> the repository files it imports (paths relative to `root`, '/' separated); the tests too with `tests`. */
export function importGraph(root: string, folders: readonly string[], { tests = false } = {}): Graph {
  const files: string[] = [];
  for (const f of folders) if (existsSync(join(root, f))) sourceFiles(join(root, f), tests, files);
  const named = subpathImports(root);
  const g: Graph = new Map();
  for (const file of files) {
    const from = relative(root, file).split('\\').join('/');
    const deps = new Set<string>(relativeImports(root, from));
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT_RE)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith('#')) continue;
      const to = named.get(spec);
      if (!to) throw new Error(`${from} imports ${spec}, which package.json "imports" does not name`);
      for (const t of to) deps.add(t.file);
    }
    g.set(from, deps);
  }
  return g;
}

/** Folder -> folders its files import from (a file's folder is its directory). */
export function folderGraph(files: Graph): Graph {
  const g: Graph = new Map();
  const folder = (f: string): string => f.slice(0, Math.max(f.lastIndexOf('/'), 0));
  for (const [file, deps] of files) {
    const from = folder(file);
    const set = g.get(from) ?? new Set<string>();
    for (const d of deps) if (folder(d) !== from) set.add(folder(d));
    g.set(from, set);
  }
  return g;
}

/** The strongly connected components with more than one node (or a self-loop), each sorted, sorted by first node. */
export function findCycles(g: Graph): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || g.get(v)?.has(v)) out.push(comp.sort());
    }
  };
  for (const v of [...g.keys()].sort()) if (!idx.has(v)) visit(v);
  return out.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}
