// What is asked of one live CPU, read from shared memory at each poll: IRQs, NMIs and migrations
// the page raised one by one (counters in the CPU's control line) and those of the Poisson
// processes whose rates the page set, CPU hotplug events among them (on a CPU with dead
// callbacks only). The CPU loop takes them when the model's rules allow.

import { unsafeUniformIntDistribution, type RandomGenerator } from 'pure-rand';
import { type LiveMemory, RATE_WORD, REQUEST_WORD } from '../memory.ts';

/** The settings words of the IRQ, NMI, migration and hotplug rates, in the order of `rates`. */
const RATE_WORDS = [RATE_WORD.irq, RATE_WORD.nmi, RATE_WORD.migration, RATE_WORD.hotplug];

export class Requests {
  /** Asked for and not yet taken. */
  irqs = 0;
  nmis = 0;
  migs = 0;
  /** Hotplug events due: each takes this CPU offline, or back online. */
  hotplugs = 0;

  private irqSeen: number;
  private nmiSeen: number;
  private migSeen: number;
  private readonly rates = [0, 0, 0, 0];
  /** When each timed event falls due next (ms). */
  private readonly next = [Infinity, Infinity, Infinity, Infinity];

  /** `hotplug`: this CPU has dead callbacks (a CPU without them never goes offline). */
  constructor(
    private readonly mem: LiveMemory,
    private readonly line: number,
    private readonly rng: RandomGenerator,
    private readonly hotplug = false,
  ) {
    const w = mem.words;
    this.irqSeen = Atomics.load(w, line + REQUEST_WORD.irq);
    this.nmiSeen = Atomics.load(w, line + REQUEST_WORD.nmi);
    this.migSeen = Atomics.load(w, line + REQUEST_WORD.migration);
  }

  /** Nothing asked and no rate set: no event can fall due before the page asks for one. */
  get quiet(): boolean {
    return (
      (this.irqs | this.nmis | this.migs | this.hotplugs) === 0 &&
      this.rates[0] === 0 &&
      this.rates[1] === 0 &&
      this.rates[2] === 0 &&
      this.rates[3] === 0
    );
  }

  /** Nothing more will be taken (the run is stopping). */
  clear(): void {
    this.irqs = this.nmis = this.migs = this.hotplugs = 0;
  }

  /** Time to the next event of a Poisson process of `perSecond` events a second, in ms. */
  private gap(perSecond: number): number {
    const u = unsafeUniformIntDistribution(1, 1 << 30, this.rng) / (1 << 30);
    return (-Math.log(u) * 1000) / perSecond;
  }

  /** Reads the requests and rates at time t (ms); adds the events that are due. */
  poll(t: number): void {
    const w = this.mem.words;
    for (let i = 0; i < 4; i++) {
      // Only a CPU with dead callbacks takes hotplug events: for the others the rate is 0.
      const r =
        i === 3 && !this.hotplug ? 0 : (w[this.mem.settings + (RATE_WORDS[i] as number)] as number);
      if (r !== this.rates[i]) {
        this.rates[i] = r;
        // A task can only migrate to another CPU.
        this.next[i] = r > 0 && (i < 2 || this.mem.cpus > 1) ? t + this.gap(r) : Infinity;
      }
    }
    const irqReq = Atomics.load(w, this.line + REQUEST_WORD.irq);
    const nmiReq = Atomics.load(w, this.line + REQUEST_WORD.nmi);
    const migReq = Atomics.load(w, this.line + REQUEST_WORD.migration);
    this.irqs += irqReq - this.irqSeen;
    this.nmis += nmiReq - this.nmiSeen;
    this.migs += migReq - this.migSeen;
    this.irqSeen = irqReq;
    this.nmiSeen = nmiReq;
    this.migSeen = migReq;
    // Timed events that fell due since the last poll count once: they do not pile up while the
    // CPU cannot take them (interrupts off, nothing to migrate), to fire in a burst later.
    let due = 0; // a bit per event kind
    for (let i = 0; i < 4; i++) {
      let at = this.next[i] as number;
      if (t < at) continue;
      due |= 1 << i;
      const rate = this.rates[i] as number;
      while (t >= at) at += this.gap(rate);
      this.next[i] = at;
    }
    if (due & 1) this.irqs = Math.max(this.irqs, 1);
    if (due & 2) this.nmis = Math.max(this.nmis, 1);
    if (due & 4) this.migs = Math.max(this.migs, 1);
    if (due & 8) this.hotplugs = Math.max(this.hotplugs, 1);
  }
}
