// A test-only fault switch. The end-to-end tests prove that the app recovers from a CPU worker
// that throws, hangs, or is terminated mid-run; no live scenario does any of that on its own.
// A test sets `percpuLab.fault` on the page before it loads (Playwright's addInitScript);
// nothing in the app sets it, so for users it is always absent.

export interface CpuFault {
  /** Which CPU's worker misbehaves. */
  readonly cpu: number;
  /**
   * throw: its run throws; hang: it stops polling and never stops (an endless loop outside the
   * machine); terminate: the page's worker is terminated without a word, as a browser might.
   */
  readonly kind: 'throw' | 'hang' | 'terminate';
  /** How long into the run (ms). */
  readonly afterMs: number;
}

/** The fault a test asked for, for CPU `cpu`, or undefined. */
export function injectedFault(cpu: number): CpuFault | undefined {
  const f = (globalThis as { percpuLab?: { fault?: CpuFault } }).percpuLab?.fault;
  return f?.cpu === cpu ? f : undefined;
}

/** A worker's clock that misbehaves `afterMs` into the run: the CPU loop reads it at each poll. */
export function faultyClock(fault: CpuFault | undefined): { now(): number } {
  const now = () => performance.now();
  if (!fault || fault.kind === 'terminate') return { now };
  let start: number | null = null;
  return {
    now() {
      const t = now();
      start ??= t;
      if (t - start < fault.afterMs) return t;
      if (fault.kind === 'throw') throw new Error(`injected fault: CPU${String(fault.cpu)} threw`);
      for (;;) {
        // hang: spin forever, polling nothing, as a worker stuck outside the machine would.
      }
    },
  };
}
