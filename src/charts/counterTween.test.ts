// The counter chart's tween on stand-in nodes (Node has no DOM): where each node is put the
// moment a frame arrives, which nodes start moving, and that destroy stops them. How they move
// over time in a browser is e2e/animations.spec.ts's.

import { active, timerFlush } from 'd3';
import { describe, expect, it } from 'vitest';
import { type CounterFrame, type CounterNodes, createCounterTween } from './counterTween.ts';
import { pourAt, pourPath } from './pour.ts';

/** Just what d3's selections and transitions use of an element. */
class Node {
  readonly attrs = new Map<string, string>();
  textContent: string | null = null;
  constructor(readonly children: readonly Node[] = []) {}
  setAttribute(name: string, value: unknown) {
    this.attrs.set(name, String(value));
  }
  getAttribute(name: string) {
    return this.attrs.get(name) ?? null;
  }
  removeAttribute(name: string) {
    this.attrs.delete(name);
  }
  querySelector() {
    return this.children[0] ?? null;
  }
}

const el = (n: Node) => n as unknown as Element;

function chart(slots: number) {
  const bars = Array.from({ length: slots }, () => new Node());
  const rect = new Node();
  const parts = {
    bars,
    globalBar: new Node(),
    figure: new Node(),
    marker: new Node(),
    swept: new Node(),
    pour: new Node([rect]),
    rect,
  };
  const nodes: CounterNodes = {
    bars: { current: bars.map(el) },
    globalBar: { current: el(parts.globalBar) },
    figure: { current: el(parts.figure) },
    marker: { current: el(parts.marker) },
    swept: { current: el(parts.swept) },
    pour: { current: el(parts.pour) },
  };
  return { parts, tween: createCounterTween(nodes) };
}

const frame = (over: Partial<CounterFrame>): CounterFrame => ({
  step: 3,
  bars: [
    { y: 100, height: 20 },
    { y: 120, height: 0 },
  ],
  global: { y: 60, height: 60 },
  globalValue: 1000,
  sweepX: 40,
  sweepLeft: 10,
  position: 0,
  pour: null,
  ...over,
});

const span = (n: Node) => [n.getAttribute('y'), n.getAttribute('height')];

describe('the counter tween', () => {
  it("puts every node where it ends on the chart's first frame", () => {
    const { parts, tween } = chart(2);
    tween.update(null, frame({}), false);
    expect(parts.bars.map(span)).toEqual([
      ['100', '20'],
      ['120', '0'],
    ]);
    expect(span(parts.globalBar)).toEqual(['60', '60']);
    expect(parts.figure.textContent).toBe('1000');
    expect(parts.marker.getAttribute('transform')).toBe('translate(40,0)');
    expect(parts.swept.getAttribute('width')).toBe('30');
    expect(parts.pour.getAttribute('opacity')).toBe('0');
    for (const n of [...parts.bars, parts.globalBar, parts.figure, parts.marker, parts.swept])
      expect(active(el(n))).toBeNull();
  });

  it('with reduced motion, puts them where they end at once on every frame', () => {
    const { parts, tween } = chart(2);
    const was = frame({});
    const to = { y: 100, height: 0 };
    const next = frame({
      step: 4,
      bars: [to, to],
      global: { y: 28, height: 92 },
      globalValue: 1032,
      sweepX: 70,
      position: 2,
      pour: { from: { x: 20, y: 68, width: 30, height: 32 }, to: { ...to, x: 90, width: 40 } },
    });
    tween.update(was, next, true);
    timerFlush();
    expect(parts.bars.map(span)).toEqual([
      ['100', '0'],
      ['100', '0'],
    ]);
    expect(span(parts.globalBar)).toEqual(['28', '92']);
    expect(parts.figure.textContent).toBe('1032');
    expect(parts.marker.getAttribute('transform')).toBe('translate(70,0)');
    expect(parts.swept.getAttribute('width')).toBe('60');
    expect(parts.pour.getAttribute('opacity')).toBe('0');
    for (const n of [...parts.bars, parts.globalBar, parts.figure, parts.swept, parts.pour])
      expect(active(el(n))).toBeNull();
  });

  it('starts a step forward onto a fold from the last frame, pours, and stops on destroy', () => {
    const { parts, tween } = chart(2);
    const was = frame({
      bars: [
        { y: 68, height: 52 },
        { y: 120, height: 0 },
      ],
    });
    tween.update(null, was, false);
    const from = { x: 20, y: 68, width: 30, height: 32 };
    const to = { x: 90, y: 28, width: 40, height: 32 };
    const next = frame({
      step: 4,
      bars: [
        { y: 100, height: 20 },
        { y: 120, height: 0 },
      ],
      global: { y: 28, height: 92 },
      globalValue: 1032,
      pour: { from, to },
    });
    tween.update(was, next, false);
    // Each node starts where the last frame left it; the batch at the start of its arc.
    expect(parts.bars.map(span)).toEqual([
      ['68', '52'],
      ['120', '0'],
    ]);
    expect(span(parts.globalBar)).toEqual(['60', '60']);
    expect(parts.figure.textContent).toBe('1000');
    expect(parts.marker.getAttribute('transform')).toBe('translate(40,0)');
    const start = pourAt(pourPath(from, to), 0);
    expect(parts.pour.getAttribute('opacity')).toBe('1');
    expect(parts.pour.getAttribute('transform')).toBe(
      `translate(${start.x.toFixed(1)},${start.y.toFixed(1)})`,
    );
    expect(span(parts.rect)).toEqual([null, '32']);
    expect(parts.rect.getAttribute('width')).toBe('30');

    // The bars and the batch move at once; the global count waits for the batch to land.
    timerFlush();
    expect(active(el(parts.bars[0] as Node))).not.toBeNull();
    expect(active(el(parts.pour))).not.toBeNull();
    expect(active(el(parts.globalBar))).toBeNull();
    // The sweep did not move: nothing to tween.
    expect(active(el(parts.marker))).toBeNull();

    tween.destroy();
    for (const n of [...parts.bars, parts.globalBar, parts.figure, parts.pour])
      expect(active(el(n))).toBeNull();
    timerFlush();
    expect(parts.bars.map(span)).toEqual([
      ['68', '52'],
      ['120', '0'],
    ]);
    expect(parts.figure.textContent).toBe('1000');
  });

  it('pours only on a step forward: a step back shows the batch nowhere', () => {
    const { parts, tween } = chart(2);
    const pour = {
      from: { x: 20, y: 68, width: 30, height: 32 },
      to: { x: 90, y: 28, width: 40, height: 32 },
    };
    const was = frame({ step: 5 });
    tween.update(null, was, false);
    tween.update(was, frame({ step: 4, pour }), false);
    expect(parts.pour.getAttribute('opacity')).toBe('0');
    tween.destroy();
  });

  it('grows a bar the last frame did not have from where it ends', () => {
    const { parts, tween } = chart(2);
    const was = frame({ bars: [{ y: 100, height: 20 }] });
    tween.update(null, was, false);
    tween.update(was, frame({ step: 4 }), false);
    expect(span(parts.bars[1] as Node)).toEqual(['120', '0']);
    tween.destroy();
  });
});
