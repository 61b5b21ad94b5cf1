// The composition root: the stores every screen may need, created once here, each handed the
// bridge it runs through. The stores themselves know no React and no worker (src/store/); the
// hooks beside the screens (useStep.ts, useLive.ts…) only read these. Three stores are created
// with the lazy chunk of their screens instead, so the first page loads neither the lessons nor
// the editor: course progress (ui/useProgress.ts), the challenge store (ui/challenge/
// useChallenge.ts, with its own explore bridge, so a challenge's check never cancels the Explore
// panel's run) and the editor's (ui/edit/useEdit.ts).
//
// One CpuBridge owns every CPU worker of the page: Live runs, lockstep replays, Scaling sweeps.

import { createExploreStore } from '../store/exploreStore.ts';
import { createLiveStore } from '../store/liveStore.ts';
import { createScalingStore } from '../store/scalingStore.ts';
import { createStepStore } from '../store/stepStore.ts';
import { CpuBridge } from '../workers/cpuBridge.ts';
import { ExploreBridge } from '../workers/exploreBridge.ts';
import { CORES } from './cores.ts';

const cpus = new CpuBridge();

export const stepStore = createStepStore();
export const exploreStore = createExploreStore(new ExploreBridge());
export const liveStore = createLiveStore(cpus, CORES);
export const scalingStore = createScalingStore(cpus.scaling(CORES));
