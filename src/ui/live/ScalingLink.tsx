// The Live screen's way to the Scaling view: a live counter measured against CPUs, beside one
// shared atomic word (or, for the atomic word itself, beside percpu-classic).

import { defaultPlan, scalingScenarios } from '../../live/scaling/plan.ts';
import { formatScalingLink } from '../../store/scalingLink.ts';

/** Every live counter links to the Scaling view, measured against one shared atomic word. */
export function ScalingLink({ scenario, cores }: { scenario: string; cores: number }) {
  if (!scalingScenarios().includes(scenario)) return null;
  const others = scenario === 'global-atomic' ? ['percpu-classic'] : ['global-atomic'];
  const hash = formatScalingLink(
    { ...defaultPlan(cores), scenarios: [...others, scenario] },
    cores,
  );
  return (
    <p>
      <a href={hash}>Measure how {scenario} scales</a>: adds per second against CPUs, beside{' '}
      {others.join(', ')}, in the Scaling view.
    </p>
  );
}
