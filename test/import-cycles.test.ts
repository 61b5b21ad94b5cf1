// No import cycles in the app and the build, counting `import type` and inline `import('…')`
// types: a type shared by two files lives in a leaf both import (lang/compiled.ts,
// live/memory.ts, explore/result.ts), so every folder reads bottom-up. ESLint's layer rules keep
// the folders in order; this keeps the files inside a folder in order too.

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

/** Every relative import, export-from and import() of each file, resolved to a file. */
function importGraph(): Map<string, string[]> {
  const files = new Set(ROOTS.flatMap(sources).map((f) => resolve(f)));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    graph.set(
      file,
      importedFiles
        .map((i) => i.fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => resolve(dirname(file), name))
        .filter((target) => files.has(target)),
    );
  }
  return graph;
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

  it('would see a cycle made only of type imports', () => {
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
      "import type { A } from './a.ts';\nlet b: import('./b.ts').B;",
      true,
      true,
    );
    expect(importedFiles.map((i) => i.fileName)).toEqual(['./a.ts', './b.ts']);
  });
});
