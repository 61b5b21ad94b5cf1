// The README's folder map must stay true to the tree: every path it names exists, and every
// folder of the repository (and of src/) is named.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');
const section = /## Folder map\s+```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const mapped = section
  .split('\n')
  .map((l) => l.trim().split(/\s+/)[0] ?? '')
  .filter((p) => p !== '');

// build/ and dist/ are made by the build, git-ignored.
const ignored = new Set([
  'node_modules',
  'dist',
  'build',
  'test-results',
  'playwright-report',
  '.git',
]);
const dirs = (at: string) =>
  readdirSync(at)
    .filter((d) => !ignored.has(d) && !d.startsWith('.') && statSync(`${at}/${d}`).isDirectory())
    .map((d) => (at === '.' ? `${d}/` : `${at}/${d}/`));

describe('README folder map', () => {
  it('comes in the first screen, after what the project is and how to run and test it', () => {
    const at = (heading: string) => readme.indexOf(`\n## ${heading}\n`);
    expect(at('Run it')).toBeGreaterThan(0);
    expect(at('Run it')).toBeLessThan(at('Test it'));
    expect(at('Test it')).toBeLessThan(at('Folder map'));
    expect(at('Folder map')).toBeLessThan(at('The modes and the rest'));
  });

  it.each(mapped)('%s exists', (path) => {
    expect(existsSync(path)).toBe(true);
  });

  it('names every top-level folder and every folder of src/', () => {
    const named = new Set(mapped);
    for (const d of [...dirs('.'), ...dirs('src')]) {
      expect(named.has(d), `${d} is missing from the README folder map`).toBe(true);
    }
  });
});

describe('paths the docs name', () => {
  // Every `src/…`, `test/…`, `e2e/…`, `bench/…` or `deploy/…` path in backticks in the README and
  // docs/, so a moved or renamed file cannot leave a doc pointing at nothing.
  const docs = ['README.md', ...readdirSync('docs').map((f) => `docs/${f}`)];
  const named = docs.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/`((?:src|test|e2e|bench|deploy)\/[^`\s*<>]+)`/g)].map(
      (m) => ({ file, path: (m[1] as string).replace(/[:,.]$/, '') }),
    ),
  );

  it('finds some', () => {
    expect(named.length).toBeGreaterThan(20);
  });

  it.each(named.map((n) => [`${n.file}: ${n.path}`, n.path] as const))('%s exists', (_, path) => {
    expect(existsSync(path)).toBe(true);
  });
});
