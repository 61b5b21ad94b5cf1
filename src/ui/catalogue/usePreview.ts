import { useEffect, useState } from 'react';
import { cachedPreview, previewOf, type ScenarioPreview } from '../../charts/preview.ts';
import type { Scenario } from '../../scenarios/index.ts';

// Building a scenario compiles its program, and the first builds of a page run cold: the 17
// previews take a few hundred milliseconds together. So the catalogue paints first, and the
// previews are computed afterwards, one scenario per task, in catalogue order: the page stays
// responsive, and each preview is computed once per page load (previewOf keeps it).

const queue: (() => void)[] = [];
let pumping = false;

function pump(): void {
  const job = queue.shift();
  if (!job) {
    pumping = false;
    return;
  }
  job();
  setTimeout(pump, 0);
}

/** Runs `job` in a task of its own after the ones queued before it; returns a cancel. */
function later(job: () => void): () => void {
  queue.push(job);
  if (!pumping) {
    pumping = true;
    setTimeout(pump, 0);
  }
  return () => {
    const i = queue.indexOf(job);
    if (i >= 0) queue.splice(i, 1);
  };
}

/** The scenario's preview: null until it has been computed (in a later task), then the preview. */
export function usePreview(scenario: Scenario): ScenarioPreview | null {
  const [preview, setPreview] = useState(() => cachedPreview(scenario));
  useEffect(() => {
    if (preview) return;
    // A card that leaves the page (the user opened Step mode) takes its job with it.
    return later(() => {
      setPreview(previewOf(scenario));
    });
  }, [scenario, preview]);
  return preview;
}
