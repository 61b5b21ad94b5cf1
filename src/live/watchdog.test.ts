import { describe, expect, it } from 'vitest';
import { Watchdog } from './watchdog.ts';

/** Feeds the watchdog checks every `every` ms up to `until`; stamps(t) gives the CPUs' stamps. */
function watch(dog: Watchdog, stamps: (t: number) => number[], until: number, every = 250) {
  let silent: number[] = [];
  for (let t = 0; t <= until; t += every) silent = dog.check(stamps(t), t);
  return silent;
}

describe('the watchdog', () => {
  it('names the CPU whose stamp stopped moving, once it has been still for the silence', () => {
    const dog = new Watchdog(2000, 750);
    // CPU 1 stops at 1 s; CPU 0 keeps going.
    const stamps = (t: number) => [t, Math.min(t, 1000)];
    expect(watch(dog, stamps, 2750)).toEqual([]);
    expect(dog.check(stamps(3000), 3000)).toEqual([1]);
  });

  it('accuses nobody while every CPU runs, even one that spins (its stamp still moves)', () => {
    expect(watch(new Watchdog(), (t) => [t, t - 100, t - 5], 20_000)).toEqual([]);
  });

  it('does not count a paused page (a frozen or hidden tab) as the CPUs’ silence', () => {
    const dog = new Watchdog(2000, 750);
    // Everything runs, then the tab is frozen for 10 s (workers too), then runs again: the
    // first checks after the pause see the same stamps as before it.
    expect(watch(dog, (t) => [t, t], 1000)).toEqual([]);
    expect(dog.check([1000, 1000], 11_000)).toEqual([]);
    expect(dog.check([1000, 1000], 11_250)).toEqual([]);
    expect(dog.check([1300, 1300], 11_500)).toEqual([]);
  });

  it('a hidden tab checking once a second accuses nobody, and still catches a dead CPU after', () => {
    const dog = new Watchdog(2000, 750);
    const stamps = (t: number) => [t, Math.min(t, 4000)];
    // Hidden: one check a second, each a pause.
    expect(watch(dog, stamps, 10_000, 1000)).toEqual([]);
    // Shown again: CPU 1 has been dead all along; two seconds of watching name it.
    let silent: number[] = [];
    for (let t = 10_250; t <= 12_250; t += 250) silent = dog.check(stamps(t), t);
    expect(silent).toEqual([1]);
  });
});
