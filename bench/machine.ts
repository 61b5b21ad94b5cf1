// npm run bench:machine: how fast the model runs in Node.
//
// Prints, for global-spinlock with 4 CPUs: model steps per second (find the legal events, pick
// one, apply it: what a random scheduler does per transition) and copies + 64-bit hashes of a
// state per second (what time travel does per state).

import { apply, enabledEvents, LegalMasks } from '../src/machine/events.ts';
import { initialState } from '../src/machine/interpreter.ts';
import { copyState, hashState } from '../src/machine/state.ts';
import { findScenario } from '../src/scenarios/index.ts';
import { resolveParams } from '../src/scenarios/params.ts';

const sc = findScenario('global-spinlock');
if (!sc) throw new Error('global-spinlock is missing');
const params = resolveParams(sc, { cpus: '4', iterations: '1000' });
const { machine: m } = sc.build(params);

// xorshift32: the benchmark measures the machine, so the random choice must cost next to nothing:
// integer operations only (the top 16 bits times n, n < 2^16, shifted down), since a
// floating-point draw makes the index it yields a double for every use after it.
let seed = 2463534242 | 0;
function next(n: number): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return Math.imul(seed >>> 16, n) >>> 16;
}

function measureSteps(ms: number): { steps: number; seconds: number } {
  const init = initialState(m);
  const s = init.slice();
  // The legal events as one mask per CPU, kept up to date across events: counting and picking
  // need no list of events, and a step recomputes only its own CPU's mask.
  const legal = new LegalMasks(m);
  legal.reset(s);
  let steps = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 100_000; i++) {
      if (legal.total === 0) {
        s.set(init);
        legal.reset(s);
        continue;
      }
      const ev = legal.event(next(legal.total));
      apply(m, s, ev);
      legal.after(s, ev);
      steps++;
    }
    now = performance.now();
  }
  return { steps, seconds: (now - start) / 1000 };
}

function measureCopyHash(ms: number): { ops: number; seconds: number } {
  // A pool of distinct reachable states, so the hash is not run on one cached array.
  const pool: Int32Array[] = [];
  const s = initialState(m);
  const buf: number[] = [];
  for (let i = 0; i < 1024; i++) {
    const n = enabledEvents(m, s, buf);
    if (n === 0) break;
    apply(m, s, buf[next(n)] as number);
    pool.push(s.slice());
  }
  const out = new Int32Array(2);
  let ops = 0;
  let sink = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 100_000; i++) {
      const copy = copyState(pool[i & 1023] as Int32Array);
      hashState(copy, out);
      sink ^= out[0] as number;
      ops++;
    }
    now = performance.now();
  }
  if (sink === 42) console.log('');
  return { ops, seconds: (now - start) / 1000 };
}

measureSteps(300); // warm up the JIT
const st = measureSteps(2000);
measureCopyHash(300);
const ch = measureCopyHash(2000);
const fmt = (x: number) => `${(x / 1e6).toFixed(1)} M/s`;
console.log(`global-spinlock, 4 CPUs, state of ${m.size} words (Node ${process.version})`);
console.log(
  `  model steps (enumerate + apply): ${fmt(st.steps / st.seconds)}  (${st.steps} in ${st.seconds.toFixed(2)} s)`,
);
console.log(
  `  copy + 64-bit hash of a state:    ${fmt(ch.ops / ch.seconds)}  (${ch.ops} in ${ch.seconds.toFixed(2)} s)`,
);
