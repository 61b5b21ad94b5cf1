// What the command line says to a mistyped or out-of-range argument: one line in the lab's own
// words, naming the option, with the nearest known word when the input is a near miss.

import { describe, expect, it } from 'vitest';
import { lab } from './lab.ts';
import { nearest } from './suggest.ts';

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

describe('the CLI on bad arguments', () => {
  it('names an unknown option, suggests the near one, and points to --help', async () => {
    expect(await run('explore', 'global-plain', '--irq', '1')).toEqual({
      status: 2,
      out: '',
      err: 'lab: unknown option --irq (did you mean --irqs?); `lab --help` lists the options',
    });
    expect((await run('explore', 'global-plain', '--bogus')).err).toBe(
      'lab: unknown option --bogus; `lab --help` lists the options',
    );
  });

  it('says how to pass a negative number, not Node’s advice on positionals', async () => {
    const r = await run('explore', 'global-plain', '--irqs', '-1');
    expect(r.err).toBe(
      "lab: --irqs needs a value; a value that starts with '-' goes after '=': --irqs=-1",
    );
    expect((await run('explore', 'global-plain', '--irqs=-1')).err).toMatch(
      /^lab: --irqs takes an integer from 0 to \d+, got '-1'$/,
    );
    expect((await run('explore', 'global-plain', '--json=1')).err).toBe(
      'lab: --json is a switch and takes no value',
    );
  });

  it('takes the same bounds as the language, 0 to 15 of each kind', async () => {
    expect((await run('explore', 'global-plain', '--irqs', '16')).err).toBe(
      "lab: --irqs takes an integer from 0 to 15, got '16'",
    );
  });

  it('shows the negative value typed, not another, where it goes', async () => {
    expect((await run('live', 'global-plain', '--irq-rate', '-5')).err).toBe(
      "lab: --irq-rate needs a value; a value that starts with '-' goes after '=': --irq-rate=-5",
    );
  });

  it('suggests the command a typo meant', async () => {
    expect((await run('explor', 'global-plain')).err).toMatch(
      /^lab: unknown command 'explor' \(did you mean explore\?\); commands: /,
    );
  });

  it('suggests the scenario and the witness a typo meant', async () => {
    expect((await run('explore', 'percpu-moden')).err).toMatch(
      /^lab: unknown scenario 'percpu-moden' \(did you mean percpu-modern\?\); one of: global-plain/,
    );
    expect((await run('replay', 'global-plain', '--witness', 'lost-updat')).err).toMatch(
      /has no witness 'lost-updat' \(did you mean lost-update\?\)/,
    );
    // Far from every id: no guess.
    expect((await run('explore', 'zzzzzz')).err).not.toContain('did you mean');
  });

  it('gives live --cpus one range whichever side is out', async () => {
    for (const cpus of ['0', '999'])
      expect((await run('live', 'global-plain', '--cpus', cpus)).err).toBe(
        `lab: --cpus takes an integer from 1 to 64, got '${cpus}'`,
      );
  });

  it('tells an unknown bench scenario from one that does not run live', async () => {
    expect((await run('bench', '--scenarios', 'nope')).err).toMatch(
      /^lab: there is no scenario 'nope'/,
    );
    expect((await run('bench', '--scenarios', 'torn-read-32')).err).toMatch(
      /^lab: torn-read-32 does not run live/,
    );
  });

  it('lists lkmm in --help with the rule for the default model, and says what check answers', async () => {
    const help = (await run('--help')).out;
    expect(help).toContain('  --memory sc|tso|lkmm\n');
    expect(help).toMatch(
      /Default: lkmm for a herd7 litmus file, sc for the lab's own programs\s+and the catalogue/,
    );
    expect(help).toMatch(
      /check <file\|folder>\.\.\. +herd7's answer to each program's final condition/,
    );
    expect(help).toMatch(/--workers N +\(check\) threads that check files, 1 to 64/);
    expect(help).not.toContain("explore a program; herd7's verdict");
  });

  it('lists --simplest in --help, and live takes --preset as the other commands do', async () => {
    const help = (await run('--help')).out;
    expect(help).toMatch(/--simplest +\(explore\)/);
    expect((await run('live', 'percpu-modern', '--preset', 'nope')).err).toMatch(
      /^lab: .*preset.*nope/i,
    );
  });
});

describe('the CLI text', () => {
  it('says an observable the run never recorded is not recorded, not null', async () => {
    const r = await run('explore', 'torn-read-32', '--set', 'variant=up-irq');
    expect(r.status).toBe(0);
    expect(r.out).toContain('read=not recorded old=');
    expect(r.out).not.toContain('=null');
  });
});

describe('nearest', () => {
  it('takes a word a third wrong at most', () => {
    expect(nearest('percpu-clasic', ['percpu-classic', 'global-plain'])).toBe('percpu-classic');
    expect(nearest('abc', ['percpu-classic'])).toBeNull();
    expect(nearest('x', [])).toBeNull();
  });
});
