import { describe, expect, it } from 'vitest';
import { parseLiveLink } from './liveLink.ts';
import { formatLiveLink } from './liveLinkFormat.ts';

describe('live links', () => {
  it('round-trips a run and a replay', () => {
    const link = {
      scenario: 'percpu-classic',
      cpus: 4,
      choices: { batch: '8', amounts: '1,-1' },
      settings: { irqRate: 1000, periodUs: 0 },
      engine: 'interpreted',
      replay: { schedule: '0 0 1*3', params: { batch: '4' } },
    } as const;
    expect(parseLiveLink(formatLiveLink(link))).toEqual({ ...link, program: null, problems: [] });
  });

  it('carries a typed program, and says so when its text is damaged', () => {
    const program = 'C p\nint x;\nP0() { x = 1; }\n';
    const hash = formatLiveLink({ scenario: 'program', program });
    expect(parseLiveLink(hash)?.program).toBe(program);
    const bad = parseLiveLink('#/live/program?src=%25%25');
    expect(bad?.program).toBeNull();
    expect(bad?.problems).toEqual(['the program in this link is damaged']);
  });

  it('reports bad parts and keeps the rest', () => {
    const l = parseLiveLink('#/live/global-plain?cpus=999&irq=-5&mig=10&engine=jit');
    expect(l?.cpus).toBeNull();
    expect(l?.settings).toEqual({ migrationRate: 10 });
    expect(l?.engine).toBeNull();
    expect(l?.problems).toHaveLength(3);
    expect(l?.problems[2]).toMatch(/engine must be compiled or interpreted/);
  });

  it('is not a live link otherwise', () => {
    expect(parseLiveLink('#/step/global-plain')).toBeNull();
    expect(parseLiveLink('#/live')?.scenario).toBe('');
  });
});
