// No import cycles in the app and the build, counting `import type` and inline `import('…')`
// types: a type shared by two files lives in a leaf both import (lang/compiled.ts,
// live/memory.ts, explore/result.ts), so every folder reads bottom-up. ESLint's layer rules keep
// the folders in order; this keeps the files inside a folder in order too.
//
// ESLint's `no-restricted-imports` sees static imports only: `await import('../store/x.ts')` or
// an inline `import('../ui/x.ts').T` type in the core would pass it. So the layer rules are
// checked again here on the same graph, dynamic imports and inline types included, with the
// rules and messages ESLint itself computes for each file (one source: eslint.config.js).

import { ESLint } from 'eslint';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src', 'deploy'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** What each file imports, as written: static, `export … from`, `import()` and inline types. */
function specifiers(files: readonly string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => [
      file,
      ts
        .preProcessFile(readFileSync(file, 'utf8'), true, true)
        .importedFiles.map((i) => i.fileName),
    ]),
  );
}

/** Every relative import, export-from and import() of each file, resolved to a file. */
function importGraph(): Map<string, string[]> {
  const files = new Set(ROOTS.flatMap(sources).map((f) => resolve(f)));
  const graph = new Map<string, string[]>();
  for (const [file, names] of specifiers([...files])) {
    graph.set(
      file,
      names
        .filter((name) => name.startsWith('.'))
        .map((name) => resolve(dirname(file), name))
        .filter((target) => files.has(target)),
    );
  }
  return graph;
}

interface Restriction {
  readonly name?: string;
  readonly group?: readonly string[];
  readonly regex?: string;
  readonly message: string;
}

/** A `no-restricted-imports` group pattern (gitignore-style) as a regular expression. */
function globRegex(glob: string): RegExp {
  const body = glob
    .split('/')
    .map((part) =>
      part === '**' ? '.*' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'),
    )
    .join('/')
    .replace(/^\.\*\//, '(.*/)?')
    .replace(/\/\.\*$/, '(/.*)?');
  return new RegExp(`^${body}$`);
}

/**
 * The message of the layer rule an import breaks, or null: a relative import is judged by the
 * path it resolves to (from the repository's root), a package by its name, as ESLint would.
 */
function broken(rules: readonly Restriction[], from: string, specifier: string): string | null {
  const relativeImport = specifier.startsWith('.');
  const target = relativeImport ? relative('.', resolve(dirname(from), specifier)) : specifier;
  for (const r of rules) {
    if (!relativeImport && r.name === target) return r.message;
    if (!relativeImport && r.regex !== undefined && new RegExp(r.regex).test(target))
      return r.message;
    if (r.group?.some((g) => globRegex(g).test(target))) return r.message;
  }
  return null;
}

/** The restrictions ESLint applies to `file` (its paths and patterns, as one list). */
async function restrictionsOf(eslint: ESLint, file: string): Promise<Restriction[]> {
  const config = (await eslint.calculateConfigForFile(file)) as {
    rules?: Record<string, unknown>;
  };
  const rule = config.rules?.['no-restricted-imports'];
  const options = (Array.isArray(rule) ? rule[1] : undefined) as
    { paths?: Restriction[]; patterns?: Restriction[] } | undefined;
  return [...(options?.paths ?? []), ...(options?.patterns ?? [])];
}

/** Every import of a source file that breaks a layer rule, as `file → import: message`. */
async function layerBreaks(
  eslint: ESLint,
  imports: ReadonlyMap<string, readonly string[]>,
): Promise<string[]> {
  const found: string[] = [];
  const byFolder = new Map<string, Restriction[]>();
  for (const [file, names] of imports) {
    // Rules are given per folder: ask ESLint once for each.
    const folder = dirname(file);
    let rules = byFolder.get(folder);
    if (!rules) {
      rules = await restrictionsOf(eslint, file);
      byFolder.set(folder, rules);
    }
    for (const name of names) {
      const message = broken(rules, file, name);
      if (message !== null) found.push(`${relative('.', file)} → ${name}: ${message}`);
    }
  }
  return found;
}

/** The strongly connected components of more than one file (Tarjan), each a cycle or more. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(relative('.', w));
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('imports', () => {
  const graph = importGraph();

  it('read every source file and its imports', () => {
    expect(graph.size).toBeGreaterThan(250);
    expect(graph.get(resolve('src/lang/compile.ts'))).toContain(resolve('src/lang/compiled.ts'));
  });

  it('form no cycle, type imports included', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("keep the layers' order in dynamic imports and inline types too, as ESLint states it", async () => {
    const files = ROOTS.flatMap(sources).map((f) => resolve(f));
    expect(await layerBreaks(new ESLint(), specifiers(files))).toEqual([]);
  }, 60_000);

  it('would see an upward import that ESLint cannot: a dynamic one, or an inline type', async () => {
    const eslint = new ESLint();
    const planted = new Map([
      [resolve('src/machine/count.ts'), ['../store/stepStore.ts', 'react']],
      [resolve('src/charts/cards.ts'), ['../ui/App.tsx', '../lang/compiled.ts']],
      [resolve('src/ui/App.tsx'), ['../workers/exploreApi.ts', '../workers/exploreBridge.ts']],
    ]);
    expect(await layerBreaks(eslint, planted)).toEqual([
      expect.stringMatching(
        /^src\/machine\/count\.ts → \.\.\/store\/stepStore\.ts: The pure core .* must not import from src\/store/,
      ),
      expect.stringMatching(
        /^src\/machine\/count\.ts → react: The pure core .* must not import React/,
      ),
      expect.stringMatching(
        /^src\/charts\/cards\.ts → \.\.\/ui\/App\.tsx: src\/charts must not import from src\/ui/,
      ),
      expect.stringMatching(
        /^src\/ui\/App\.tsx → \.\.\/workers\/exploreApi\.ts: src\/ui must not import worker entries/,
      ),
    ]);
  }, 60_000);

  it('would see a cycle made only of type imports, and read dynamic imports', () => {
    const a = resolve('a.ts');
    const b = resolve('b.ts');
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts']]);
    const { importedFiles } = ts.preProcessFile(
      "import type { A } from './a.ts';\nlet b: import('./b.ts').B;\nconst c = await import('./c.ts');",
      true,
      true,
    );
    expect(importedFiles.map((i) => i.fileName)).toEqual(['./a.ts', './b.ts', './c.ts']);
  });
});
