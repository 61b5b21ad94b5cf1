// The stores of the modes that run on real cores, Live and Scaling, created together on first
// use (App.tsx loads this module with the first Live or Scaling link), because one CpuBridge owns
// every CPU worker of the page: Live runs, lockstep replays, Scaling sweeps.

import { createLiveStore } from '../store/liveStore.ts';
import { createScalingStore } from '../store/scalingStore.ts';
import { CpuBridge } from '../workers/cpuBridge.ts';
import { CORES } from './cores.ts';

const cpus = new CpuBridge();

export const liveStore = createLiveStore(cpus, CORES);
export const scalingStore = createScalingStore(cpus.scaling(CORES));
