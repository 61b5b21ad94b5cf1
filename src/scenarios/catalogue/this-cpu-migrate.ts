// this-cpu-migrate: memcg's soft-limit check, rewritten with this_cpu operations in Nov 2009
// (reference §6e). v1 read the per-CPU event count with __this_cpu_read() and reset it with
// __this_cpu_write() while preemptible: a migration between the two resets another CPU's slot.
// Christoph Lameter's fix keeps preemption off around the pair; v2's this_cpu_read() +
// this_cpu_write() makes each operation preempt-safe but not the pair; one this_cpu_cmpxchg()
// makes the read-decide-reset a single operation.

import { MEMCG_2009_GROUP } from '../groups.ts';
import { ProgramBuilder, thisCpu } from '../../machine/builder.ts';
import { Cond } from '../../machine/isa.ts';
import { LayoutBuilder } from '../../machine/layout.ts';
import { compile } from '../../machine/machine.ts';
import {
  initialSlots,
  KeyedListing,
  KH_2009,
  migrationCpusParam,
  slotObservables,
} from '../local-ops.ts';
import { readResults } from '../observe.ts';
import { plus } from '../../machine/int64.ts';
import { intParam, intSpec } from '../params.ts';
import { defineScenario, type VariantOf, variants } from '../define.ts';
import type { BuildOptions, Observables, Params } from '../types.ts';

const VARIANT = variants(
  ['raw', 'preempt-off', 'this-cpu-pair', 'cmpxchg'],
  'raw',
  "raw: v1 (__this_cpu_read/__this_cpu_write, preemptible); preempt-off: Christoph Lameter's fix; this-cpu-pair: v2 (this_cpu_read + this_cpu_write); cmpxchg: one this_cpu_cmpxchg",
);
type Variant = VariantOf<typeof VARIANT>;

function listingOf(variant: Variant, threshold: number): KeyedListing {
  const head = [
    'struct mem_cgroup_stat_cpu { s64 count[MEMCG_STAT_NSTATS]; };   /* one per CPU */',
    `#define SOFTLIMIT_EVENTS_THRESH ${threshold}`,
    "/* events: this CPU's mem->cpustat->count[MEMCG_EVENTS] */",
    '',
    '/* task T, preemptible, starts on CPU0 */',
    'static bool mem_cgroup_soft_limit_check(struct mem_cgroup *mem)',
    '{',
  ] as const;
  const tail = ['}'];
  switch (variant) {
    case 'raw':
      return new KeyedListing([
        ...head,
        '\ts64 val;',
        '',
        '\t/* v1, 6 Nov 2009: get_cpu()/put_cpu() are gone, nothing replaces them */',
        ['read', '\tval = __this_cpu_read(events);         /* the CPU T is on now */'],
        ['test', '\tif (val > SOFTLIMIT_EVENTS_THRESH) {'],
        ['write', '\t\t__this_cpu_write(events, 0);        /* the CPU T is on NOW */'],
        ['true', '\t\treturn true;'],
        '\t}',
        ['false', '\treturn false;'],
        ...tail,
      ]);
    case 'preempt-off':
      return new KeyedListing([
        ...head,
        '\tbool ret = false;',
        '\ts64 val;',
        '',
        '\t/* Christoph Lameter: "You need to keep preempt_disable/enable here" */',
        ['off', '\tpreempt_disable();'],
        ['read', '\tval = __this_cpu_read(events);'],
        ['test', '\tif (val > SOFTLIMIT_EVENTS_THRESH) {'],
        ['write', '\t\t__this_cpu_write(events, 0);        /* same CPU: T cannot move */'],
        '\t\tret = true;',
        '\t}',
        ['on', '\tpreempt_enable();'],
        ['ret', '\treturn ret;'],
        ...tail,
      ]);
    case 'this-cpu-pair':
      return new KeyedListing([
        ...head,
        '\ts64 val;',
        '',
        '\t/* v2, 9 Nov 2009: each op protects itself (generic fallback shown) */',
        ['read', '\tval = this_cpu_read(events);'],
        ['read-off', '\t\t/* = preempt_disable(); */'],
        ['read-ld', '\t\t/*   v = *this_cpu_ptr(&events); */'],
        ['read-on', '\t\t/*   preempt_enable(); */'],
        ['test', '\tif (val > SOFTLIMIT_EVENTS_THRESH) {     /* T can move here */'],
        ['write', '\t\tthis_cpu_write(events, 0);'],
        ['write-off', '\t\t\t/* = preempt_disable(); */'],
        ['write-st', '\t\t\t/*   *this_cpu_ptr(&events) = 0; */'],
        ['write-on', '\t\t\t/*   preempt_enable(); */'],
        ['true', '\t\treturn true;'],
        '\t}',
        ['false', '\treturn false;'],
        ...tail,
      ]);
    case 'cmpxchg':
      return new KeyedListing([
        ...head,
        '\ts64 val, prev;',
        '',
        '\t/* one operation reads, compares and resets the same slot */',
        ['read', '\tval = this_cpu_read(events);'],
        ['test', '\twhile (val > SOFTLIMIT_EVENTS_THRESH) {'],
        [
          'cmpxchg',
          '\t\tprev = this_cpu_cmpxchg(events, val, 0);   /* x86: one cmpxchg %gs:, no LOCK */',
        ],
        ['ok', '\t\tif (prev == val)'],
        ['true', '\t\t\treturn true;     /* reset exactly the events it checked */'],
        ['retry', '\t\tval = prev;           /* T moved, or the slot changed: look again */'],
        '\t}',
        ['false', '\treturn false;'],
        ...tail,
      ]);
  }
}

const NOTES: Record<Variant, string[]> = {
  raw: [
    '__this_cpu_read/__this_cpu_write do no preemption checks of their own (in 2009 nothing warned; later kernels with CONFIG_DEBUG_PREEMPT catch this at the read).',
    'Each is one %gs:-relative instruction on x86, so the slot is that of the CPU the task is on at that step.',
  ],
  'preempt-off': [
    'Christoph Lameter\'s review of v1 (6 Nov 2009): "If you want to use the __this_cpu_xx versions then you need to manage preempt on your own."',
    'A migration can still happen before preempt_disable(): the check then simply runs on the new CPU, against its own slot.',
  ],
  'this-cpu-pair': [
    'The 2009 generic fallback of this_cpu_read/this_cpu_write wraps each access in preempt_disable()/preempt_enable(); on x86 each is one %gs: instruction. Either way each operation is preempt-safe and the pair is not.',
    'v2\'s changelog says "fixed misusage of __this_cpu_xxx", yet the soft-limit check still reads and resets with two separate operations (reference §6e).',
  ],
  cmpxchg: [
    'this_cpu_cmpxchg() did not exist yet in Nov 2009 (v2.6.39 has it): it is the single-operation fix the reference names, not what memcg did then.',
    'Why cmpxchg rather than this_cpu_xchg(events, 0): the check resets only above the threshold. An xchg would zero the slot every time and have to put a below-threshold count back, a second operation that can land on another CPU after a migration.',
    "A failed cmpxchg returns the slot's current value, so the loop decides again on the CPU it is on now (like this_cpu_try_cmpxchg).",
  ],
};

const variantOf = VARIANT.of;

function build(p: Params, opts?: BuildOptions) {
  const variant = variantOf(p);
  const threshold = intParam(p, 'threshold');
  const cpus = intParam(p, 'cpus');
  const L = new LayoutBuilder(cpus, opts);
  const events = L.perCpu('events', 'events', 's64', initialSlots(p));
  const valSlot = L.result('val', 'val', 1);
  const retSlot = L.result('ret', 'mem_cgroup_soft_limit_check()', 1);
  const lst = listingOf(variant, threshold);
  const b = new ProgramBuilder('T');
  const val = b.reg('val');
  const zero = b.reg('zero');
  const ret = b.reg('ret');
  const read = (line: number) =>
    b.line(line).load(val, thisCpu(events), { say: '{who} reads {cell}: val = {v}' });
  const reset = (line: number) =>
    b.line(line).store(thisCpu(events), zero, {
      say: '{who} resets {cell}: {old} → {new}',
    });
  const returns = (line: number, fired: boolean) => {
    b.line(line).mov(ret, fired ? 1 : 0);
    b.record(valSlot, val, { say: `the check ${fired ? 'fired on' : 'saw'} val = {v}` });
    b.record(retSlot, ret, {
      say: `mem_cgroup_soft_limit_check() returns ${fired ? 'true' : 'false'}`,
    });
  };

  switch (variant) {
    case 'raw':
      read(lst.at('read'));
      b.line(lst.at('test')).ifThen(
        Cond.Gt,
        val,
        threshold,
        () => {
          reset(lst.at('write'));
          returns(lst.at('true'), true);
        },
        () => {
          returns(lst.at('false'), false);
        },
      );
      break;
    case 'preempt-off': {
      b.line(lst.at('off')).preemptDisable();
      read(lst.at('read'));
      const fired = b.label();
      const done = b.label();
      b.line(lst.at('test')).branch(Cond.Gt, val, threshold, fired);
      b.line(lst.at('on')).preemptEnable();
      returns(lst.at('ret'), false);
      b.jump(done);
      b.bind(fired);
      reset(lst.at('write'));
      b.line(lst.at('on')).preemptEnable();
      returns(lst.at('ret'), true);
      b.bind(done);
      break;
    }
    case 'this-cpu-pair':
      b.line(lst.at('read-off')).preemptDisable();
      read(lst.at('read-ld'));
      b.line(lst.at('read-on')).preemptEnable();
      b.line(lst.at('test')).ifThen(
        Cond.Gt,
        val,
        threshold,
        () => {
          b.line(lst.at('write-off')).preemptDisable();
          reset(lst.at('write-st'));
          b.line(lst.at('write-on')).preemptEnable();
          returns(lst.at('true'), true);
        },
        () => {
          returns(lst.at('false'), false);
        },
      );
      break;
    case 'cmpxchg': {
      const prev = b.reg('prev');
      const top = b.label();
      const notFired = b.label();
      const end = b.label();
      read(lst.at('read'));
      b.bind(top);
      b.line(lst.at('test')).branch(Cond.Le, val, threshold, notFired);
      b.line(lst.at('cmpxchg')).cmpxchgLocal(prev, thisCpu(events), val, zero);
      const ok = b.label();
      b.line(lst.at('ok')).branch(Cond.Eq, prev, val, ok);
      b.line(lst.at('retry')).mov(val, prev).jump(top, {
        say: 'the slot does not hold val: the cmpxchg fails and returns what it found; val = prev, decide again',
      });
      b.bind(ok);
      returns(lst.at('true'), true);
      b.jump(end);
      b.bind(notFired);
      returns(lst.at('false'), false);
      b.bind(end);
      break;
    }
  }
  const machine = compile({
    cpus,
    wordBits: 64,
    layout: L.build(),
    tasks: [{ name: 'T', cpu: 0, program: b.build() }],
  });
  return {
    params: p,
    machine,
    listing: {
      lines: lst.lines,
      notes: [
        ...NOTES[variant],
        "CPU1 runs nothing else: a migrated T runs there at once, and nobody else writes any slot, so every change to a slot is T's.",
        'The check "consumes" the events it saw when it fires: reset-own-slot asks that the events discarded are exactly val.',
      ],
    },
  };
}

/** Events the resets threw away: Σ initial slots − Σ final slots. */
function discarded(o: Observables, p: Params): number | bigint {
  const cpus = intParam(p, 'cpus');
  const init = initialSlots(p);
  let d: number | bigint = 0;
  for (let k = 0; k < cpus; k++) {
    d = plus(d, plus(init[k] ?? 0, -Number(o[`slot${k}`])));
  }
  return d;
}

export const thisCpuMigrate = defineScenario({
  id: 'this-cpu-migrate',
  title: 'this_cpu read, migrate, this_cpu write: memcg soft-limit check (2009)',
  group: MEMCG_2009_GROUP,
  source: KH_2009,
  summary:
    "A preemptible __this_cpu_read() then __this_cpu_write(…, 0): a migration in between resets another CPU's events.",
  reconstruction: false,
  params: [
    VARIANT.param,
    {
      name: 'slots',
      kind: 'list',
      default: [1001, 640],
      min: -1_000_000_000,
      max: 1_000_000_000,
      maxLength: 8,
      description: "Each CPU's MEMCG_EVENTS count at the start, CPU0 first (missing ones are 0)",
    },
    intSpec(
      'threshold',
      1000,
      [0, 1_000_000_000],
      'SOFTLIMIT_EVENTS_THRESH: the check fires when the count is above it',
    ),
    migrationCpusParam,
  ],
  build,
  observables: (p) => [
    ...slotObservables(intParam(p, 'cpus'), 'events', 'MEMCG_EVENTS count'),
    {
      name: 'val',
      description: 'The count the check decided on (null until it returns)',
      read: (m, s) => readResults(m, s, 'val')[0] ?? null,
    },
    {
      name: 'fired',
      description:
        'Whether the check fired and reset a slot: 1 (true) or 0 (null until it returns)',
      read: (m, s) => readResults(m, s, 'ret')[0] ?? null,
    },
  ],
  invariants: [
    {
      id: 'reset-own-slot',
      when: 'final',
      description:
        'The reset discards exactly the events the check read (val if it fired, nothing otherwise): it hits the slot it read',
      final: (o, p) => {
        const fired = Number(o.fired) === 1;
        const gone = discarded(o, p);
        const expected = fired ? (o.val as number | bigint) : 0;
        if (String(gone) === String(expected)) return null;
        const init = initialSlots(p);
        const changed: string[] = [];
        const kept: string[] = [];
        init.forEach((v, k) => {
          const now = o[`slot${k}`];
          if (String(now) !== String(v)) changed.push(`CPU${k}'s slot ${v} → ${String(now)}`);
          else if (fired && String(v) === String(o.val))
            kept.push(`CPU${k}'s ${v} are still there`);
        });
        return `the check ${fired ? 'fired on' : 'read'} val = ${String(o.val)} but ${String(gone)} events were discarded (${changed.join(', ')})${kept.length ? `; ${kept.join(', ')}` : ''}`;
      },
    },
  ],
  bounds: { migrations: 1 },
  guarantees: VARIANT.guarantees({
    raw: [],
    'preempt-off': ['reset-own-slot'],
    'this-cpu-pair': [],
    cmpxchg: ['reset-own-slot'],
  }),
  witnesses: [
    VARIANT.witness('raw', {
      name: 'migrate-between',
      description:
        "Reference §6e: T reads CPU0's 1001 (> 1000), is migrated to CPU1, and zeroes CPU1's slot: CPU1 loses 640 events and CPU0's 1001 are never reset.",
      schedule: '0 mig0>1 1',
      expect: { slot0: 1001, slot1: 0, val: 1001, fired: 1 },
      violates: ['reset-own-slot'],
    }),
    VARIANT.witness('raw', {
      name: 'no-migration',
      description: "v1 without a migration: T reads and resets CPU0's slot, as intended.",
      schedule: '0 0',
      expect: { slot0: 0, slot1: 640, val: 1001, fired: 1 },
    }),
    VARIANT.witness('preempt-off', {
      name: 'preempt-off',
      description:
        "Christoph Lameter's fix: with preemption off nothing can move T between read and reset, so it resets the slot it read.",
      schedule: '0*4',
      expect: { slot0: 0, slot1: 640, val: 1001, fired: 1 },
    }),
    VARIANT.witness('preempt-off', {
      name: 'migrate-before-preempt-off',
      description:
        "The fix cannot stop a migration before preempt_disable(): T then checks CPU1's own 640 and correctly does not fire.",
      schedule: 'mig0>1 1*3',
      expect: { slot0: 1001, slot1: 640, val: 640, fired: 0 },
    }),
    VARIANT.witness('this-cpu-pair', {
      name: 'pair-migrates',
      description:
        "v2 (reference §6e): this_cpu_read() is preempt-safe and so is this_cpu_write(), but T migrates between them: CPU1's slot becomes 0, exactly as in v1.",
      schedule: '0*3 mig0>1 1*3',
      expect: { slot0: 1001, slot1: 0, val: 1001, fired: 1 },
      violates: ['reset-own-slot'],
    }),
    VARIANT.witness('cmpxchg', {
      name: 'cmpxchg-after-migration',
      description:
        "One this_cpu_cmpxchg(events, 1001, 0) after the migration finds 640 on CPU1 and fails; T decides again on 640 and does not fire. Nothing is lost; CPU0's check will fire next time it runs there.",
      schedule: '0 mig0>1 1',
      expect: { slot0: 1001, slot1: 640, val: 640, fired: 0 },
    }),
    VARIANT.witness('cmpxchg', {
      name: 'cmpxchg-fires',
      description:
        'Without a migration the cmpxchg finds 1001 and resets it in the same instruction.',
      schedule: '0*3',
      expect: { slot0: 0, slot1: 640, val: 1001, fired: 1 },
    }),
  ],
  lesson: {
    summary:
      'this_cpu operations address "the CPU I am on now". Two of them in a row may run on two different CPUs if the task can be preempted and migrated in between: v1 read CPU0\'s count and zeroed CPU1\'s. Making each operation preempt-safe (v2) does not help; the pair must be one critical section (preempt_disable around both) or one operation (this_cpu_cmpxchg).',
    question:
      "T reads CPU0's event count, 1001 (> 1000). Before it writes 0, it is migrated to CPU1, whose count is 640. What do the two slots hold afterwards?",
    answer:
      'CPU0 still 1001 (never reset, so the check fires again on CPU0 later) and CPU1 0: the 640 events counted on CPU1 are lost.',
  },
});
