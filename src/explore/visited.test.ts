// The visited set must name each distinct (state, metadata) node once and keep that name as it
// grows: through every doubling of its table, a node met again is the node it was, and one never
// met is new. These tests drive it with real states of global-plain's machine, many more than
// the table's first size, and check the ids, the fresh flags and what decoding gives back.

import { describe, expect, it } from 'vitest';
import { initialState } from '../machine/interpreter.ts';
import { findScenario } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { Visited } from './visited.ts';

const sc = findScenario('global-plain');
if (!sc) throw new Error('global-plain is missing from the catalogue');
const m = sc.build(resolveParams(sc, { cpus: '3' })).machine;

/** The i-th test state: the machine's start with memory and one context's word set from i. */
function stateOf(i: number): Int32Array {
  const s = initialState(m);
  s[0] = i % 1000;
  s[m.size - 1] = Math.floor(i / 1000);
  return s;
}

describe('Visited', () => {
  it('gives new nodes ids in the order met, and the same id when met again', () => {
    const v = new Visited(m);
    const ids = new Int32Array(v.width);
    const n = 20_000; // past several doublings of the table (4,096 slots to start)
    for (let i = 0; i < n; i++) {
      v.components(stateOf(i), ids);
      expect(v.find(ids, i % 7)).toBe(i);
      expect(v.fresh).toBe(true);
    }
    expect(v.count).toBe(n);
    for (let i = n - 1; i >= 0; i -= 13) {
      v.components(stateOf(i), ids);
      expect(v.find(ids, i % 7)).toBe(i);
      expect(v.fresh).toBe(false);
    }
    expect(v.count).toBe(n);
  });

  it('tells nodes apart by their metadata word as well as their state', () => {
    const v = new Visited(m);
    const ids = new Int32Array(v.width);
    v.components(stateOf(5), ids);
    expect(v.find(ids, 0)).toBe(0);
    expect(v.find(ids, 1)).toBe(1);
    expect(v.fresh).toBe(true);
    expect(v.find(ids, 0)).toBe(0);
    expect(v.fresh).toBe(false);
    expect([v.meta(0), v.meta(1)]).toEqual([0, 1]);
  });

  it('decodes each node to the state it was found with, after the table has grown', () => {
    const v = new Visited(m);
    const ids = new Int32Array(v.width);
    for (let i = 0; i < 9_000; i++) {
      v.components(stateOf(i), ids);
      v.find(ids, 3);
    }
    const into = new Int32Array(m.size);
    for (const i of [0, 1, 999, 1000, 4095, 4096, 8999]) {
      v.decode(i, into, ids);
      expect(Array.from(into)).toEqual(Array.from(stateOf(i)));
    }
  });

  it('keeps a node steps −1 until reached, then its path and expanded flag', () => {
    const v = new Visited(m);
    const ids = new Int32Array(v.width);
    v.components(stateOf(1), ids);
    const id = v.find(ids, 0);
    expect([v.stepsOf(id), v.switchesOf(id), v.isExpanded(id)]).toEqual([-1, 0, false]);
    v.setPath(id, 4, 2, 7, 9);
    v.markExpanded(id);
    expect([v.stepsOf(id), v.switchesOf(id), v.isExpanded(id)]).toEqual([4, 2, true]);
    expect([v.parent.get(id), v.event.get(id)]).toEqual([7, 9]);
  });

  it('takes a path only when it is cheaper, and none once the node is expanded', () => {
    const v = new Visited(m);
    const ids = new Int32Array(v.width);
    v.components(stateOf(1), ids);
    const id = v.find(ids, 5);
    const path = () => [v.stepsOf(id), v.switchesOf(id), v.parent.get(id), v.event.get(id)];
    expect(v.improve(id, 9, 3, 1, 1)).toBe(true); // the first path
    expect(v.improve(id, 8, 4, 2, 2)).toBe(false); // fewer steps, more switches
    expect(v.improve(id, 9, 3, 3, 3)).toBe(false); // as cheap
    expect(path()).toEqual([9, 3, 1, 1]);
    expect(v.improve(id, 12, 2, 4, 4)).toBe(true); // fewer switches, more steps
    expect(v.improve(id, 11, 2, 5, 5)).toBe(true); // as many switches, fewer steps
    expect(path()).toEqual([11, 2, 5, 5]);
    // What the search reads when it expands the node: the tuple, the metadata, steps, switches.
    const opened = new Int32Array(v.width);
    expect(v.open(id, opened)).toBe(5);
    expect([...opened.subarray(0, v.width - 1)]).toEqual([...ids.subarray(0, v.width - 1)]);
    expect([v.openSteps, v.openSwitches]).toEqual([11, 2]);
    v.markExpanded(id);
    expect(v.improve(id, 1, 0, 6, 6)).toBe(false);
    expect(path()).toEqual([11, 2, 5, 5]);
  });
});
