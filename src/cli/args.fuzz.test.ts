// The command line's arguments, fuzzed in-process: whatever a user types, `lab` answers with exit
// status 0 and output, or 2 and one message on stderr (a JSON error with --json); never a crash
// (status 1 or an exception). A fixed seed keeps the run repeatable. Runs are kept short by
// options appended last (parseArgs keeps the last value): a few states, runs and steps. `live`
// and `bench` start threads for seconds, so only bench's plan parser is fuzzed here, and live's
// options are covered by cli.test.ts and cli.live.test.ts.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../scenarios/index.ts';
import { benchPlan } from './commands/bench.ts';
import { UsageError } from './errors.ts';
import { lab } from './lab.ts';

const options = { seed: 2011, numRuns: 1000 };

const value = fc.oneof(
  fc.constantFrom('0', '1', '2', '3', '-1', '1e9', '99999999999', 'NaN', '', ' ', '%', '=', ','),
  fc.integer({ min: -3, max: 40 }).map(String),
  fc.string({ maxLength: 8 }),
);
const param = fc.constantFrom(
  'cpus',
  'iterations',
  'batch',
  'adds',
  'variant',
  'slots',
  'summer',
  'amounts',
  'x',
  '',
);
const token = fc.oneof(
  fc.constantFrom(...catalogue.map((s) => s.id), 'nope'),
  fc.constantFrom(
    '--json',
    '--symmetry',
    '--por',
    '--simplest',
    '--quiet',
    '--x',
    '-',
    '--',
    '--set',
    '--preset',
    '--witness',
    '--seed',
    '--irqs',
    '--nmis',
    '--migrations',
    '--switches',
  ),
  fc.tuple(param, value).map(([k, v]) => `${k}=${v}`),
  fc.constantFrom('0 1 0 1', '0*3 1', '(0 1)*2', 'irq0 0', 'mig0>1', '9', 'x', '0*9999999'),
  value,
);
const small = fc.integer({ min: 0, max: 4 }).map(String);
/** Options as a user means them: mostly well-formed, so runs get past parsing. */
const meant = fc.oneof(
  fc.tuple(
    fc.constant('--set'),
    fc.tuple(param, small).map(([k, v]) => `${k}=${v}`),
  ),
  fc.tuple(fc.constantFrom('--irqs', '--nmis', '--preemptions', '--migrations', '--seed'), small),
  fc.tuple(fc.constant('--preset'), fc.constantFrom('kernel', 'teaching', 'nope')),
  fc.tuple(
    fc.constant('--witness'),
    fc.constantFrom(...catalogue.flatMap((s) => s.witnesses.map((w) => w.name)), 'nope'),
  ),
  fc.constantFrom('--json', '--symmetry', '--por', '--simplest').map((f) => [f]),
  fc.constantFrom('0 1 0 1', '0*3 1', '(0 1)*2', 'irq0 0', '1 0').map((s) => [s]),
);
const argv = fc.oneof(
  // Anything at all.
  fc.tuple(
    fc.constantFrom('list', 'show', 'replay', 'random', 'explore', 'help', 'nope', '--help'),
    fc.array(token, { maxLength: 7 }),
  ),
  // A command, a scenario, and options mostly as meant, with now and then a stray token.
  fc
    .tuple(
      fc.constantFrom('show', 'replay', 'random', 'explore'),
      fc.constantFrom(...catalogue.map((s) => s.id)),
      fc.array(
        fc.oneof({ weight: 5, arbitrary: meant }, { weight: 1, arbitrary: token.map((t) => [t]) }),
        {
          maxLength: 4,
        },
      ),
    )
    .map(([command, id, opts]): [string, string[]] => [command, [id, ...opts.flat()]]),
);

/** Short runs: appended last, so they win over the fuzzed values. */
const caps: Record<string, readonly string[]> = {
  random: ['--runs', '3', '--max-steps', '3000'],
  explore: ['--max-states', '3000', '--quiet', '--workers', '1'],
};

describe('what a user can type at the command line', () => {
  it('lab: exit 0 with output, or exit 2 with one clear message', async () => {
    await fc.assert(
      fc.asyncProperty(argv, async ([command, rest]) => {
        let out = '';
        let err = '';
        const args = [command, ...rest, ...(caps[command] ?? [])];
        const status = await lab(args, {
          stdout: (t) => (out += t),
          stderr: (t) => (err += t),
        });
        if (status === 0) {
          expect(out.length).toBeGreaterThan(0);
        } else {
          expect(status).toBe(2);
          if (!rest.includes('--json')) expect(err).toMatch(/^lab: \S.*\n$/);
          else {
            const doc = JSON.parse(err) as { error?: { message?: unknown } };
            expect(typeof doc.error?.message).toBe('string');
          }
        }
      }),
      options,
    );
  });

  it('a parameter refused only when the scenario is built is a usage error (fuzzing found it)', async () => {
    let err = '';
    const status = await lab(['show', 'percpu-lglock', '--set', 'slots=4'], {
      stdout: () => undefined,
      stderr: (t) => (err += t),
    });
    expect(status).toBe(2);
    expect(err).toBe('lab: an initial delta must be within ±(batch − 1) = ±3, got 4\n');
  });

  it("bench's plan: a sweep plan, or a usage error naming the flag", () => {
    const flag = fc.constantFrom(
      'scenarios',
      'cpus',
      'layout',
      'summer',
      'seconds',
      'warmup',
      'repeat',
      'engine',
      'preset',
    );
    fc.assert(
      fc.property(fc.dictionary(flag, value, { maxKeys: 4 }), (values) => {
        try {
          const plan = benchPlan(values);
          expect(plan.cpus.length).toBeGreaterThan(0);
        } catch (e) {
          expect(e).toBeInstanceOf(UsageError);
          expect((e as Error).message.length).toBeGreaterThan(10);
        }
      }),
      { seed: 2011, numRuns: 2000 },
    );
  });

  it('an argument past those a command takes is refused, not dropped (fuzzing found it)', async () => {
    const run = async (...args: string[]) => {
      let err = '';
      const status = await lab(args, { stdout: () => undefined, stderr: (t) => (err += t) });
      return `${status} ${err}`;
    };
    for (const args of [
      ['list', 'extra'],
      ['show', 'global-plain', 'extra'],
      ['explore', 'global-plain', 'extra', '--quiet'],
      ['export', 'global-plain', 'extra'],
      ['random', 'global-plain', '--seed', '1', 'extra'],
    ])
      expect(await run(...args)).toBe("2 lab: unexpected argument 'extra'\n");
    // check takes many files, as herd7 does: each is answered or refused in turn, exit 1.
    expect(await run('check', 'sb.litmus', 'extra')).toBe(
      "1 lab: cannot read sb.litmus: ENOENT: no such file or directory, open 'sb.litmus'\n" +
        "lab: cannot read extra: ENOENT: no such file or directory, open 'extra'\n",
    );
    // What the terminal would act on is written out.
    expect(await run('list', '\u001b[2J')).toBe("2 lab: unexpected argument 'U+001B[2J'\n");
  });

  it('a list option with an empty item is refused (fuzzing found it)', () => {
    expect(() => benchPlan({ cpus: '1,,2' })).toThrow(
      new UsageError("--cpus has an empty item in '1,,2'"),
    );
    expect(() => benchPlan({ scenarios: 'global-plain,' })).toThrow(UsageError);
    expect(benchPlan({ cpus: '1, 2' }).cpus).toEqual([1, 2]);
  });
});
