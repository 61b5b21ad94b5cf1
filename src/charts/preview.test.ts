import { describe, expect, it } from 'vitest';
import { catalogue, findScenario, type Scenario } from '../scenarios/index.ts';
import type { Value } from '../scenarios/types.ts';
import {
  computePreview,
  PREVIEW_H,
  PREVIEW_W,
  previewLayout,
  previewText,
  type PreviewPicture,
} from './preview.ts';

function scenario(id: string): Scenario {
  const sc = findScenario(id);
  if (!sc) throw new Error(`no scenario ${id}`);
  return sc;
}

/** What the scenario's first witness documents it ends with (its `expect`). */
function expected(id: string): Readonly<Record<string, Value>> {
  const w = scenario(id).witnesses[0];
  if (!w) throw new Error(`${id} has no witness`);
  return w.expect;
}

function picture<K extends PreviewPicture['kind']>(
  id: string,
  kind: K,
): Extract<PreviewPicture, { kind: K }> {
  const p = computePreview(scenario(id)).picture;
  if (p.kind !== kind) throw new Error(`${id}: a ${p.kind} preview, not ${kind}`);
  return p as Extract<PreviewPicture, { kind: K }>;
}

describe('computePreview reads the cells at the end of the first witness', () => {
  it('percpu-classic: the four deltas and fbc->count after sum-holds-the-lock', () => {
    const p = computePreview(scenario('percpu-classic'));
    expect(p.witness).toBe('sum-holds-the-lock');
    const pic = picture('percpu-classic', 'counter');
    // The witness's documented outcome: CPU0 folded nothing yet (10 + 3), CPU1's 31 + 1 went
    // into the count (1000 + 32), CPU2 kept its −5.
    const e = expected('percpu-classic');
    expect(pic.slots.values).toEqual([e.slot0, e.slot1, e.slot2, e.slot3]);
    expect(pic.slots.values).toEqual([13, 0, -5, 0]);
    expect(pic.global).toEqual({ label: 'fbc->count', value: 1032 });
    expect(pic.global.value).toBe(e.count);
    expect(pic.slots.label).toBe('fbc->counters');
    expect(pic.batch).toBe(32);
  });

  it('global-plain: the one word the CPUs race on, with the lost update', () => {
    const pic = picture('global-plain', 'words');
    // initial 100, two increments, one lost.
    expect(pic.globals).toEqual([{ label: 'nr_files', value: 101 }]);
    expect(pic.globals[0]?.value).toBe(expected('global-plain').nr);
    expect(pic.perCpu).toEqual([]);
  });

  it('global-spinlock: the lock is left out, the count is exact', () => {
    const pic = picture('global-spinlock', 'words');
    expect(pic.globals).toEqual([{ label: 'nr_files', value: 102 }]);
  });

  it('torn-read-32: the two halves read, and the torn value they form', () => {
    const pic = picture('torn-read-32', 'torn');
    const e = expected('torn-read-32');
    // CPU0 reads the low half of the old value, then the high half of the new one.
    const lo = Number(BigInt(e.old as number) & 0xffff_ffffn);
    const hi = Number(BigInt(e.new as number) >> 32n);
    expect(pic.halves).toEqual([
      { half: 'lo', word: lo },
      { half: 'hi', word: hi },
    ]);
    expect(pic.halves.map((h) => h.word)).toEqual([0xffff_fff0, 1]);
    expect(pic.formed).toBe(e.read);
    expect(pic.formed).toBe(2 ** 33 - 16);
    expect(pic.torn).toBe(true);
    expect(pic.cell).toBe('fbc->count');
  });

  it("irq-local-rmw: the per-CPU variable's one value, the IRQ's add lost", () => {
    const pic = picture('irq-local-rmw', 'words');
    expect(pic.globals).toEqual([]);
    expect(pic.perCpu).toEqual([{ label: 'c', values: [expected('irq-local-rmw').c] }]);
    expect(pic.perCpu[0]?.values).toEqual([11]);
  });

  it('a scenario without a witness shows its initial state at the default parameters', () => {
    const bare: Scenario = { ...scenario('percpu-classic'), witnesses: [] };
    const p = computePreview(bare);
    expect(p.witness).toBeNull();
    expect(p.picture).toEqual({
      kind: 'counter',
      slots: { label: 'fbc->counters', values: [0, 0] },
      global: { label: 'fbc->count', value: 0 },
      batch: 4,
    });
  });

  it('every catalogue entry has a preview, at the end of its first witness', () => {
    for (const sc of catalogue)
      expect(computePreview(sc).witness, sc.id).toBe(sc.witnesses[0]?.name);
  });
});

describe('previewText says what the picture shows', () => {
  it('names the witness and the values', () => {
    expect(previewText(computePreview(scenario('percpu-classic')))).toBe(
      'preview at the end of witness sum-holds-the-lock: fbc->counters per CPU 13, 0, -5, 0 (batch ±32) beside fbc->count 1032',
    );
    expect(previewText(computePreview(scenario('global-plain')))).toBe(
      'preview at the end of witness lost-update: nr_files 101',
    );
    expect(previewText(computePreview(scenario('torn-read-32')))).toBe(
      'preview at the end of witness lo-then-hi: fbc->count read in two halves: low half 0xFFFFFFF0, then high half 0x00000001, forming 8589934576, a torn value',
    );
    expect(previewText(computePreview(scenario('percpu-rwsem')))).toMatch(
      /: block 1; read_count per CPU 1, 0$/,
    );
  });
});

describe('previewLayout', () => {
  const inside = (x: number, y: number) =>
    x >= 0 && x <= PREVIEW_W + 1e-9 && y >= 0 && y <= PREVIEW_H + 1e-9;

  it('counter: a bar per CPU from the zero line, up or down, and the ±batch lines', () => {
    const l = previewLayout(picture('percpu-classic', 'counter'));
    const bars = l.rects.filter((r) => r.kind === 'bar');
    expect(bars.map((b) => b.cpu)).toEqual([0, 1, 2, 3]);
    const zero = l.lines.find((x) => x.kind === 'zero')?.y ?? NaN;
    const [up, , down] = bars;
    expect((up?.y ?? 0) + (up?.height ?? 0)).toBeCloseTo(zero, 5);
    expect(down?.y).toBeCloseTo(zero, 5);
    // 13 is drawn taller than 5.
    expect(up?.height ?? 0).toBeGreaterThan(down?.height ?? 0);
    const batch = l.lines.filter((x) => x.kind === 'batch').map((x) => x.y);
    expect(batch).toHaveLength(2);
    expect(Math.min(...batch)).toBeLessThan(up?.y ?? 0);
    expect(l.texts.map((t) => t.text)).toEqual(['count', '1032']);
    for (const r of l.rects)
      expect(inside(r.x, r.y) && inside(r.x + r.width, r.y + r.height)).toBe(true);
  });

  it('torn: the high half, the low half and the value formed, marked wrong', () => {
    const l = previewLayout(picture('torn-read-32', 'torn'));
    expect(l.rects.map((r) => r.kind)).toEqual(['box', 'box', 'bad']);
    expect(l.texts.map((t) => t.text)).toEqual([
      'hi',
      '0x00000001',
      'lo',
      '0xFFFFFFF0',
      '=',
      '8589934576',
    ]);
  });

  it('words: a box per global word, bars with their values for per-CPU variables', () => {
    expect(previewLayout(picture('global-plain', 'words')).texts.map((t) => t.text)).toEqual([
      'nr_files',
      '101',
    ]);
    const rwsem = previewLayout(picture('percpu-rwsem', 'words'));
    expect(rwsem.rects.map((r) => r.kind)).toEqual(['box', 'bar', 'bar']);
    expect(rwsem.texts.map((t) => t.text)).toEqual(['block', '1', '1', '0']);
  });
});
