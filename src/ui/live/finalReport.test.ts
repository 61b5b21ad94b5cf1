// The verdict at rest as the Live page writes it, rendered to markup in Node (what it says; how
// the page reaches it is e2e/live.spec.ts's).

import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CpuReading, LiveReading } from '../../live/readout.ts';
import type { FinalReport as Report } from '../../store/liveStore.ts';
import { FinalReport } from './FinalReport.tsx';

const cpu = (adds: number, steps: number): CpuReading => ({
  steps,
  adds,
  calls: 0,
  folds: 0,
  bumps: 0,
  spins: 0,
  migrations: 0,
  irqs: 0,
  nmis: 0,
});

/** global-plain's two CPUs after a second in `tier`, with `lost` updates lost. */
function report(tier: LiveReading['tier'], lost: number, reason: string | null): Report {
  const cpus = [cpu(21_000_000, tier === 'bare' ? 0 : 84_000_000), cpu(21_729_630, 0)];
  const added = 42_729_630;
  return {
    reading: {
      ms: 1000,
      engine: 'compiled',
      tier,
      cpus,
      total: cpu(added, cpus[0]?.steps ?? 0),
      retries: 0,
      maxRetriesPerCall: 0,
      badSums: 0,
      slots: null,
      batch: null,
      observables: {},
      exact: added,
      value: added - lost,
      added,
      lost,
      read: null,
      sum: null,
      hotplugs: null,
      offline: [],
    },
    violations: reason === null ? [] : [{ id: 'no-lost-update', reason }],
    terminal: true,
    seconds: 1,
  };
}

const render = (r: Report) =>
  renderToStaticMarkup(
    createElement(FinalReport, { report: r, scenario: 'global-plain', locks: false }),
  );

/** The cells of the Per CPU table's rows, as text. */
function perCpuRows(html: string): string[][] {
  const body = /<caption>Per CPU<\/caption>.*?<tbody>(.*?)<\/tbody>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => c[1] ?? ''),
  );
}

describe('the verdict at rest', () => {
  it('writes a broken invariant’s numbers grouped, as the totals beside it', () => {
    const html = render(
      report(
        'bare',
        7_150_333,
        'nr_files = 35579297, but the exact total is 42729630: 7150333 lost',
      ),
    );
    expect(html).toContain(
      'nr_files = 35,579,297, but the exact total is 42,729,630: 7,150,333 lost',
    );
    expect(html).toContain('7,150,333 updates lost out of 42,729,630 added');
  });

  it('says the bare tier did not count instructions, rather than a rate of 0', () => {
    expect(perCpuRows(render(report('bare', 0, null))).map((r) => r.at(-1))).toEqual([
      'not counted (bare tier)',
      'not counted (bare tier)',
    ]);
    expect(perCpuRows(render(report('exact', 0, null))).map((r) => r.at(-1))).toEqual([
      '84.00 M',
      '0',
    ]);
  });
});
