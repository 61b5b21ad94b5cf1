// Which memory model answers a file, in every command: one rule (a herd7 litmus file answers
// under lkmm, the lab's own programs and the catalogue under sc, --memory overrides), and every
// answer names its model, in text and JSON. A command that steps a machine (replay, random,
// export's promela) refuses lkmm, saying so and naming the way out, rather than switching to sc
// without a word.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lab } from './lab.ts';

const dir = mkdtempSync(join(tmpdir(), 'lab-model-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** herd7's store buffering, as a developer brings it: Sometimes under lkmm, Never under sc. */
const SB = file(
  'SB.litmus',
  `C SB

{}

P0(int *x, int *y)
{
	int r0;

	WRITE_ONCE(*x, 1);
	r0 = READ_ONCE(*y);
}

P1(int *x, int *y)
{
	int r0;

	WRITE_ONCE(*y, 1);
	r0 = READ_ONCE(*x);
}

exists (0:r0=0 /\\ 1:r0=0)
`,
);

/** The lab's own program (no init block): it answers under sc. */
const OWN = file(
  'own.c',
  `C own
int x;
P0() { WRITE_ONCE(x, 1); }
P1() { int r0; r0 = READ_ONCE(x); }
observe x = x;
`,
);

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const status = await lab(argv, {
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      err += s;
    },
  });
  return { status, out, err: err.trim() };
}

async function json(...argv: string[]): Promise<{ memory?: string }> {
  const r = await run(...argv, '--json');
  expect(r.status, r.err).toBe(0);
  return JSON.parse(r.out) as { memory?: string };
}

describe('which model answers a file', () => {
  it('check and explore answer a herd7 file under lkmm alike, and say so', async () => {
    expect((await run('check', SB)).out).toContain('Observation SB Sometimes 1 3\n');
    const explored = await run('explore', SB, '--quiet');
    expect(explored.out).toMatch(/^SB under lkmm: /);
    expect(explored.out).toContain('0:r0=0 1:r0=0  (ok)');
    expect((await json('explore', SB)).memory).toBe('lkmm');
  });

  it('--memory overrides, and the answer names the model it took', async () => {
    expect((await run('explore', SB, '--memory', 'sc', '--quiet')).out).toMatch(/^SB under sc: /);
    expect((await run('explore', SB, '--memory', 'tso', '--quiet')).out).toMatch(/^SB under tso: /);
    expect((await json('explore', SB, '--memory', 'tso', '--quiet')).memory).toBe('tso');
    expect((await run('check', SB, '--memory', 'sc')).out).toContain('Observation SB Never 0 3\n');
  });

  it("the lab's own programs and the catalogue answer under sc, and say so", async () => {
    expect((await run('explore', OWN, '--quiet')).out).toMatch(/^own under sc: /);
    expect((await run('explore', 'global-plain', '--quiet')).out).toMatch(
      /^global-plain under sc: /,
    );
    expect((await json('explore', 'global-plain', '--quiet')).memory).toBe('sc');
    expect((await run('replay', OWN, '0 1')).out).toMatch(/^own under sc: 0 1\n/);
    expect((await json('replay', OWN, '0 1')).memory).toBe('sc');
    expect((await run('random', 'global-plain', '--seed', '1', '--runs', '3')).out).toMatch(
      /^global-plain under sc: 3 random runs, seed 1\n/,
    );
    expect((await json('random', OWN, '--seed', '1', '--runs', '1')).memory).toBe('sc');
  });

  it('replay and random refuse a herd7 file under its default lkmm, naming --memory sc', async () => {
    const replayed = await run('replay', SB, '0 1');
    expect(replayed).toMatchObject({ status: 2, out: '' });
    expect(replayed.err).toBe(
      "lab: SB answers under lkmm, the kernel's memory model (a herd7 litmus file's default), which judges whole executions and has no steps, and lab replay follows a schedule on a machine: add --memory sc (or --memory tso) to replay it; lab explore gives lkmm's answer",
    );
    const random = await run('random', SB, '--seed', '1');
    expect(random.status).toBe(2);
    expect(random.err).toContain('lab random runs random schedules on a machine: add --memory sc');
    // The way out works, and says which model it took.
    expect((await run('replay', SB, '0 1', '--memory', 'sc')).out).toMatch(/^SB under sc: 0 1\n/);
    expect((await json('random', SB, '--seed', '1', '--memory', 'tso')).memory).toBe('tso');
  });

  it('export --format promela refuses a herd7 file under its default lkmm, naming --memory sc', async () => {
    const r = await run('export', SB, '--format', 'promela');
    expect(r).toMatchObject({ status: 2, out: '' });
    expect(r.err).toBe(
      "lab: SB answers under lkmm, the kernel's memory model (a herd7 litmus file's default), which judges whole executions and has no steps, and lab export --format promela writes a machine for SPIN to step: add --memory sc to export it under sc; lab explore gives lkmm's answer",
    );
    // Asked for sc, it writes the sc machine, named by the test's own name and its model.
    const sc = await run('export', SB, '--format', 'promela', '--memory', 'sc');
    expect(sc.status, sc.err).toBe(0);
    expect(sc.out).toMatch(/^\/\*\n \* SB as a Promela model, written by/);
    expect(sc.out).toContain(' * Parameters: memory=sc\n');
  });

  it('replay and random refuse memory lkmm asked for on any program, not run it under sc', async () => {
    const r = await run('replay', 'global-plain', '0 1', '--memory', 'lkmm');
    expect(r.status).toBe(2);
    expect(r.err).toMatch(
      /^lab: memory lkmm, the kernel's memory model, judges whole executions and has no steps, and lab replay follows/,
    );
    expect((await run('random', OWN, '--seed', '1', '--set', 'memory=lkmm')).status).toBe(2);
  });
});
