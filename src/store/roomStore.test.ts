// The room store against a fake socket: hello, events applied in order once each, resuming from
// the last event after a drop (with backoff), what each role may send, and refusals.

import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  createRoomStore,
  keepTeacher,
  keptTeacher,
  type SocketEvents,
  socketUrl,
  studentToken,
} from './roomStore.ts';

/** A fake server end: what the store sent, and a way to answer it. */
function fakeSockets() {
  const sockets: { url: string; on: SocketEvents; sent: unknown[]; closed: boolean }[] = [];
  const timers: { f: () => void; ms: number }[] = [];
  const store = createRoomStore({
    url: 'ws://here/api/socket',
    open: (url, on) => {
      const s = { url, on, sent: [] as unknown[], closed: false };
      sockets.push(s);
      return {
        send: (text) => s.sent.push(JSON.parse(text)),
        close: () => {
          s.closed = true;
        },
      };
    },
    setTimer: (f, ms) => timers.push({ f, ms }),
    clearTimer: () => undefined,
  });
  const last = () => {
    const s = sockets[sockets.length - 1];
    if (!s) throw new Error('no socket');
    return s;
  };
  const say = (m: unknown) => {
    last().on.message(JSON.stringify(m));
  };
  return { store, sockets, timers, last, say };
}

const CODE = 'ABC234';
const SECRET = 'x'.repeat(40);
const ask = {
  kind: 'ask',
  prompt: 'Where does it end?',
  choices: ['nr=101', 'nr=102'],
  seconds: 30,
  closesAt: 1_000,
};
const moment = (n: number, at: number) => ({
  t: 'event',
  n,
  at: 0,
  e: { kind: 'moment', hash: `#/step/global-plain?sched=0+1+0+1&at=${String(at)}` },
});

describe('roomStore', () => {
  it('a student says hello, applies events in order once each and resumes after a drop', () => {
    const { store, sockets, timers, last, say } = fakeSockets();
    store
      .getState()
      .joined({ role: 'student', code: CODE, nickname: 'Ada', token: 't'.repeat(20) });
    expect(store.getState().status).toBe('connecting');
    last().on.open();
    expect(last().sent).toEqual([
      {
        t: 'hello',
        v: 1,
        role: 'student',
        code: CODE,
        nickname: 'Ada',
        token: 't'.repeat(20),
        since: 0,
      },
    ]);
    say({ t: 'welcome', code: CODE, title: 'Plain', role: 'student', last: 2 });
    say(moment(1, 1));
    say(moment(2, 2));
    say(moment(2, 9)); // a repeat: ignored
    expect(store.getState()).toMatchObject({
      status: 'open',
      last: 2,
      moment: '#/step/global-plain?sched=0+1+0+1&at=2',
      announcement: `Joined class ${CODE}.`,
    });

    // The socket drops: reconnecting, after 0.5 s, from event 2.
    last().on.close();
    expect(store.getState()).toMatchObject({
      status: 'reconnecting',
      announcement: 'The connection to the class dropped: reconnecting…',
    });
    expect(timers.map((t) => t.ms)).toEqual([500]);
    timers[0]?.f();
    expect(sockets).toHaveLength(2);
    last().on.open();
    expect(last().sent[0]).toMatchObject({ role: 'student', since: 2 });
    // It fails again: 1 s, then 2 s, …, never more than 5 s.
    last().on.close();
    expect(timers.map((t) => t.ms)).toEqual([500, 1000]);
    timers[1]?.f();
    last().on.open();
    say({ t: 'welcome', code: CODE, title: 'Plain', role: 'student', last: 3 });
    say(moment(3, 3));
    expect(store.getState()).toMatchObject({
      status: 'open',
      last: 3,
      retries: 0,
      moment: '#/step/global-plain?sched=0+1+0+1&at=3',
      announcement: `Back in class ${CODE}.`,
    });
    expect([0, 1, 2, 3, 4, 5].map(backoffMs)).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
  });

  it('a question: asked, answered, counted, revealed with the right choice named', () => {
    const { store, last, say } = fakeSockets();
    store
      .getState()
      .joined({ role: 'student', code: CODE, nickname: 'Ada', token: 't'.repeat(20) });
    last().on.open();
    say({ t: 'welcome', code: CODE, title: 'Plain', role: 'student', last: 0 });
    say({ t: 'event', n: 1, at: 0, e: ask });
    expect(store.getState().question).toEqual({ ...ask, kind: undefined, n: 1 } as never);
    expect(store.getState().announcement).toBe('Question: Where does it end?');
    store.getState().answerChosen(0);
    expect(last().sent[1]).toEqual({ t: 'answer', question: 1, choice: 0 });
    say({ t: 'answered', question: 1, choice: 0 });
    expect(store.getState().answered).toEqual({ question: 1, choice: 0 });
    say({
      t: 'event',
      n: 2,
      at: 0,
      e: { kind: 'reveal', question: 1, answer: 0, counts: [3, 1], revealHash: null },
    });
    expect(store.getState()).toMatchObject({
      question: null,
      revealed: { n: 2, question: 1, answer: 0, counts: [3, 1], choices: ['nr=101', 'nr=102'] },
      announcement: 'The answer is revealed: nr=101.',
    });
  });

  it('a teacher pushes the stage when it differs from the room, also after a reconnect', () => {
    const { store, timers, last, say } = fakeSockets();
    store.getState().joined({ role: 'teacher', code: CODE, secret: SECRET });
    store.getState().momentChanged('#/step/global-plain?at=0'); // not open yet: kept
    last().on.open();
    expect(last().sent).toEqual([
      { t: 'hello', v: 1, role: 'teacher', code: CODE, secret: SECRET, since: 0 },
    ]);
    say({ t: 'welcome', code: CODE, title: 'Plain', role: 'teacher', last: 0 });
    expect(last().sent[1]).toEqual({ t: 'moment', hash: '#/step/global-plain?at=0' });
    say({ t: 'event', n: 1, at: 0, e: { kind: 'moment', hash: '#/step/global-plain?at=0' } });
    store.getState().momentChanged('#/step/global-plain?at=0'); // the room has it already
    expect(last().sent).toHaveLength(2);
    // Stepped while the server was down: sent once the room is back.
    last().on.close();
    store.getState().momentChanged('#/step/global-plain?sched=0&at=1');
    timers[0]?.f();
    last().on.open();
    say({ t: 'welcome', code: CODE, title: 'Plain', role: 'teacher', last: 1 });
    expect(last().sent).toEqual([
      { t: 'hello', v: 1, role: 'teacher', code: CODE, secret: SECRET, since: 1 },
      { t: 'moment', hash: '#/step/global-plain?sched=0&at=1' },
    ]);
    say({ t: 'tally', question: 4, counts: [2, 1], answered: 3 });
    say({
      t: 'roster',
      students: [
        { nickname: 'Ada', online: true },
        { nickname: 'Bo', online: false },
      ],
    });
    expect(store.getState()).toMatchObject({ tally: { counts: [2, 1], answered: 3 }, present: 1 });
  });

  it('refusals: a message it cannot read is ignored, a wrong secret stops, the end ends', () => {
    const { store, sockets, timers, last, say } = fakeSockets();
    store.getState().joined({ role: 'teacher', code: CODE, secret: SECRET });
    last().on.open();
    say({ t: 'event', n: 1, at: 0, e: { kind: 'moment', hash: 'javascript:alert(1)' } });
    expect(store.getState()).toMatchObject({ last: 0, moment: null });
    expect(store.getState().error).toMatch(/cannot read/);
    say({ t: 'error', code: 'not-allowed', message: "This is not the room's secret." });
    expect(store.getState()).toMatchObject({
      status: 'refused',
      error: "This is not the room's secret.",
    });
    last().on.close();
    expect(timers).toEqual([]);
    expect(sockets[0]?.closed).toBe(true);

    store
      .getState()
      .joined({ role: 'student', code: CODE, nickname: 'Ada', token: 't'.repeat(20) });
    last().on.open();
    say({ t: 'welcome', code: CODE, title: 'Plain', role: 'student', last: 0 });
    say({ t: 'event', n: 1, at: 0, e: { kind: 'end' } });
    expect(store.getState()).toMatchObject({
      status: 'ended',
      announcement: 'The class has ended.',
    });
    last().on.close();
    expect(timers).toEqual([]);
  });
});

describe('roomStore: challenges and presence', () => {
  it("a student's schedule goes out; the verdict comes back; the teacher lists attempts", () => {
    const student = fakeSockets();
    student.store
      .getState()
      .joined({ role: 'student', code: CODE, nickname: 'Ada', token: 't'.repeat(20) });
    // Not connected yet: nothing is sent, and the page is told so.
    student.store.getState().submitted('lose-one', '0 1 0 1');
    expect(student.store.getState().error).toBe('Not connected: the schedule was not sent.');
    student.last().on.open();
    student.say({ t: 'welcome', code: CODE, title: 'Plain', role: 'student', last: 0 });
    student.store.getState().submitted('lose-one', '0 1 0 1 0 0 1 1');
    expect(student.last().sent[1]).toEqual({
      t: 'submit',
      challenge: 'lose-one',
      schedule: '0 1 0 1 0 0 1 1',
    });
    const verdict = { kind: 'reached', summary: 'nr_files = 2 < 4' } as const;
    student.say({ t: 'judged', challenge: 'lose-one', verdict });
    student.say({ t: 'present', students: 7 });
    expect(student.store.getState()).toMatchObject({
      judged: { challenge: 'lose-one', verdict },
      present: 7,
      announcement: 'Your schedule: nr_files = 2 < 4',
    });

    const teacher = fakeSockets();
    teacher.store.getState().joined({ role: 'teacher', code: CODE, secret: SECRET });
    teacher.last().on.open();
    teacher.say({ t: 'welcome', code: CODE, title: 'Plain', role: 'teacher', last: 0 });
    const sub = {
      nickname: 'Ada',
      challenge: 'lose-one',
      schedule: '0 1 0 1 0 0 1 1',
      verdict,
      at: 5,
    };
    teacher.say({ t: 'submission', ...sub });
    teacher.say({ t: 'submission', ...sub, nickname: 'Bo', at: 6 });
    expect(teacher.store.getState().submissions.map((x) => x.nickname)).toEqual(['Ada', 'Bo']);
    expect(teacher.store.getState().announcement).toBe(
      'Bo submitted a schedule for lose-one: reached.',
    );
  });

  it('a reveal that names a question this page never saw still shows its counts', () => {
    const { store, last, say } = fakeSockets();
    store
      .getState()
      .joined({ role: 'student', code: CODE, nickname: 'Ada', token: 't'.repeat(20) });
    last().on.open();
    say({ t: 'welcome', code: CODE, title: 'Plain', role: 'student', last: 0 });
    say({
      t: 'event',
      n: 3,
      at: 0,
      e: { kind: 'reveal', question: 2, answer: null, counts: [1, 1], revealHash: null },
    });
    expect(store.getState()).toMatchObject({
      revealed: { n: 3, question: 2, counts: [1, 1], prompt: '', choices: [] },
      announcement: 'The answers are revealed.',
    });
  });
});

describe('what the browser keeps', () => {
  const memory = () => {
    const m = new Map<string, string>();
    return {
      getItem: (k: string) => m.get(k) ?? null,
      setItem: (k: string, v: string) => m.set(k, v),
      removeItem: (k: string) => m.delete(k),
    };
  };
  it("the teacher's class until it expires, and one student token per browser", () => {
    const s = memory();
    keepTeacher(s, { code: CODE, secret: SECRET, expiresAt: 100 });
    expect(keptTeacher(s, 99)).toEqual({ code: CODE, secret: SECRET, expiresAt: 100 });
    expect(keptTeacher(s, 100)).toBeNull();
    expect(s.getItem('percpu-lab:class-teacher')).toBeNull();
    const token = studentToken(s, (n) => new Uint8Array(n).fill(65));
    expect(token).toBe('B'.repeat(24));
    expect(studentToken(s, (n) => new Uint8Array(n))).toBe(token);
  });
  it('the socket is on the page’s own origin', () => {
    expect(socketUrl({ protocol: 'https:', host: 'lab.example:8443' })).toBe(
      'wss://lab.example:8443/api/socket',
    );
    expect(socketUrl({ protocol: 'http:', host: 'localhost:4310' })).toBe(
      'ws://localhost:4310/api/socket',
    );
  });
});
