// The bundle `lab` runs from (bin/buildLab.mjs) and its launcher (bin/lab.mjs): a build holds
// every entry and records what it was built from; a start tells a current bundle from a stale one
// (an input changed or gone, an entry missing, never built, another Node) by the record alone; the
// engine's code cache is one a plain Node takes; and the launcher prints what the bundle and the
// sources (LAB_TSX=1) print, with the cache and without.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildLab, ENGINE, ENTRIES, staleReason } from '../bin/buildLab.mjs';

const dir = mkdtempSync(join(tmpdir(), 'lab-build-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
const said: string[] = [];
await buildLab(dir, { train: true, say: (line) => said.push(line) });

interface Stamp {
  builtAt: number;
  node: string;
  inputs: string[];
}
const stampPath = join(dir, 'inputs.json');
const stamp = JSON.parse(readFileSync(stampPath, 'utf8')) as Stamp;
const restamp = (s: Stamp) => {
  writeFileSync(stampPath, JSON.stringify(s));
};

const node = (args: readonly string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, ...env } });

describe('the bundle lab runs from', () => {
  it('holds every entry and records its inputs, its own build among them', () => {
    expect(Object.keys(ENTRIES)).toEqual([
      'main',
      'threads',
      'cpuThread',
      'sbThread',
      'shardThread',
      'checkThread',
    ]);
    for (const name of Object.keys(ENTRIES))
      expect(existsSync(join(dir, `${name}.mjs`))).toBe(true);
    expect(ENGINE).toBe('src/cli/bundle/entry.ts');
    expect(existsSync(join(dir, 'lab.cjs'))).toBe(true);
    expect(stamp.inputs).toContain('src/cli/bundle/start.ts');
    expect(stamp.inputs).toContain('src/cli/lab.ts');
    expect(stamp.inputs).toContain('src/cli/check/checkThread.ts');
    expect(stamp.inputs).toContain('bin/buildLab.mjs');
    expect(stamp.inputs).toContain('package-lock.json');
    expect(stamp.builtAt).toBeLessThanOrEqual(Date.now());
    expect(stamp.node).toBe(process.version);
  });

  it('is current until an input is newer than its build, gone, or an entry is missing', () => {
    expect(staleReason(dir)).toBeNull();
    restamp({ ...stamp, builtAt: 0 });
    expect(staleReason(dir)).toBe(`${stamp.inputs[0] ?? ''} changed`);
    restamp({ ...stamp, inputs: [...stamp.inputs, 'src/cli/gone.ts'] });
    expect(staleReason(dir)).toBe('src/cli/gone.ts is gone');
    restamp({ ...stamp, node: 'v0.0.1' });
    expect(staleReason(dir)).toBe('it was built for Node v0.0.1');
    restamp(stamp);
    expect(staleReason(dir)).toBeNull();
    unlinkSync(join(dir, 'checkThread.mjs'));
    expect(staleReason(dir)).toBe('checkThread.mjs is missing');
    unlinkSync(stampPath);
    expect(staleReason(dir)).toBe('it has not been built');
  });

  it('holds its engine in ASCII, and a code cache of it that Node takes', () => {
    expect(said).toEqual([]);
    const engine = readFileSync(join(dir, 'lab.cjs'));
    expect(engine.every((byte) => byte < 0x80)).toBe(true);
    // What start.ts does, in a process of its own: V8 turns a cache down rather than fail.
    const probe = node([
      '-e',
      `const { readFileSync } = require('node:fs');
       const { Script } = require('node:vm');
       const text = readFileSync(process.argv[1], 'latin1');
       const script = new Script(
         '(function (exports, require, module, __filename, __dirname) {' + text + '\\n})',
         { filename: process.argv[1], cachedData: readFileSync(process.argv[2]) },
       );
       console.log(script.cachedDataRejected);`,
      join(dir, 'lab.cjs'),
      join(dir, 'lab.cache'),
    ]);
    expect(probe.stderr).toBe('');
    expect(probe.stdout).toBe('false\n');
  });

  it('answers the same with its code cache, without it, and with a cache of another build', () => {
    const args = [join(dir, 'main.mjs'), 'explore', 'global-plain', '--set', 'cpus=2', '--json'];
    // The search's answer, without the time it took.
    const answer = (r: ReturnType<typeof node>) => {
      expect(r.status, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { stats: { ms?: number } };
      delete doc.stats.ms;
      return doc;
    };
    const cached = answer(node(args));
    expect(answer(node(args, { LAB_CODE_CACHE: '0' }))).toEqual(cached);
    writeFileSync(join(dir, 'lab.cache'), 'not a cache');
    const refused = node(args);
    expect(refused.stderr).toBe('');
    expect(answer(refused)).toEqual(cached);
  });

  it('is what bin/lab.mjs runs, which prints what the sources print through tsx', () => {
    const bundled = node([join(dir, 'main.mjs'), 'list']);
    expect(bundled.status).toBe(0);
    const launched = node(['bin/lab.mjs', 'list']);
    expect(launched.status, launched.stderr).toBe(0);
    expect(launched.stdout).toBe(bundled.stdout);
    // A stale bundle is rebuilt first, and only that is said on stderr.
    expect(launched.stderr).toMatch(/^(lab: building the command line into build\/cli \(.*\)\n)?$/);
    const sources = node(['bin/lab.mjs', 'list'], { LAB_TSX: '1' });
    expect(sources.status, sources.stderr).toBe(0);
    expect(sources.stdout).toBe(bundled.stdout);
  });
});
