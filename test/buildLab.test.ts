// The bundle `lab` runs from (bin/buildLab.mjs) and its launcher (bin/lab.mjs): a build holds
// every entry and records what it was built from; a start tells a current bundle from a stale one
// (an input changed or gone, an entry missing, never built) by the record alone; and the launcher
// prints what the bundle and the sources (LAB_TSX=1) print.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildLab, ENTRIES, staleReason } from '../bin/buildLab.mjs';

const dir = mkdtempSync(join(tmpdir(), 'lab-build-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
buildLab(dir);

interface Stamp {
  builtAt: number;
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
    expect(stamp.inputs).toContain('src/cli/main.ts');
    expect(stamp.inputs).toContain('src/cli/check/checkThread.ts');
    expect(stamp.inputs).toContain('bin/buildLab.mjs');
    expect(stamp.inputs).toContain('package-lock.json');
    expect(stamp.builtAt).toBeLessThanOrEqual(Date.now());
  });

  it('is current until an input is newer than its build, gone, or an entry is missing', () => {
    expect(staleReason(dir)).toBeNull();
    restamp({ ...stamp, builtAt: 0 });
    expect(staleReason(dir)).toBe(`${stamp.inputs[0] ?? ''} changed`);
    restamp({ ...stamp, inputs: [...stamp.inputs, 'src/cli/gone.ts'] });
    expect(staleReason(dir)).toBe('src/cli/gone.ts is gone');
    restamp(stamp);
    expect(staleReason(dir)).toBeNull();
    unlinkSync(join(dir, 'checkThread.mjs'));
    expect(staleReason(dir)).toBe('checkThread.mjs is missing');
    unlinkSync(stampPath);
    expect(staleReason(dir)).toBe('it has not been built');
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
