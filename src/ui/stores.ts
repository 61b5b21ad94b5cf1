// The composition root of Step mode's store, created once here. The stores themselves know no
// React and no worker (src/store/); the hooks beside the screens (useStep.ts, useLive.ts…) only
// read them. Each store is created with the chunk of the screens that use it, so a page loads
// only the stores of the screen it opens on (App.tsx loads a store before handing it a link):
// Step mode's here; Live and Scaling's in cpuStores.ts (one CpuBridge for both); the Explore
// panel's in ui/explore/useExplore.ts; course progress in ui/useProgress.ts; the challenge store
// in ui/challenge/useChallenge.ts (with its own explore bridge, so a challenge's check never
// cancels the Explore panel's run); the editor's in ui/edit/useEdit.ts.

import { createStepStore } from '../store/stepStore.ts';

export { linkedEntryLoaded } from '../store/stepStore.ts';

export const stepStore = createStepStore();
