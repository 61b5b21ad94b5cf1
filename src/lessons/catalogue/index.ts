// Every scenario's lesson, by scenario id. The lessons are JSON files beside this one, checked
// against schema.ts as they load; tests hold the list to the scenario catalogue (one lesson per
// scenario, one question per witness) and replay every figure, question and hint.

import type { Params } from '../../scenarios/types.ts';
import type { ScenarioLesson } from '../types.ts';
import cmpxchgLocalGeneric from './cmpxchg-local-generic.json' with { type: 'json' };
import globalAtomic from './global-atomic.json' with { type: 'json' };
import globalPlain from './global-plain.json' with { type: 'json' };
import globalSpinlock from './global-spinlock.json' with { type: 'json' };
import irqLocalRmw from './irq-local-rmw.json' with { type: 'json' };
import lazyNrFiles from './lazy-nr-files.json' with { type: 'json' };
import percpuAtomic64 from './percpu-atomic64.json' with { type: 'json' };
import percpuClassic from './percpu-classic.json' with { type: 'json' };
import percpuLglock from './percpu-lglock.json' with { type: 'json' };
import percpuModern from './percpu-modern.json' with { type: 'json' };
import percpuSeq from './percpu-seq.json' with { type: 'json' };
import percpuSeqMulti from './percpu-seq-multi.json' with { type: 'json' };
import percpuSumFuzzy from './percpu-sum-fuzzy.json' with { type: 'json' };
import { type LessonFile, lessonFileSchema, parseFile, sourcesFileSchema } from './schema.ts';
import { sharedSetups } from './setups.ts';
import sourcesFile from './sources.json' with { type: 'json' };
import thisCpuMigrate from './this-cpu-migrate.json' with { type: 'json' };
import thisCpuOps from './this-cpu-ops.json' with { type: 'json' };
import tornRead32 from './torn-read-32.json' with { type: 'json' };
import percpuRwsem from './percpu-rwsem.json' with { type: 'json' };
import seqcountSum from './seqcount-sum.json' with { type: 'json' };
import percpuRefSwitch from './percpu-ref-switch.json' with { type: 'json' };
import percpuHotplugSum from './percpu-hotplug-sum.json' with { type: 'json' };
import percpuLimitedAdd from './percpu-limited-add.json' with { type: 'json' };
import percpuUpgrade from './percpu-upgrade.json' with { type: 'json' };
import percpuTree from './percpu-tree.json' with { type: 'json' };

const sources = parseFile(sourcesFileSchema, sourcesFile, 'sources.json');

/** A checked lesson file with its setup names and source keys resolved. */
export function resolveLesson(value: unknown, file: string): ScenarioLesson {
  const l: LessonFile = parseFile(lessonFileSchema, value, file);
  const setup = (p: Params | string): Params => {
    if (typeof p !== 'string') return p;
    const named = l.setups?.[p] ?? sharedSetups[p];
    if (!named) throw new Error(`${file}: no setup is named "${p}"`);
    return named;
  };
  return {
    scenario: l.scenario,
    sources: l.sources.map((key) => {
      const s = sources[key];
      if (!s) throw new Error(`${file}: sources.json has no source "${key}"`);
      return s;
    }),
    slides: l.slides.map(({ params, ...slide }) =>
      params === undefined ? slide : { ...slide, params: setup(params) },
    ),
    witnessQuestions: l.witnessQuestions,
    challenges: l.challenges.map((c) => ({ ...c, params: setup(c.params) })),
  };
}

const files: Readonly<Record<string, unknown>> = {
  'global-plain': globalPlain,
  'global-atomic': globalAtomic,
  'global-spinlock': globalSpinlock,
  'lazy-nr-files': lazyNrFiles,
  'percpu-classic': percpuClassic,
  'percpu-atomic64': percpuAtomic64,
  'percpu-lglock': percpuLglock,
  'percpu-seq': percpuSeq,
  'percpu-seq-multi': percpuSeqMulti,
  'percpu-sum-fuzzy': percpuSumFuzzy,
  'this-cpu-migrate': thisCpuMigrate,
  'this-cpu-ops': thisCpuOps,
  'irq-local-rmw': irqLocalRmw,
  'cmpxchg-local-generic': cmpxchgLocalGeneric,
  'percpu-modern': percpuModern,
  'torn-read-32': tornRead32,
  'percpu-rwsem': percpuRwsem,
  'seqcount-sum': seqcountSum,
  'percpu-ref-switch': percpuRefSwitch,
  'percpu-hotplug-sum': percpuHotplugSum,
  'percpu-limited-add': percpuLimitedAdd,
  'percpu-upgrade': percpuUpgrade,
  'percpu-tree': percpuTree,
};

/** Every lesson (in the scenario catalogue's order; courseOrder gives the teaching order). */
export const lessons: readonly ScenarioLesson[] = Object.entries(files).map(([id, value]) => {
  const lesson = resolveLesson(value, `${id}.json`);
  if (lesson.scenario !== id) throw new Error(`${id}.json: its scenario is "${lesson.scenario}"`);
  return lesson;
});

/** The lesson of scenario `id`, or undefined. */
export function findLesson(id: string): ScenarioLesson | undefined {
  return lessons.find((l) => l.scenario === id);
}
