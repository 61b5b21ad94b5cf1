// The footprint of an event must cover every word the event writes: on every scenario and
// variant, with and without a third CPU, along random schedules that take every kind of event,
// each legal event other than a migration or a hotplug event leaves every word outside its
// footprint unchanged.

import { describe, expect, it } from 'vitest';
import { apply, enabledEvents, Ev, eventCpu, eventType } from '../machine/events.ts';
import { initialState, topContext } from '../machine/interpreter.ts';
import type { Machine } from '../machine/machine.ts';
import { catalogue } from '../scenarios/index.ts';
import { resolveParams } from '../scenarios/params.ts';
import { footprints } from './footprint.ts';
import { Visited } from './visited.ts';

const machines: { name: string; m: Machine }[] = [];
for (const sc of catalogue) {
  const spec = sc.params.find((p) => p.name === 'variant');
  const variants = spec?.kind === 'choice' ? spec.choices : [null];
  for (const variant of variants) {
    const set: Record<string, string> = variant === null ? {} : { variant };
    machines.push({
      name: `${sc.id} ${variant ?? ''}`,
      m: sc.build(resolveParams(sc, set)).machine,
    });
    if (sc.params.some((p) => p.name === 'cpus'))
      machines.push({
        name: `${sc.id} ${variant ?? ''} cpus=3`,
        m: sc.build(resolveParams(sc, { ...set, cpus: '3' })).machine,
      });
  }
}

describe('footprints', () => {
  it.each(machines)('cover every word an event writes: $name', ({ m }) => {
    const { segments } = new Visited(m);
    const table = footprints(m, segments);
    if (table === null) throw new Error('no footprint table');
    const n = segments.length;
    let seed = 12345;
    const events: number[] = [];
    for (let run = 0; run < 8; run++) {
      const s = initialState(m);
      for (let t = 0; t < 200; t++) {
        const count = enabledEvents(m, s, events);
        if (count === 0) break;
        for (let e = 0; e < count; e++) {
          const ev = events[e] as number;
          // A migration, an offline and an online are compared in full (shard.ts), not by footprint.
          if (eventType(ev) === Ev.Migrate || eventType(ev) >= Ev.Offline) continue;
          const k = eventCpu(ev);
          const at = (k * (m.contexts + 1) + topContext(m, s, k) + 1) * 2 * n;
          const next = s.slice();
          apply(m, next, ev);
          segments.forEach(({ off, width }, i) => {
            const from = table[at + 2 * i] as number;
            const to = table[at + 2 * i + 1] as number;
            for (let j = off; j < off + width; j++)
              if ((j < from || j >= to) && next[j] !== s[j])
                expect.fail(`event ${ev} wrote word ${j}, outside its footprint`);
          });
        }
        seed = (Math.imul(seed, 1103515245) + 12345) | 0;
        apply(m, s, events[(seed >>> 8) % count] as number);
      }
    }
  });
});
