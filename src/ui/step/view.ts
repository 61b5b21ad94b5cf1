// What the Step screen shows, derived from the session: plain data for the components, so the
// components stay small and this stays testable without a browser.

import {
  cpuBase,
  ctxBase,
  CPU_CUR,
  CPU_IN_IRQ,
  CPU_IN_NMI,
  CPU_IRQ_ON,
  CPU_PENDING,
  CPU_PREEMPT,
  CTX_PC,
  contextName,
  type Machine,
} from '../../machine/machine.ts';
import { Ev, makeEvent, whyIllegal } from '../../machine/events.ts';
import { dying, hotplugEvent, online } from '../../machine/hotplug.ts';
import { topContext } from '../../machine/interpreter.ts';
import type { Instr } from '../../machine/isa.ts';
import { actorName } from '../../machine/narrate.ts';
import { cellAt } from '../../machine/layout.ts';
import {
  cellValue,
  cpuSetText,
  isCpuMask,
  pairAt,
  perCpuValues,
  registerValue,
  valueText,
} from '../../machine/read.ts';
import { bufferOf } from '../../machine/tso.ts';
import { judgeRun, type RunViolation } from '../../scenarios/judge.ts';
import type { Session } from '../../store/session.ts';

export interface CpuView {
  readonly cpu: number;
  /** Bottom to top: the task, then handlers. */
  readonly stack: readonly string[];
  readonly preemptCount: number;
  readonly irqsOn: boolean;
  readonly pending: boolean;
  /** Listing line the top context runs next (0: none). */
  readonly nextLine: number;
  readonly idle: boolean;
  /** The top context's named registers (loop counters left out), e.g. "count = 32". */
  readonly registers: readonly string[];
  /** Under memory tso: the CPU's store buffer, oldest first; null on an sc machine. */
  readonly buffer: readonly BufferedView[] | null;
  /**
   * CPU hotplug (a program with DEADk() callbacks): online (in cpu_online_mask), dying (out of
   * it, in cpu_dying_mask: its dead callbacks have not returned) or offline; null without hotplug.
   */
  readonly hotplug: 'online' | 'dying' | 'offline' | null;
}

/** A store waiting in a CPU's buffer: the cell it will write and the value. */
export interface BufferedView {
  /** "read_count[0]", "block". */
  readonly cell: string;
  readonly value: string;
  /** What memory holds there now (what other CPUs read). */
  readonly memory: string;
}

/** CPU k's store buffer as the lane shows it, oldest first (empty on an sc machine). */
export function bufferViews(m: Machine, s: Int32Array, k: number): BufferedView[] {
  return bufferOf(m, s, k).map((e) => {
    const at = cellAt(m.layout, e.addr);
    const base = at ? (at.cpu >= 0 ? `${at.cell.label}[${at.cpu}]` : at.cell.label) : '';
    // A torn 32-bit-machine store writes one half of a 64-bit cell.
    const half =
      at && at.half !== '' && e.words === 1 ? ` (${at.half === 'lo' ? 'low' : 'high'} half)` : '';
    const name = at ? `${base}${half}` : `word ${e.addr}`;
    const mem = e.words === 2 ? String(pairAt(s, e.addr)) : String(s[e.addr]);
    return { cell: name, value: String(e.value), memory: mem };
  });
}

function nextLineOf(m: Machine, s: Int32Array, ctx: number): number {
  if (ctx < 0) return 0;
  const code = m.code[ctx] as readonly Instr[];
  const pc = s[ctxBase(m, ctx) + CTX_PC] as number;
  return pc < code.length ? (code[pc] as Instr).line : 0;
}

export function cpuViews(m: Machine, s: Int32Array): CpuView[] {
  const out: CpuView[] = [];
  for (let k = 0; k < m.cpus; k++) {
    const b = cpuBase(m, k);
    const cur = s[b + CPU_CUR] as number;
    const stack: string[] = [];
    if (cur >= 0) stack.push(`task ${contextName(m, cur)}`);
    if (s[b + CPU_IN_IRQ] !== 0) stack.push('IRQ handler');
    if (s[b + CPU_IN_NMI] !== 0) stack.push('NMI handler');
    const top = topContext(m, s, k);
    const registers: string[] = [];
    if (top >= 0) {
      const names = m.programs[top]?.regNames ?? [];
      names.forEach((name, r) => {
        // Loop counters and the compiler's own scratch registers (%t, %loop…) are not the
        // program's variables.
        if (/^i\d+$/.test(name) || name === 'zero' || name.startsWith('%')) return;
        registers.push(`${name} = ${valueText(m, registerValue(m, s, top, r))}`);
      });
    }
    out.push({
      cpu: k,
      registers,
      stack,
      preemptCount: s[b + CPU_PREEMPT] as number,
      irqsOn: s[b + CPU_IRQ_ON] !== 0,
      pending: s[b + CPU_PENDING] !== 0,
      nextLine: nextLineOf(m, s, top),
      idle: top < 0,
      buffer: m.tso ? bufferViews(m, s, k) : null,
      hotplug:
        m.hotplug === null
          ? null
          : online(m, s, k)
            ? 'online'
            : dying(m, s, k)
              ? 'dying'
              : 'offline',
    });
  }
  return out;
}

export interface CellView {
  readonly name: string;
  readonly label: string;
  readonly value: string;
}

/** Global cells (and lock owners) as text. */
export function globalCells(m: Machine, s: Int32Array): CellView[] {
  const out: CellView[] = [];
  for (const cell of m.layout.cells) {
    if (cell.perCpu) continue;
    let value: string;
    if (cell.type === 'lock') {
      const owner = (s[cell.addr] as number) - 1;
      value = owner < 0 ? 'free' : `held by ${actorName(m, s, owner)}`;
    } else if (cell.type === 's64') {
      const lo = s[cell.addr] as number;
      const hi = s[cell.addr + 1] as number;
      value = String(cellValue(s, cell));
      if (m.spec.wordBits === 32) {
        // On a 32-bit CPU the narration tells torn accesses in halves: show them too.
        const hex = (w: number) => `0x${(w >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
        out.push({ name: cell.name, label: cell.label, value });
        out.push({
          name: `${cell.name}-halves`,
          label: `${cell.label} (high:low)`,
          value: `${hex(hi)}:${hex(lo)}`,
        });
        continue;
      }
    } else {
      value = isCpuMask(m, cell.addr)
        ? cpuSetText(s[cell.addr] as number)
        : valueText(m, s[cell.addr] as number);
      // A sequence's low bit means "a sum is in flight": say so, not only the number.
      if (m.layout.counter?.sequences.some((q) => q.cell === cell.name && q.kind === 'inflight')) {
        value += (s[cell.addr] as number) & 1 ? ' (odd: sum in flight)' : ' (even)';
      }
    }
    out.push({ name: cell.name, label: cell.label, value });
  }
  return out;
}

export interface PerCpuView {
  readonly name: string;
  readonly label: string;
  readonly values: readonly number[];
  readonly isLock: boolean;
}

export function perCpuCells(m: Machine, s: Int32Array): PerCpuView[] {
  const out: PerCpuView[] = [];
  for (const cell of m.layout.cells) {
    if (!cell.perCpu) continue;
    const values = perCpuValues(s, cell).map(Number);
    out.push({ name: cell.name, label: cell.label, values, isLock: cell.type === 'lock' });
  }
  return out;
}

export interface ControlView {
  readonly ev: number;
  /** '' when legal, else why not. */
  readonly why: string;
}

export interface CpuControls {
  readonly step: ControlView;
  readonly irq: ControlView | null;
  readonly nmi: ControlView | null;
  readonly preempt: ControlView;
  readonly migrate: readonly ControlView[];
  /** Under memory tso: write the oldest buffered store to memory; null on an sc machine. */
  readonly flush: ControlView | null;
  /** Take the CPU offline, or (once it is) back online; null for a CPU without DEADk(). */
  readonly hotplug: ControlView | null;
}

export function controlsOf(m: Machine, s: Int32Array): CpuControls[] {
  const out: CpuControls[] = [];
  const view = (ev: number): ControlView => ({ ev, why: whyIllegal(m, s, ev) });
  for (let k = 0; k < m.cpus; k++) {
    const migrate: ControlView[] = [];
    for (let j = 0; j < m.cpus; j++) if (j !== k) migrate.push(view(makeEvent(Ev.Migrate, k, j)));
    const hotplug = hotplugEvent(m, s, k);
    out.push({
      step: view(makeEvent(Ev.Step, k)),
      irq: m.irqCtx[k] === -1 ? null : view(makeEvent(Ev.Irq, k)),
      nmi: m.nmiCtx[k] === -1 ? null : view(makeEvent(Ev.Nmi, k)),
      preempt: view(makeEvent(Ev.Preempt, k)),
      migrate,
      flush: m.tso ? view(makeEvent(Ev.Flush, k)) : null,
      hotplug: hotplug === null ? null : view(hotplug),
    });
  }
  return out;
}

export interface InvariantView {
  readonly id: string;
  readonly description: string;
  readonly status: 'holds' | 'violated' | 'pending';
  readonly reason: string;
}

/** A violation's reason, led for an always-invariant by the step it broke at. */
function brokenReason(v: RunViolation, cursor: number, brokenNow: boolean): string {
  if (v.step === undefined) return v.reason;
  const at = v.step === cursor || !brokenNow ? '' : `, still broken at step ${cursor}`;
  const again = v.step !== cursor && !brokenNow ? ` (holds again at step ${cursor})` : '';
  return `broken at step ${v.step}${again}${at}${v.reason === '' ? '' : `: ${v.reason}`}`;
}

/** Verdicts at the cursor: always-invariants over every state so far, final ones at the end. */
export function invariantViews(session: Session): InvariantView[] {
  const { scenario: sc, instance, params } = session;
  const states = session.states.slice(0, session.cursor + 1);
  const j = judgeRun(sc, instance.machine, states, params);
  const broken = new Map<string, RunViolation>();
  for (const v of j.violations) if (!broken.has(v.id)) broken.set(v.id, v);
  // An always-invariant stays broken once it broke, but its reason quotes the state it broke in,
  // which the stage may have left (a carry that lands later): the badge names that step, and
  // whether the state on the stage breaks it too.
  const now = new Set(
    judgeRun(sc, instance.machine, states.slice(-1), params).violations.map((v) => v.id),
  );
  return sc.invariants.map((inv) => {
    const v = broken.get(inv.id);
    if (v)
      return {
        id: inv.id,
        description: inv.description,
        status: 'violated',
        reason: brokenReason(v, session.cursor, now.has(inv.id)),
      };
    if (inv.when === 'final' && !j.terminal) {
      return {
        id: inv.id,
        description: inv.description,
        status: 'pending',
        reason: 'judged when every CPU has finished',
      };
    }
    return { id: inv.id, description: inv.description, status: 'holds', reason: '' };
  });
}
