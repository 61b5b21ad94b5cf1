// `lab export --format promela` against the explorer: SPIN checks the export of every catalogue
// entry's every variant at its default parameters and bounds, and must reach the same end
// states (the observables of each) and break the same invariants as the explorer does. Needs
// SPIN and a C compiler (Debian: apt-get install spin gcc); without them it is skipped, saying so.
// The model is built with -DLAB_REPORT and pan with -DPRINTF -O0 (the models are small: the
// compiler's time is most of a row's), run with -c0 so no error stops the search.

import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { explore } from '../../src/explore/explore.ts';
import { promelaModel, PromelaRefusal } from '../../src/explore/promela/model.ts';
import { labVerdict, listed, spinVerdict } from '../../src/explore/promela/verdict.ts';
import { catalogue } from '../../src/scenarios/index.ts';
import { resolveParams } from '../../src/scenarios/params.ts';

const has = (cmd: string, arg: string) => spawnSync(cmd, [arg], { encoding: 'utf8' }).status === 0;
const spin = has('spin', '-V');
const cc = has('cc', '--version');
const missing = !spin ? 'spin is not installed' : !cc ? 'no C compiler (cc)' : '';

/** Entries the export refuses, and why (the test fails if one is refused for another reason). */
const REFUSED: Readonly<Record<string, RegExp>> = {
  // OLD and NEW sit across 2^32 to show the tear: Promela's int has 32 bits.
  'torn-read-32': /past Promela's 32-bit int/,
  // Offline and online events are the machine's, not yet the export's.
  'percpu-hotplug-sum': /CPU hotplug/,
};

const rows = catalogue.flatMap((sc) => {
  const v = sc.params.find((q) => q.name === 'variant');
  const variants = v?.kind === 'choice' ? v.choices : [null];
  return variants.map((variant) => ({ sc, variant }));
});

const dir = missing === '' ? mkdtempSync(join(tmpdir(), 'percpu-lab-promela-')) : '';
afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

const run = promisify(execFile);

/**
 * SPIN's verdict on `model`, built and searched in a folder of its own: the rows run
 * concurrently (the suite is `concurrent`), so while one row's C compiler runs, another core can
 * build the next (the compiler is most of a row's time, and it runs outside this worker).
 */
async function runSpin(model: string, name: string): Promise<string> {
  const cwd = mkdtempSync(join(dir, `${name.replace(/\W+/g, '-')}-`));
  writeFileSync(join(cwd, 'model.pml'), model);
  await run('spin', ['-o2', '-DLAB_REPORT', '-a', 'model.pml'], { cwd }).catch((e: unknown) => {
    throw new Error(`spin -a: ${String(e)}`);
  });
  const flags = ['-O0', '-fwrapv', '-DSAFETY', '-DPRINTF', '-o', 'pan', 'pan.c'];
  await run('cc', flags, { cwd }).catch((e: unknown) => {
    throw new Error(`cc pan.c: ${String(e)}`);
  });
  const pan = await run('./pan', ['-m100000', '-w20', '-c0'], { cwd, maxBuffer: 1 << 28 });
  if (!/errors: \d+/.test(pan.stdout)) throw new Error(`pan: ${pan.stdout}${pan.stderr}`);
  return pan.stdout;
}

describe.skipIf(missing !== '')(
  `SPIN on the Promela export${missing ? ` (${missing})` : ''}`,
  { concurrent: true },
  () => {
    it.each(rows.map((r) => [`${r.sc.id}${r.variant ? ` ${r.variant}` : ''}`, r] as const))(
      '%s: the same end states and the same broken invariants as the explorer',
      async (name, { sc, variant }) => {
        const params = resolveParams(sc, variant ? { variant } : {});
        const bounds = { ...sc.bounds, switches: Infinity };
        let model: string;
        try {
          model = promelaModel(sc, params, bounds);
        } catch (e) {
          const why = REFUSED[sc.id];
          if (why && e instanceof PromelaRefusal && why.test(e.message)) return;
          throw e;
        }
        expect(REFUSED[sc.id], `${sc.id} is exported now: take it off REFUSED`).toBeUndefined();
        const lab = labVerdict(explore(sc, params, bounds));
        const got = spinVerdict(await runSpin(model, name));
        expect(listed(got.broken)).toEqual(listed(lab.broken));
        expect(listed(got.outcomes)).toEqual(listed(lab.outcomes));
        // A model that reports nothing would agree with an explorer that found nothing.
        expect(got.outcomes.size).toBeGreaterThan(0);
      },
      60_000,
    );
  },
);

describe.skipIf(missing !== '')(
  `docs/spin.md's answer is the one SPIN gives${missing ? ` (${missing})` : ''}`,
  () => {
    it('pan prints the broken assertion’s expression; the replay names the line with its name', async () => {
      const docs = readFileSync(join(import.meta.dirname, '../../docs/spin.md'), 'utf8');
      const sc = catalogue.find((s) => s.id === 'global-plain');
      if (!sc) throw new Error('no global-plain');
      const params = resolveParams(sc, { iterations: '2' });
      const model = promelaModel(sc, params, { ...sc.bounds, switches: Infinity });
      const cwd = mkdtempSync(join(dir, 'docs-'));
      writeFileSync(join(cwd, 'model.pml'), model);
      // As docs/spin.md runs it.
      await run('spin', ['-a', 'model.pml'], { cwd });
      await run('cc', ['-O2', '-fwrapv', '-DSAFETY', '-o', 'pan', 'pan.c'], { cwd });
      // Whatever pan's exit status, its report is on stdout.
      const pan = await run('./pan', ['-m1000000'], { cwd }).catch(
        (e: unknown) => e as { stdout: string },
      );
      const said = /^pan:1: assertion violated .*$/m.exec(pan.stdout)?.[0];
      expect(said).toBeDefined();
      expect(docs).toContain(`\n${said ?? ''}\n`);
      const trail = await run('spin', ['-t', '-p', 'model.pml'], { cwd });
      const where = /^spin: model\.pml:(\d+), Error: assertion violated$/m.exec(trail.stdout);
      expect(docs).toContain(where?.[0]);
      expect(model.split('\n')[Number(where?.[1]) - 1]).toMatch(
        /assert\(.*\); \/\* no-lost-update \*\//,
      );
    }, 60_000);
  },
);
