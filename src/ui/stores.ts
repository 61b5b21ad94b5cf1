// The composition root: the stores the first page needs, created once here. The stores themselves
// know no React and no worker (src/store/); the hooks beside the screens (useStep.ts, useLive.ts…)
// only read them. Every other store is created with the lazy chunk of its screens, so the first
// page (the catalogue or a Step link) loads none of them: Live and Scaling's (cpuStores.ts, one
// CpuBridge for both), the Explore panel's (ui/explore/useExplore.ts), course progress
// (ui/useProgress.ts), the challenge store (ui/challenge/useChallenge.ts, with its own explore
// bridge, so a challenge's check never cancels the Explore panel's run) and the editor's
// (ui/edit/useEdit.ts).

import { createStepStore } from '../store/stepStore.ts';

export const stepStore = createStepStore();
