// `lab check` of many files and folders, as a user runs it (the bundled CLI in a process): every
// answer byte for byte herd7 7.58's (the litmus twins' .expected beside them, their Time line and
// the lab's Model line aside), in the order given, each followed by herd7's blank line, on one
// thread or several; a file it refuses named on stderr with its reason while the others are still
// answered, and the exit status saying so.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labCli } from '../../test/labCli.ts';
import { defaultThreads } from './check/many.ts';

const { lab, tsx, file, main } = await labCli();

const TWINS = new URL('../../test/lkmm/', import.meta.url).pathname.replace(/\/$/, '');
const twin = (name: string) => join(TWINS, name);
const SORTED = readdirSync(TWINS)
  .filter((f) => f.endsWith('.litmus'))
  .sort();

/** herd7's answer to `name` (its .expected), without its Time line. */
const expected = (name: string) =>
  readFileSync(`${twin(name)}.expected`, 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith('Time '))
    .join('\n');

/** The lab's output without the lines herd7 has not: Time (how long it took) and Model. */
const comparable = (out: string) =>
  out
    .split('\n')
    .filter((l) => !l.startsWith('Time ') && !l.startsWith('Model '))
    .join('\n');

describe('lab check of many files', () => {
  it('answers a folder’s litmus files in name order, each as herd7 does, exit 0', () => {
    expect(SORTED).toHaveLength(5);
    const r = lab('check', TWINS);
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    expect(comparable(r.out)).toBe(SORTED.map(expected).join(''));
    // Each answer has its Model line, as one file's does.
    expect(r.out.match(/^Model lkmm$/gm)).toHaveLength(5);
  });

  it('answers files in the order given, on several threads as on one', () => {
    const order = [SORTED[3], SORTED[0], SORTED[4], SORTED[1], SORTED[2]] as string[];
    const want = order.map(expected).join('');
    for (const workers of ['1', '2', '3']) {
      const r = lab('check', ...order.map(twin), '--workers', workers);
      expect(r.status, r.err).toBe(0);
      expect(comparable(r.out)).toBe(want);
    }
  });

  it('answers a long list on two checkers in order, a refusal in its place', () => {
    // Long enough that the thread, once loaded, takes files beside the command's own thread.
    const many = Array.from({ length: 30 }, () => SORTED).flat();
    const missing = twin('no-such.litmus');
    const args = [...many.slice(0, 100).map(twin), missing, ...many.slice(100).map(twin)];
    const r = lab('check', ...args, '--workers', '2');
    expect(r.status).toBe(1);
    expect(r.err).toBe(
      `lab: cannot read ${missing}: ENOENT: no such file or directory, open '${missing}'\n`,
    );
    expect(comparable(r.out)).toBe(many.map(expected).join(''));
  });

  it('goes on past a file it refuses, names it with its reason, and exits 1', () => {
    const bare = file('bare.litmus', 'C bare\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\n');
    const broken = file('broken.litmus', 'C broken\n{}\nP0(int *x) { WRITE_ONCE(*x 1); }\n');
    const missing = twin('no-such.litmus');
    for (const workers of ['1', '2']) {
      const r = lab(
        'check',
        twin(SORTED[0] as string),
        missing,
        twin(SORTED[1] as string),
        broken,
        twin(SORTED[2] as string),
        '--workers',
        workers,
      );
      expect(r.status).toBe(1);
      expect(comparable(r.out)).toBe(
        [SORTED[0], SORTED[1], SORTED[2]].map((f) => expected(f as string)).join(''),
      );
      const lines = r.err.split('\n');
      expect(lines[0]).toBe(
        `lab: cannot read ${missing}: ENOENT: no such file or directory, open '${missing}'`,
      );
      expect(lines[1]).toMatch(new RegExp(`^lab: ${broken}:3:\\d+: `));
    }
    // A file without a condition asks herd7's default (forall true); one the model refuses says why.
    const many = file(
      'many.litmus',
      `C many\n{}\nP0(int *x) { ${Array.from({ length: 16 }, (_, i) => `int r${i} = READ_ONCE(*x);`).join(' ')} }\nP1(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n`,
    );
    const r = lab('check', bare, many, twin(SORTED[0] as string));
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/^Test bare Required\n/);
    expect(r.err).toMatch(
      new RegExp(
        `^lab: ${many}: the kernel's memory model \\(lkmm\\) cannot answer this program: .*\\. Try --memory sc or --memory tso\\.\\n$`,
      ),
    );
    expect(comparable(r.out)).toMatch(
      new RegExp(`\n\n${expected(SORTED[0] as string).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$`),
    );
  });

  it('refuses a folder without litmus files in its place, and bad options before any file', () => {
    const r = lab('check', twin(SORTED[0] as string), TWINS.replace(/lkmm$/, 'fuzz'));
    expect(r.status).toBe(1);
    expect(r.err).toBe(`lab: ${TWINS.replace(/lkmm$/, 'fuzz')} holds no .litmus file\n`);
    expect(comparable(r.out)).toBe(expected(SORTED[0] as string));
    // A parameter is a file's own: a file without it is refused, named, the others answered.
    const set = lab('check', twin(SORTED[0] as string), twin(SORTED[1] as string), '--set', 'x=1');
    expect(set.status).toBe(1);
    expect(set.out).toBe('');
    expect(set.err).toBe(
      [SORTED[0], SORTED[1]]
        .map(
          (f) =>
            `lab: ${twin(f as string)}: program has no parameter 'x'; its parameters: memory\n`,
        )
        .join(''),
    );
    const bad = lab('check', TWINS, '--memory', 'arm');
    expect(bad).toEqual({
      status: 2,
      out: '',
      err: "lab: memory must be one of sc, tso, lkmm; got 'arm'\n",
    });
    expect(lab('check', TWINS, '--workers', '0').err).toBe(
      "lab: --workers takes an integer from 1 to 64, got '0'\n",
    );
  });

  it('--json gives one JSON line a file, in order, with the file it answers', () => {
    const r = lab('check', TWINS, '--json', '--memory', 'sc');
    expect(r.status, r.err).toBe(0);
    const docs = r.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(docs.map((d) => d.file)).toEqual(SORTED.map((f) => `${TWINS}/${f}`));
    for (const d of docs) expect(d).toMatchObject({ model: 'sc', complete: true, stopped: null });
    const refused = lab('check', TWINS, twin('no-such.litmus'), '--json');
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.err)).toEqual({
      file: twin('no-such.litmus'),
      error: {
        message: `cannot read ${twin('no-such.litmus')}: ENOENT: no such file or directory, open '${twin('no-such.litmus')}'`,
        position: null,
      },
    });
  });

  it('stops quietly when its reader has gone (lab check DIR | head -1)', () => {
    const err = file('pipe.err', '');
    const r = spawnSync(
      'sh',
      ['-c', `"${process.execPath}" "${main}" check "${TWINS}" --workers 2 2>"${err}" | head -1`],
      { encoding: 'utf8' },
    );
    expect(r.stdout).toBe(`Test ${(SORTED[0] as string).replace('.litmus', '')} Allowed\n`);
    // No stack trace for a write to a closed pipe (EPIPE).
    expect(readFileSync(err, 'utf8')).toBe('');
  });

  it('prints the same through tsx (npm run lab:dev, its threads too) as from the bundle', () => {
    const bundled = lab('check', TWINS, twin('no-such.litmus'));
    const sources = tsx('check', TWINS, twin('no-such.litmus'), '--workers', '2');
    expect(sources.status).toBe(bundled.status);
    expect(sources.err).toBe(bundled.err);
    const untimed = (t: string) => t.replace(/^Time .*\n/gm, '');
    expect(untimed(sources.out)).toBe(untimed(bundled.out));
  });
});

describe('how many threads check a set by default', () => {
  it('one below 8 files; from 8, one for each core the load leaves idle, at least one', () => {
    expect(defaultThreads(7, 8, 0)).toBe(1);
    expect(defaultThreads(79, 2, 0.3)).toBe(2);
    expect(defaultThreads(79, 2, 1.5)).toBe(1);
    expect(defaultThreads(79, 2, 10)).toBe(1);
    expect(defaultThreads(79, 8, 3.2)).toBe(5);
    expect(defaultThreads(8, 4, 0)).toBe(4);
  });
});
