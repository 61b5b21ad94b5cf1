import { describe, expect, it } from 'vitest';
import { defaultPlan } from '../live/scaling/plan.ts';
import { formatScalingLink, parseScalingLink } from './scalingLink.ts';

describe('Scaling links', () => {
  it('round-trip a plan, a periodic summer included, and say nothing of the defaults', () => {
    const plan = {
      ...defaultPlan(4),
      scenarios: ['global-atomic', 'percpu-seq'],
      cpus: [1, 2, 4],
      layouts: ['padded', 'packed'] as const,
      summers: ['none', 1000, 'busy'] as const,
      engines: ['compiled', 'interpreted'] as const,
      repeat: 5,
    };
    const hash = formatScalingLink(plan, 4);
    expect(hash).toBe(
      '#/scaling?scenarios=global-atomic%2Cpercpu-seq&cpus=1%2C2%2C4&layout=both&summer=none%2C1000%2Cbusy&repeat=5&engine=both',
    );
    expect(parseScalingLink(hash, 4)).toEqual({ plan, problems: [] });
    expect(formatScalingLink(defaultPlan(4), 4)).toBe('#/scaling');
  });

  it('leaves out a bad part, says why, and keeps the rest', () => {
    const link = parseScalingLink('#/scaling?cpus=2&summer=soon&repeat=99', 2);
    expect(link?.plan.cpus).toEqual([2]);
    expect(link?.plan.repeat).toBe(3);
    expect(link?.problems).toEqual([
      "summer takes none, busy or a period in µs, not 'soon'",
      'repeat: repeat each run 1 to 20 times',
    ]);
    expect(parseScalingLink('#/live/x', 2)).toBeNull();
  });
});
