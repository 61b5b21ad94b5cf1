// Reads the running CPUs once per animation frame (never a message per step): a copy of the
// shared memory turned into a reading, plus the last seconds of history for the rate charts.

import { useEffect, useState } from 'react';
import type { Point } from '../../charts/sparkline.ts';
import { notesSince, type Noted } from '../../live/memory.ts';
import type { LiveReading } from '../../live/readout.ts';
import { liveSpecOf } from '../../live/specs.ts';
import { type LiveRun, readRun } from '../../live/run.ts';
import type { LivePhase } from '../../store/liveStore.ts';
import { CORES } from '../cores.ts';

/** Seconds of history the charts show. */
export const WINDOW_SECONDS = 10;
/** Samples kept per series: a rate point every ~100 ms. */
const SAMPLE_MS = 100;

export interface LiveHistory {
  readonly adds: readonly Point[];
  readonly folds: readonly Point[];
  readonly bumps: readonly Point[];
  readonly retries: readonly Point[];
  readonly calls: readonly Point[];
  readonly readError: readonly Point[];
  readonly sumError: readonly Point[];
  /** Adds per second of each CPU over the last sample interval. */
  readonly perCpu: readonly number[];
  /** The latest notable events (folds, retries, IRQs, migrations), newest last. */
  readonly notes: readonly Noted[];
}

const empty: LiveHistory = {
  adds: [],
  folds: [],
  bumps: [],
  retries: [],
  calls: [],
  readError: [],
  sumError: [],
  perCpu: [],
  notes: [],
};

function keep(list: readonly Point[], p: Point): Point[] {
  const out = [...list, p];
  const from = p.t - WINDOW_SECONDS - 1;
  while (out.length && (out[0] as Point).t < from) out.shift();
  return out;
}

export function useLiveReading(
  run: LiveRun | null,
  phase: LivePhase,
): { reading: LiveReading | null; history: LiveHistory } {
  // Tagged with the run it belongs to: a new run (or none) starts from nothing.
  const [state, setState] = useState<{
    run: LiveRun | null;
    reading: LiveReading | null;
    history: LiveHistory;
  }>({ run: null, reading: null, history: empty });
  const active = run !== null && (phase === 'running' || phase === 'stopping');

  useEffect(() => {
    if (!run || !active || !liveSpecOf(run.scenario)) return;
    let frame = 0;
    let lastSample = -Infinity;
    let history = empty;
    let prev: LiveReading | null = null;
    let lastSum: LiveReading['sum'] = null;
    const heads = new Array<number>(run.mem.cpus).fill(0);
    // With reduced motion the charts move twice a second instead of at every frame. When the
    // workers leave the page no core of its own, they move 20 times a second: drawing every
    // chart at every frame would cost the page its frames (measured: bench/fps.ts).
    const cores = CORES;
    const every = matchMedia('(prefers-reduced-motion: reduce)').matches
      ? 500
      : run.mem.cpus > cores - 1
        ? 50
        : 0;
    let shownAt = -Infinity;
    const tick = () => {
      frame = requestAnimationFrame(tick);
      if (every > 0 && performance.now() - shownAt < every) return;
      shownAt = performance.now();
      const now = readRun(run).reading;
      // A summer clears its result slots when it starts a call: show the last finished sum
      // rather than nothing while the next one is in flight.
      const reading = now.sum || !lastSum ? now : { ...now, sum: lastSum };
      lastSum = reading.sum;
      const t = reading.ms / 1000;
      if (reading.ms - lastSample >= SAMPLE_MS) {
        const dt = prev ? (reading.ms - prev.ms) / 1000 : 0;
        const before = prev;
        lastSample = reading.ms;
        const fresh: Noted[] = [];
        for (let k = 0; k < run.mem.cpus; k++) {
          const got = notesSince(run.mem, k, heads[k] ?? 0);
          if (got.length) heads[k] = (got[got.length - 1] as Noted).seq + 1;
          fresh.push(...got);
        }
        fresh.sort((a, b) => a.ms - b.ms);
        // Millions of folds a second would flood the list: keep the newest of each kind per CPU.
        const latest = new Map<string, Noted>();
        for (const n of fresh) latest.set(`${String(n.cpu)}:${String(n.what)}`, n);
        history = {
          adds: keep(history.adds, { t, v: reading.total.adds }),
          folds: keep(history.folds, { t, v: reading.total.folds }),
          bumps: keep(history.bumps, { t, v: reading.total.bumps }),
          retries: keep(history.retries, { t, v: reading.retries }),
          calls: keep(history.calls, { t, v: reading.total.calls }),
          readError: reading.read ? keep(history.readError, { t, v: reading.read.error }) : [],
          sumError: reading.sum ? keep(history.sumError, { t, v: reading.sum.error }) : [],
          perCpu: reading.cpus.map((c, k) =>
            before && dt > 0
              ? Math.max(
                  0,
                  (c.adds +
                    c.calls -
                    ((before.cpus[k]?.adds ?? 0) + (before.cpus[k]?.calls ?? 0))) /
                    dt,
                )
              : 0,
          ),
          notes: [...history.notes, ...[...latest.values()].sort((a, b) => a.ms - b.ms)].slice(-8),
        };
        prev = reading;
      }
      setState({ run, reading, history });
    };
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
    };
  }, [run, active]);

  return state.run === run ? state : { reading: null, history: empty };
}
