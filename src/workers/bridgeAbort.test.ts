// The bridges' cancelling, in Node: a Web Worker here is a fake whose far end is a comlink
// `expose` on a MessageChannel, answering as the test says. What is checked is what a user
// relies on: an aborted call rejects with an AbortError, and its worker is terminated.

import { expose } from 'comlink';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isAbortError } from '../machine/errors.ts';
import { AxiomaticBridge } from './axiomaticBridge.ts';
import { ExploreBridge } from './exploreBridge.ts';

/** A call the fake worker holds until the test settles it. */
interface Held {
  readonly method: string;
  resolve(value: unknown): void;
}

/** A Web Worker whose API answers only when the test says (`held`). */
class FakeWorker {
  static made: FakeWorker[] = [];
  readonly held: Held[] = [];
  terminated = false;
  private readonly near: MessagePort;
  private readonly far: MessagePort;

  constructor(readonly url: URL) {
    const { port1, port2 } = new MessageChannel();
    this.near = port1;
    this.far = port2;
    const hold = (method: string) => (): Promise<unknown> =>
      new Promise((resolve) => {
        this.held.push({ method, resolve });
      });
    expose(
      {
        run: hold('run'),
        challengeStats: hold('challengeStats'),
        answer: hold('answer'),
        execution: hold('execution'),
      },
      port2,
    );
    FakeWorker.made.push(this);
  }

  postMessage(message: unknown, transfer: Transferable[] = []): void {
    this.near.postMessage(message, transfer);
  }

  addEventListener(type: string, listener: (e: MessageEvent) => void): void {
    // The bridges also listen for 'error', which this fake never raises.
    if (type === 'message') this.near.addEventListener('message', listener);
    this.near.start();
  }

  removeEventListener(type: string, listener: (e: MessageEvent) => void): void {
    if (type === 'message') this.near.removeEventListener('message', listener);
  }

  terminate(): void {
    this.terminated = true;
    this.near.close();
    this.far.close();
  }
}

/** Lets messages cross the channels and every callback queued run. */
const settle = () => new Promise((r) => setTimeout(r, 10));

/** Waits until the fake worker holds a call (comlink's messages take a few turns). */
async function heldCall(w: FakeWorker | undefined, method: string): Promise<Held> {
  for (let i = 0; i < 100; i++) {
    const call = w?.held.find((h) => h.method === method);
    if (call) return call;
    await settle();
  }
  throw new Error(`the worker was never asked ${method}`);
}

/** The rejection of `p`, or a failure if it resolves. */
async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('resolved, not rejected');
    },
    (e: unknown) => e,
  );
}

beforeEach(() => {
  FakeWorker.made = [];
  vi.stubGlobal('Worker', FakeWorker);
  vi.stubGlobal('crossOriginIsolated', false);
});

afterEach(() => {
  for (const w of FakeWorker.made) w.terminate();
  vi.unstubAllGlobals();
});

const request = {
  scenario: 'global-plain',
  params: {},
  bounds: { irqs: 0, nmis: 0, preemptions: 0, migrations: 0, switches: null },
  maxStates: null,
};

describe('the explore bridge, cancelled', () => {
  it('rejects a run with an AbortError when its signal aborts, and terminates its worker', async () => {
    const bridge = new ExploreBridge(1);
    const abort = new AbortController();
    const run = rejectionOf(bridge.run(request, () => undefined, abort.signal));
    await heldCall(FakeWorker.made[0], 'run');
    expect(FakeWorker.made.map((w) => w.terminated)).toEqual([false]);
    abort.abort();
    const e = await run;
    expect(isAbortError(e)).toBe(true);
    expect((e as Error).message).toBe('the exploration was cancelled');
    expect(FakeWorker.made.map((w) => w.terminated)).toEqual([true]);
  });

  it('answers as the worker does when not aborted, and ends the worker then too', async () => {
    const bridge = new ExploreBridge(1);
    const stats = bridge.challengeStats('global-plain', 'lose-one', new AbortController().signal);
    (await heldCall(FakeWorker.made[0], 'challengeStats')).resolve({ complete: true });
    await expect(stats).resolves.toEqual({ complete: true });
    expect(FakeWorker.made.map((w) => w.terminated)).toEqual([true]);
  });

  it('starts no worker for a signal already aborted; a new call ends the one running', async () => {
    const bridge = new ExploreBridge(1);
    await expect(
      bridge.challengeStats('global-plain', 'lose-one', AbortSignal.abort()),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeWorker.made).toEqual([]);
    const first = rejectionOf(
      bridge.challengeStats('global-plain', 'lose-one', new AbortController().signal),
    );
    await heldCall(FakeWorker.made[0], 'challengeStats');
    void bridge.challengeStats('global-plain', 'lose-one', new AbortController().signal);
    expect(isAbortError(await first)).toBe(true);
    expect(FakeWorker.made.map((w) => w.terminated)).toEqual([true, false]);
  });
});

describe('the axiomatic bridge, cancelled', () => {
  it('keeps its worker while the signal holds; aborting rejects every call in flight and ends it', async () => {
    const bridge = new AxiomaticBridge();
    const abort = new AbortController();
    const answer = bridge.answer({ scenario: 'global-plain', params: {} }, abort.signal);
    const w = FakeWorker.made[0];
    (await heldCall(w, 'answer')).resolve({ ok: false, model: 'lkmm', refusal: 'a fake' });
    await expect(answer).resolves.toMatchObject({ ok: false });
    expect(w?.terminated).toBe(false);
    const graph = rejectionOf(bridge.execution(0));
    await heldCall(w, 'execution');
    abort.abort();
    const e = await graph;
    expect([isAbortError(e), (e as Error).message]).toEqual([true, 'the answer was cancelled']);
    expect(w?.terminated).toBe(true);
    // The program went with the worker.
    await expect(bridge.execution(0)).rejects.toThrow('no program is open: answer one first');
  });

  it('a new answer ends the last one’s worker; the old signal aborting later touches nothing', async () => {
    const bridge = new AxiomaticBridge();
    const old = new AbortController();
    const first = rejectionOf(bridge.answer({ scenario: 'global-plain', params: {} }, old.signal));
    await heldCall(FakeWorker.made[0], 'answer');
    const second = bridge.answer(
      { scenario: 'percpu-classic', params: {} },
      new AbortController().signal,
    );
    expect(isAbortError(await first)).toBe(true);
    old.abort();
    (await heldCall(FakeWorker.made[1], 'answer')).resolve({ ok: true });
    await expect(second).resolves.toEqual({ ok: true });
    expect(FakeWorker.made.map((w) => w.terminated)).toEqual([true, false]);
  });

  it('opens no worker for a signal already aborted', async () => {
    const bridge = new AxiomaticBridge();
    await expect(
      bridge.answer({ scenario: 'global-plain', params: {} }, AbortSignal.abort()),
    ).rejects.toMatchObject({ name: 'AbortError', message: 'the answer was cancelled' });
    expect(FakeWorker.made).toEqual([]);
  });
});
