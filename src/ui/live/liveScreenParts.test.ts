// The Live screen's parts in their own files, rendered to markup in Node (no DOM: what they show,
// not how they respond; the screen's behaviour is e2e/live.spec.ts's).

import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Note } from '../../live/memory.ts';
import { resolveParams } from '../../scenarios/params.ts';
import { scenarioNamed } from '../../scenarios/index.ts';
import { RaiseControls } from './RaiseControls.tsx';
import { RecentEvents } from './RecentEvents.tsx';
import { ScalingLink } from './ScalingLink.tsx';
import { ScenarioIntro } from './ScenarioIntro.tsx';

const machineOf = (id: string) => {
  const sc = scenarioNamed(id);
  return sc.build(resolveParams(sc, {})).machine;
};

/** The labels of the buttons RaiseControls offers for CPU 0 of this machine. */
function raises(machine: ReturnType<typeof machineOf>): string[] {
  const html = renderToStaticMarkup(
    createElement(RaiseControls, { machine, actions: { raiseRequested: () => undefined } }),
  );
  return [...html.matchAll(/<button type="button">([^<]*)<\/button>/g)].map((m) => m[1] ?? '');
}

describe('RaiseControls', () => {
  it('lists every CPU and offers what the first one can take', () => {
    const html = renderToStaticMarkup(
      createElement(RaiseControls, {
        machine: machineOf('percpu-modern'),
        actions: { raiseRequested: () => undefined },
      }),
    );
    const id = /<label for="([^"]+)">On CPU<\/label>/.exec(html)?.[1] ?? '';
    expect(html).toBe(
      `<span class="raise"><label for="${id}">On CPU</label><select id="${id}"><option value="0" selected="">0</option><option value="1">1</option></select><button type="button">Raise IRQ</button><button type="button">Migrate its task</button></span>`,
    );
  });

  it('offers an IRQ only where there is a handler, an NMI likewise, and no migration on one CPU', () => {
    expect(raises(machineOf('global-plain'))).toEqual(['Migrate its task']);
    expect(raises(machineOf('irq-local-rmw'))).toEqual(['Raise IRQ']);
    const m = machineOf('percpu-modern');
    expect(raises({ ...m, nmiCtx: Int32Array.of(3, -1) })).toEqual([
      'Raise IRQ',
      'Raise NMI',
      'Migrate its task',
    ]);
  });
});

describe('RecentEvents', () => {
  it('tells each note in words, with its time and CPU', () => {
    const notes = [
      { cpu: 1, what: Note.Fold, ctx: 0, ms: 125, seq: 7 },
      { cpu: 0, what: Note.Irq, ctx: 0, ms: 2000, seq: 3 },
      { cpu: 0, what: 99, ctx: 0, ms: 3001, seq: 4 },
    ];
    expect(
      renderToStaticMarkup(createElement(RecentEvents, { notes, scenario: 'percpu-classic' })),
    ).toBe(
      '<section class="recent" aria-label="Recent events in percpu-classic"><h3>Recent events</h3><ol>' +
        '<li>0.125 s: CPU1 folds its delta into the global count</li>' +
        '<li>2.000 s: CPU0 takes an IRQ</li>' +
        '<li>3.001 s: CPU0 does something</li></ol></section>',
    );
  });

  it('shows nothing before the first note', () => {
    expect(renderToStaticMarkup(createElement(RecentEvents, { notes: [], scenario: 'x' }))).toBe(
      '',
    );
  });
});

describe('ScenarioIntro', () => {
  it('gives the summary, the reconstruction badge and the lesson, folded', () => {
    const sc = scenarioNamed('percpu-seq');
    expect(sc.reconstruction).toBe(true);
    const esc = (t: string) => renderToStaticMarkup(createElement('p', null, t)).slice(3, -4);
    expect(renderToStaticMarkup(createElement(ScenarioIntro, { scenario: sc }))).toBe(
      `<p class="summary">${esc(sc.summary)} <span class="badge">reconstruction</span></p>` +
        `<details class="lesson"><summary>Lesson</summary><p>${esc(sc.lesson.summary)}</p></details>`,
    );
  });

  it('leaves out the badge for kernel code, and a lesson that only repeats the summary', () => {
    const sc = scenarioNamed('global-plain');
    const html = renderToStaticMarkup(
      createElement(ScenarioIntro, {
        scenario: { ...sc, lesson: { ...sc.lesson, summary: sc.summary } },
      }),
    );
    expect(html).not.toContain('badge');
    expect(html).not.toContain('<details');
  });
});

describe('ScalingLink', () => {
  it('links a live counter to the Scaling view beside the atomic word', () => {
    expect(
      renderToStaticMarkup(createElement(ScalingLink, { scenario: 'percpu-classic', cores: 4 })),
    ).toBe(
      '<p><a href="#/scaling?scenarios=global-atomic%2Cpercpu-classic">Measure how percpu-classic scales</a>: adds per second against CPUs, beside global-atomic, in the Scaling view.</p>',
    );
  });

  it('puts the atomic word itself beside percpu-classic', () => {
    expect(
      renderToStaticMarkup(createElement(ScalingLink, { scenario: 'global-atomic', cores: 4 })),
    ).toBe(
      '<p><a href="#/scaling?scenarios=percpu-classic%2Cglobal-atomic">Measure how global-atomic scales</a>: adds per second against CPUs, beside percpu-classic, in the Scaling view.</p>',
    );
  });

  it('has no link for a scenario the Scaling view does not measure', () => {
    expect(
      renderToStaticMarkup(createElement(ScalingLink, { scenario: 'irq-local-rmw', cores: 4 })),
    ).toBe('');
  });
});
