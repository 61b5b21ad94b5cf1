// Runs Scaling sweeps with the page's CPU workers: the sweep itself (src/live/scaling/) waits on
// the main thread between readings, while the workers race; cancelling ends the wait at once.

import type { EngineKind } from '../live/engine/engine.ts';
import { visibilityProbe } from '../live/run.ts';
import { runSweep, type ScalingRunner } from '../live/scaling/measure.ts';
import { webPlatform } from './cpuBridge.ts';

/** "Chromium 156", "Firefox 140", or the user agent's first word. */
function runtime(): string {
  const ua = navigator.userAgent;
  const m = /(Firefox|Chrome|Chromium|Edg|Safari)\/(\d+)/.exec(ua);
  if (!m) return ua.split(' ')[0] ?? 'browser';
  const name = m[1] === 'Edg' ? 'Edge' : m[1] === 'Chrome' ? 'Chromium' : (m[1] ?? 'browser');
  return `${name} ${m[2] ?? ''}`.trim();
}

export function scalingRunner(cores: number): ScalingRunner {
  return {
    machine: { cores, runtime: runtime() },
    sweep(plan, hooks) {
      return runSweep(webPlatform, plan, this.machine, {
        ...hooks,
        sleep: async (ms) => {
          const end = performance.now() + ms;
          while (performance.now() < end && !hooks.cancelled?.()) {
            await new Promise((r) => setTimeout(r, Math.min(50, end - performance.now())));
          }
        },
      });
    },
    probe: (engine: EngineKind) => visibilityProbe(webPlatform, engine),
  };
}
