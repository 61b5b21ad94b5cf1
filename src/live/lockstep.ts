// Lockstep replay (docs/machine.md): a schedule runs on the real workers one event at a time. The page
// writes the event and whose turn it is; that CPU's worker applies it to the shared state with
// the model's own `apply` (through Atomics where the model says indivisible) and hands the turn
// back. Every handoff is an Atomics store + notify, which also publishes the memory written
// before it, so each worker sees what the previous one did. At the end the page compares the
// shared state with the model's replay of the same schedule, word by word.

import { apply, eventCpu, formatEvent, whyIllegal } from '../machine/events.ts';
import type { Machine } from '../machine/machine.ts';
import { wordName } from '../machine/words.ts';
import { replay } from '../machine/replay.ts';
import {
  C_EVENT,
  C_EXITED,
  C_FAULT,
  C_TURN,
  type LiveMemory,
  TURN_END,
  TURN_NONE,
} from './memory.ts';
import type { Waiter } from './control.ts';

/** A worker's lockstep loop: apply the events addressed to CPU k until the page ends the replay. */
export function runLockstep(mem: LiveMemory, m: Machine, k: number): void {
  const w = mem.words;
  try {
    for (;;) {
      const turn = Atomics.load(w, C_TURN);
      if (turn === TURN_END) return;
      if (turn !== k) {
        Atomics.wait(w, C_TURN, turn, 100);
        continue;
      }
      apply(m, mem.state, Atomics.load(w, C_EVENT), null, mem.wide);
      Atomics.store(w, C_TURN, TURN_NONE);
      Atomics.notify(w, C_TURN);
    }
  } catch (e) {
    Atomics.compareExchange(w, C_FAULT, 0, k + 1);
    Atomics.store(w, C_TURN, TURN_NONE);
    Atomics.notify(w, C_TURN);
    throw e;
  } finally {
    Atomics.add(w, C_EXITED, 1);
    Atomics.notify(w, C_EXITED);
  }
}

/** A CPU that has not handed the turn back after this long is not coming back. */
const TURN_TIMEOUT_MS = 10_000;

export type LockstepResult =
  | { readonly kind: 'done'; readonly events: number }
  | {
      readonly kind: 'illegal';
      readonly index: number;
      readonly event: string;
      readonly reason: string;
    }
  | { readonly kind: 'fault'; readonly index: number; readonly cpu: number };

/**
 * Drives a replay from the page: each event goes to the worker of its CPU, which applies it.
 * Legality is checked on the shared state first (the workers are all waiting for their turn).
 */
export async function driveLockstep(
  mem: LiveMemory,
  m: Machine,
  events: readonly number[],
  wait: Waiter,
  /** Gives up when this says so (a worker that never loaded) or a turn takes over 10 s. */
  cancelled: () => boolean = () => false,
): Promise<LockstepResult> {
  const w = mem.words;
  try {
    for (let i = 0; i < events.length; i++) {
      const ev = events[i] as number;
      const why = whyIllegal(m, mem.state, ev);
      if (why) return { kind: 'illegal', index: i, event: formatEvent(ev), reason: why };
      Atomics.store(w, C_EVENT, ev);
      Atomics.store(w, C_TURN, eventCpu(ev));
      Atomics.notify(w, C_TURN);
      const deadline = Date.now() + TURN_TIMEOUT_MS;
      while (Atomics.load(w, C_TURN) !== TURN_NONE) {
        if (cancelled() || Date.now() > deadline) {
          return { kind: 'fault', index: i, cpu: eventCpu(ev) };
        }
        await wait(w, C_TURN, Atomics.load(w, C_TURN), 100);
      }
      const failed = Atomics.load(w, C_FAULT) - 1;
      if (failed >= 0) return { kind: 'fault', index: i, cpu: failed };
    }
    return { kind: 'done', events: events.length };
  } finally {
    Atomics.store(w, C_TURN, TURN_END);
    Atomics.notify(w, C_TURN);
  }
}

/** What a lockstep replay found: how it went and the first word that differs from the model. */
export interface LockstepReport {
  readonly result: LockstepResult;
  readonly difference: string | null;
  /** Words compared. */
  readonly words: number;
}

/** Compares the workers' final state with the model's replay of the events they applied. */
export function compareWithModel(
  m: Machine,
  events: readonly number[],
  result: LockstepResult,
  hardware: Int32Array,
): LockstepReport {
  const done = result.kind === 'done' ? events : events.slice(0, result.index);
  const { states } = replay(m, done);
  const model = states[states.length - 1] as Int32Array;
  return { result, difference: firstDifference(m, model, hardware), words: m.size };
}

/** The first word where two states of machine m differ, told for people; null when equal. */
export function firstDifference(
  m: Machine,
  model: Int32Array,
  hardware: Int32Array,
): string | null {
  for (let i = 0; i < m.size; i++) {
    if (model[i] !== hardware[i]) {
      return `${wordName(m, i)}: the model has ${String(model[i])}, the workers ${String(hardware[i])}`;
    }
  }
  return null;
}
