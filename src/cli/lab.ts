// The command line's dispatcher, apart from the process so tests (and the argument fuzzer) can run
// it in-process: `lab(argv, out)` returns the exit status. Bad input exits with status 2 and one
// message (as {"error": {message, position}} with --json); a run that finds a violation is a
// successful run and exits 0.

import { DEFAULT_MAX_MEMORY_MB, MAX_SHARDS } from '../explore/limits.ts';
import { MachineFault } from '../machine/interpreter.ts';
import { DEFAULT_MAX_STEPS } from '../machine/randomRun.ts';
import { ParamError } from '../scenarios/params.ts';
import { MAX_CHECK_THREADS, THREADS_FROM } from './check/limits.ts';
import { UsageError } from './errors.ts';
import { didYouMean } from './suggest.ts';
import type { LabOutput, Outcome } from './output.ts';

export type { LabOutput, Outcome } from './output.ts';

const HELP = `percpu-lab: the Linux kernel's per-CPU counters, step by step

Usage: lab <command> [options]   (from the checkout: ./bin/lab.mjs, or npm run lab --)

  <id> is a scenario of the catalogue or a program file (prog.c, test.litmus: docs/language.md).

  list                                   every scenario (id, title, source)
  show <id>                              listing, parameters, observables, invariants, witnesses
  check <file|folder>...                 herd7's answer to each program's final condition (exists,
                                         forall), in herd7's words, one after another; under lkmm
                                         for a herd7 file; a folder: its .litmus files
  export <id> [--format lab|litmus|promela]  a scenario or program as text (litmus: for herd7;
                                         promela: for SPIN, with explore's bounds options)
  replay <id> "<schedule>"               run a schedule, narrating every step
  replay <id> --witness <name>           replay one of the scenario's witnesses
  random <id> --seed N [--runs K]        seeded random schedules, grouped by outcome
  explore <id> [--irqs N] [--nmis N] [--preemptions N] [--migrations N] [--hotplugs N]
               [--switches N]
                                         every interleaving within bounds, shortest witnesses
                                         (under lkmm: each end state the model allows)
  live <id> [--seconds S] [--cpus K] [--irq-rate N] [--nmi-rate N] [--migration-rate N]
            [--hotplug-rate N] [--period-us N] [--seed N]
                                         race real threads on shared memory; verdict at rest
  live <id> --witness <name> | --schedule "<s>" | --all-witnesses
                                         lockstep replay on threads, compared with the model
  bench [--scenarios a,b] [--cpus 1,2,4] [--layout padded|packed|both] [--summer none|busy|<µs>]
        [--seconds S] [--warmup S] [--repeat R] [--engine compiled|interpreted|both]
        [--preset kernel|teaching]       adds/s against CPUs for each algorithm (Scaling view)

Options:
  --set name=value   set a parameter (repeatable; lists are comma-separated: --set slots=10,31)
  --preset name      start from a named parameter set (e.g. kernel)
  --memory sc|tso|lkmm
                     the memory model (as --set memory=…): sc, sequentially consistent; tso,
                     x86-TSO with store buffers; lkmm, the kernel's own, answered as herd7 does.
                     Default: lkmm for a herd7 litmus file, sc for the lab's own programs
                     and the catalogue. replay, random and export --format promela step a
                     machine: they take sc or tso, and refuse lkmm
  --json             machine-readable output
  --max-steps N      (random) give up on a run after N events (default ${DEFAULT_MAX_STEPS})
  --workers N        (explore) threads that search together, 1 to ${MAX_SHARDS} (default: the cores from 4
                     cores, else 1); the answer is the same with any number
  --workers N        (check) threads that check files, 1 to ${MAX_CHECK_THREADS} (default: from ${THREADS_FROM} files,
                     one for each idle core, else 1); the answers come in the files' order
  --max-states N     (explore) stop, marked incomplete, at the end of the first level of cost
                     that passes N states (a level may hold many more; default: no limit)
  --max-memory MB    (explore) stop, marked incomplete, at this much memory (default ${DEFAULT_MAX_MEMORY_MB})
  --simplest         (explore) stop after the cheapest level with a violation: its simplest witness
  --symmetry         (explore) one state per renaming of CPUs that run the same programs
  --por              (explore) a CPU's private step alone when nothing can interfere
  --quiet            (explore) no progress line on stderr
  --progress-ms N    (explore) a progress line every N ms once the run lasts that long (default 1000)
  --engine E         (live, bench) compiled (WebAssembly, the default) or interpreted

Schedules: events separated by spaces: N (step CPU N), irqN, nmiN, preN (preempt CPU N),
migN>M (move CPU N's task to CPU M), flushN (under tso: CPU N's oldest buffered store reaches
memory); "0*3" repeats, "(0 1)*2" repeats a group.`;

type Command = (argv: readonly string[], out: LabOutput) => Outcome | Promise<Outcome>;

// Each command is loaded when it is run: a run starts by loading its modules through tsx, and
// `explore` needs two thirds of what all the commands together import (Live's threads and
// WebAssembly, the bench, herd7's checker are not its own), which is a good part of a short
// run's time.
const commands: Record<string, () => Promise<Command>> = {
  list: async () => (await import('./commands/list.ts')).list,
  bench: async () => (await import('./commands/bench.ts')).benchCommand,
  live: async () => (await import('./commands/live.ts')).liveCommand,
  show: async () => (await import('./commands/show.ts')).show,
  replay: async () => (await import('./commands/replay.ts')).replayCommand,
  random: async () => (await import('./commands/random.ts')).randomCommand,
  explore: async () => (await import('./commands/explore.ts')).exploreCommand,
  check: async () => (await import('./commands/check.ts')).checkFilesCommand,
  export: async () => (await import('./commands/export.ts')).exportCommand,
};

/** Runs one command line; resolves to its exit status. */
export async function lab(argv: readonly string[], out: LabOutput): Promise<number> {
  const [name, ...rest] = argv;
  const json = rest.includes('--json');
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    out.stdout(`${HELP}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  try {
    if (!command) {
      throw new UsageError(
        `unknown command '${name}'${didYouMean(name, Object.keys(commands))}; commands: ${Object.keys(commands).join(', ')}`,
      );
    }
    const run = await command();
    const outcome = await run(rest, out);
    if (typeof outcome !== 'string') return outcome.status;
    out.stdout(`${outcome}\n`);
    return 0;
  } catch (caught) {
    // Some parameter combinations are only refused when the scenario is built (an initial delta
    // beyond the batch): the same bad input as any other, not a crash.
    const e = caught instanceof ParamError ? new UsageError(caught.message) : caught;
    if (e instanceof UsageError) {
      if (json) {
        out.stderr(`${JSON.stringify({ error: { message: e.message, position: e.position } })}\n`);
      } else {
        out.stderr(`lab: ${e.message}\n`);
      }
      return 2;
    }
    if (e instanceof MachineFault) {
      // A typed program's fault (a division by zero, an unlock of a free lock) is the program's;
      // in a catalogue entry it would be the model's.
      out.stderr(`lab: the machine stopped: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
