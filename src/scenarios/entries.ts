// The catalogue's one list: a row per entry, in the catalogue's order (docs/catalogue.md; roughly
// by thread, then by era). Every other list of entries is derived from it: the eager catalogue
// (index.ts), Step mode's loader (load.ts), the lessons (src/lessons/catalogue/index.ts) and the
// course (each lesson says where it stands), the Scaling charts' colours (src/charts/palette.ts).
//
// A new entry is two files beside each other and one row here:
// - catalogue/<id>.ts, whose default export is the scenario (its program text, witnesses, bounds);
// - catalogue/<id>.json, its lesson (slides, witness questions, challenges, place in the course),
//   checked by src/lessons/catalogue/schema.ts as it loads;
// - a row below. An entry that runs in Live mode or Scaling also gets a row in src/live/specs.ts
//   (what one operation is, and how its parameters make one).
//
// Each file is imported by its literal path, so every bundler (Vite, esbuild) and Node see it and
// each entry can be a chunk of its own: a Step link downloads only the entry it opens.

import type { Scenario } from './types.ts';

export interface CatalogueEntry {
  /** The entry's stable id: in URLs, the CLI and tests. Its files are named for it. */
  readonly id: string;
  /** The scenario's module (catalogue/<id>.ts). */
  readonly scenario: () => Promise<{ readonly default: Scenario }>;
  /** The lesson file (catalogue/<id>.json), unchecked: the lessons layer reads it. */
  readonly lesson: () => Promise<{ readonly default: unknown }>;
}

export const ENTRIES: readonly CatalogueEntry[] = [
  {
    id: 'global-plain',
    scenario: () => import('./catalogue/global-plain.ts'),
    lesson: () => import('./catalogue/global-plain.json', { with: { type: 'json' } }),
  },
  {
    id: 'global-atomic',
    scenario: () => import('./catalogue/global-atomic.ts'),
    lesson: () => import('./catalogue/global-atomic.json', { with: { type: 'json' } }),
  },
  {
    id: 'global-spinlock',
    scenario: () => import('./catalogue/global-spinlock.ts'),
    lesson: () => import('./catalogue/global-spinlock.json', { with: { type: 'json' } }),
  },
  {
    id: 'lazy-nr-files',
    scenario: () => import('./catalogue/lazy-nr-files.ts'),
    lesson: () => import('./catalogue/lazy-nr-files.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-classic',
    scenario: () => import('./catalogue/percpu-classic.ts'),
    lesson: () => import('./catalogue/percpu-classic.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-atomic64',
    scenario: () => import('./catalogue/percpu-atomic64.ts'),
    lesson: () => import('./catalogue/percpu-atomic64.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-lglock',
    scenario: () => import('./catalogue/percpu-lglock.ts'),
    lesson: () => import('./catalogue/percpu-lglock.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-seq',
    scenario: () => import('./catalogue/percpu-seq.ts'),
    lesson: () => import('./catalogue/percpu-seq.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-seq-multi',
    scenario: () => import('./catalogue/percpu-seq-multi.ts'),
    lesson: () => import('./catalogue/percpu-seq-multi.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-sum-fuzzy',
    scenario: () => import('./catalogue/percpu-sum-fuzzy.ts'),
    lesson: () => import('./catalogue/percpu-sum-fuzzy.json', { with: { type: 'json' } }),
  },
  {
    id: 'this-cpu-migrate',
    scenario: () => import('./catalogue/this-cpu-migrate.ts'),
    lesson: () => import('./catalogue/this-cpu-migrate.json', { with: { type: 'json' } }),
  },
  {
    id: 'this-cpu-ops',
    scenario: () => import('./catalogue/this-cpu-ops.ts'),
    lesson: () => import('./catalogue/this-cpu-ops.json', { with: { type: 'json' } }),
  },
  {
    id: 'irq-local-rmw',
    scenario: () => import('./catalogue/irq-local-rmw.ts'),
    lesson: () => import('./catalogue/irq-local-rmw.json', { with: { type: 'json' } }),
  },
  {
    id: 'cmpxchg-local-generic',
    scenario: () => import('./catalogue/cmpxchg-local-generic.ts'),
    lesson: () => import('./catalogue/cmpxchg-local-generic.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-modern',
    scenario: () => import('./catalogue/percpu-modern.ts'),
    lesson: () => import('./catalogue/percpu-modern.json', { with: { type: 'json' } }),
  },
  {
    id: 'torn-read-32',
    scenario: () => import('./catalogue/torn-read-32.ts'),
    lesson: () => import('./catalogue/torn-read-32.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-rwsem',
    scenario: () => import('./catalogue/percpu-rwsem.ts'),
    lesson: () => import('./catalogue/percpu-rwsem.json', { with: { type: 'json' } }),
  },
  {
    id: 'seqcount-sum',
    scenario: () => import('./catalogue/seqcount-sum.ts'),
    lesson: () => import('./catalogue/seqcount-sum.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-ref-switch',
    scenario: () => import('./catalogue/percpu-ref-switch.ts'),
    lesson: () => import('./catalogue/percpu-ref-switch.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-hotplug-sum',
    scenario: () => import('./catalogue/percpu-hotplug-sum.ts'),
    lesson: () => import('./catalogue/percpu-hotplug-sum.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-limited-add',
    scenario: () => import('./catalogue/percpu-limited-add.ts'),
    lesson: () => import('./catalogue/percpu-limited-add.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-upgrade',
    scenario: () => import('./catalogue/percpu-upgrade.ts'),
    lesson: () => import('./catalogue/percpu-upgrade.json', { with: { type: 'json' } }),
  },
  {
    id: 'percpu-tree',
    scenario: () => import('./catalogue/percpu-tree.ts'),
    lesson: () => import('./catalogue/percpu-tree.json', { with: { type: 'json' } }),
  },
];
