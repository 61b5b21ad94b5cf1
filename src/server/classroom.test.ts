// The classroom server as its pages use it, over real sockets, on PGlite and (when
// CLASSROOM_TEST_DATABASE_URL or DATABASE_URL names one) on PostgreSQL: the same tests on both.
// Each test runs its own server on its own port (0) and its own data directory or schema.

import { afterEach, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, PROTOCOL_VERSION } from '../classroom/protocol.ts';
import { type RunningServer, type ServerOptions, startServer } from './app.ts';
import {
  Client,
  createRoom,
  protocolViolations,
  student,
  teacher,
  tokenOf,
  pgliteDir,
  TEST_DATABASE_URL,
  tempSchema,
} from './testing.ts';

interface Backend {
  readonly name: string;
  readonly skip: boolean;
  /** Options for a server on a database of the test's own, and how to remove it after. */
  make(): Promise<{
    opts: Pick<ServerOptions, 'dataDir' | 'databaseUrl'>;
    remove: () => Promise<void>;
  }>;
}

const backends: Backend[] = [
  {
    name: 'on PGlite',
    skip: false,
    async make() {
      const t = await pgliteDir();
      return {
        opts: { dataDir: t.dir },
        remove: () => {
          t.remove();
          return Promise.resolve();
        },
      };
    },
  },
  {
    name: TEST_DATABASE_URL
      ? 'on PostgreSQL'
      : 'on PostgreSQL (skipped: set CLASSROOM_TEST_DATABASE_URL or DATABASE_URL to run it)',
    skip: !TEST_DATABASE_URL,
    async make() {
      const s = await tempSchema(TEST_DATABASE_URL);
      return { opts: { dataDir: '', databaseUrl: s.url }, remove: s.drop };
    },
  },
];

const MOMENT = (i: number) => `#/step/global-plain?s=${'0'.repeat(i)}`;

describe.each(backends)('the classroom server $name', (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  /** What the servers logged: an error there is a failure even when the pages carried on. */
  const logged: unknown[] = [];
  afterEach(async () => {
    for (const f of cleanups.splice(0).reverse()) await f();
    expect(logged.splice(0)).toEqual([]);
    expect(protocolViolations.splice(0)).toEqual([]);
  });

  async function server(
    extra: Partial<ServerOptions> = {},
    db?: Awaited<ReturnType<Backend['make']>>,
  ): Promise<{ s: RunningServer; url: string; db: Awaited<ReturnType<Backend['make']>> }> {
    const d = db ?? (await backend.make());
    if (!db) cleanups.push(d.remove);
    const s = await startServer({ ...d.opts, appDir: null, log: (e) => logged.push(e), ...extra });
    let closed = false;
    const close = s.close.bind(s);
    // A test may close it itself (a restart); the cleanup closes it only if not.
    s.close = async () => {
      if (closed) return;
      closed = true;
      await close();
    };
    cleanups.push(() => s.close());
    return { s, url: `http://127.0.0.1:${s.port}`, db: d };
  }

  function track<T extends Client>(c: T): T {
    cleanups.push(() => c.close());
    return c;
  }

  it.skipIf(backend.skip)('creates a room, tells it by code, and says it is here', async () => {
    const { url, s } = await server();
    const health = await fetch(`${url}/api/health`);
    expect(await health.json()).toEqual({
      ok: true,
      protocol: PROTOCOL_VERSION,
      database: s.db.kind,
    });
    expect(health.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(health.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    const room = await createRoom(url, 'Lost updates');
    expect(room.code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/);
    expect(room.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const info = await fetch(`${url}/api/rooms/${room.code}`);
    expect(await info.json()).toEqual({ code: room.code, title: 'Lost updates', ended: false });
    expect((await fetch(`${url}/api/rooms/ZZZZZZ`)).status).toBe(404);
    const bad = await fetch(`${url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(121) }),
    });
    expect(bad.status).toBe(400);
    // Only the secret's hash is kept.
    const rows = await s.db.query<{ secret_hash: string }>('SELECT secret_hash FROM rooms');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.secret_hash).not.toContain(room.secret);
  });

  it.skipIf(backend.skip)('limits the rooms one address creates', async () => {
    const { url } = await server({ createLimit: { burst: 2, perHour: 1 } });
    await createRoom(url);
    await createRoom(url);
    const third = await fetch(`${url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(third.status).toBe(429);
    expect(((await third.json()) as { error: string }).error).toMatch(/too many rooms/);
  });

  it.skipIf(backend.skip)(
    "brings the teacher's moments to every student, in order, once",
    async () => {
      const { url } = await server();
      const room = await createRoom(url);
      const t = track(await teacher(url, room));
      const a = track(await student(url, room, 'ada'));
      const b = track(await student(url, room, 'bob'));
      for (let i = 1; i <= 10; i++) t.send({ t: 'moment', hash: MOMENT(i) });
      for (const c of [t, a, b]) {
        await c.until((x) => x.eventNumbers().length === 10, 'ten events');
        expect(c.eventNumbers()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        expect(c.all('event').map((m) => m.e)).toEqual(
          Array.from({ length: 10 }, (_, i) => ({ kind: 'moment', hash: MOMENT(i + 1) })),
        );
      }
      // A late joiner gets the whole history, and says how far it goes in welcome.
      const late = track(await student(url, room, 'cy'));
      expect(late.all('welcome')[0]?.last).toBe(10);
      await late.until((x) => x.eventNumbers().length === 10, 'the history');
      expect(late.eventNumbers()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    },
  );

  it.skipIf(backend.skip)('takes a room full no further, but a student it knows back', async () => {
    const { url } = await server({ maxStudents: 2 });
    const room = await createRoom(url);
    const t = track(await teacher(url, room));
    const a = await student(url, room, 'ada');
    track(await student(url, room, 'bob'));
    const cy = track(await Client.open(url));
    cy.send({
      t: 'hello',
      v: PROTOCOL_VERSION,
      role: 'student',
      code: room.code,
      nickname: 'cy',
      token: tokenOf('cy'),
      since: 0,
    });
    const full = await cy.next('error');
    expect(full).toEqual({
      t: 'error',
      code: 'room-full',
      message: 'this class has its 2 students: ask the teacher',
    });
    // Ada's phone drops and comes back: she is one of the two, not a third.
    await a.close();
    track(await student(url, room, 'ada'));
    await t.next(
      'roster',
      (m) =>
        m.students.map((s) => `${s.nickname}:${String(s.online)}`).join() === 'ada:true,bob:true',
    );
    expect(t.all('roster').every((m) => m.students.length <= 2)).toBe(true);
  });

  it.skipIf(backend.skip)('resumes a reconnecting page after the last event it saw', async () => {
    const { url } = await server();
    const room = await createRoom(url);
    const t = track(await teacher(url, room));
    const a = await student(url, room, 'ada');
    for (let i = 1; i <= 3; i++) t.send({ t: 'moment', hash: MOMENT(i) });
    await a.until((x) => x.eventNumbers().length === 3);
    await a.close();
    for (let i = 4; i <= 6; i++) t.send({ t: 'moment', hash: MOMENT(i) });
    await t.until((x) => x.eventNumbers().length === 6);
    const again = track(await student(url, room, 'ada', 3));
    await again.until((x) => x.eventNumbers().length === 3, 'events 4 to 6');
    t.send({ t: 'moment', hash: MOMENT(7) });
    await again.until((x) => x.eventNumbers().length === 4, 'event 7');
    expect(again.eventNumbers()).toEqual([4, 5, 6, 7]);
  });

  it.skipIf(backend.skip)(
    'resumes every page after the server restarts on the same data',
    async () => {
      const first = await server();
      const room = await createRoom(first.url);
      const t = await teacher(first.url, room);
      const a = await student(first.url, room, 'ada');
      t.send({ t: 'moment', hash: MOMENT(1) });
      t.send({
        t: 'ask',
        question: {
          prompt: 'Which?',
          choices: ['0', '1'],
          seconds: 60,
          answer: 1,
          revealHash: MOMENT(9),
        },
      });
      await a.until((x) => x.eventNumbers().length === 2);
      a.send({ t: 'answer', question: 2, choice: 1 });
      await a.next('answered');
      await first.s.close();
      expect(await t.closed()).toBe(1001);
      expect(await a.closed()).toBe(1001);

      const second = await server({}, first.db);
      const t2 = track(await teacher(second.url, room, 2));
      const a2 = track(await student(second.url, room, 'ada', 2));
      // The open question and its answer survived: the reveal counts ada's answer.
      t2.send({ t: 'reveal' });
      await a2.until((x) => x.eventNumbers().length === 1, 'the reveal');
      expect(a2.all('event')[0]).toMatchObject({
        n: 3,
        e: { kind: 'reveal', question: 2, answer: 1, counts: [0, 1], revealHash: MOMENT(9) },
      });
      expect(t2.eventNumbers()).toEqual([3]);
      // And a student who missed everything catches up from the database.
      const b = track(await student(second.url, room, 'bob'));
      await b.until((x) => x.eventNumbers().length === 3);
      expect(b.eventNumbers()).toEqual([1, 2, 3]);
    },
  );

  it.skipIf(backend.skip)("refuses a student's (or a stranger's) teacher moves", async () => {
    const { url } = await server();
    const room = await createRoom(url);
    const t = track(await teacher(url, room));
    const a = track(await student(url, room, 'ada'));
    a.send({ t: 'moment', hash: MOMENT(1) });
    a.send({
      t: 'ask',
      question: { prompt: 'Q', choices: ['x', 'y'], seconds: 30, answer: 0, revealHash: null },
    });
    a.send({ t: 'reveal' });
    a.send({ t: 'end' });
    await a.until((x) => x.errors('not-allowed').length === 4, 'four refusals');
    const stranger = track(await Client.open(url));
    stranger.send({ t: 'moment', hash: MOMENT(1) });
    await stranger.next('error', (m) => m.code === 'not-allowed');
    const wrong = track(await Client.open(url));
    wrong.send({
      t: 'hello',
      v: 1,
      role: 'teacher',
      code: room.code,
      secret: 'A'.repeat(43),
      since: 0,
    });
    await wrong.next('error', (m) => m.code === 'not-allowed');
    wrong.send({ t: 'moment', hash: MOMENT(1) });
    await wrong.until((x) => x.errors('not-allowed').length === 2);
    // Nothing was applied: the next event the teacher makes is number 1.
    t.send({ t: 'moment', hash: MOMENT(2) });
    await a.until((x) => x.eventNumbers().length === 1);
    expect(a.all('event')[0]).toMatchObject({ n: 1, e: { kind: 'moment', hash: MOMENT(2) } });
    expect(t.eventNumbers()).toEqual([1]);
    const info = (await (await fetch(`${url}/api/rooms/${room.code}`)).json()) as {
      ended: boolean;
    };
    expect(info.ended).toBe(false);
  });

  it.skipIf(backend.skip)(
    'refuses bad and oversized messages, and cuts off huge frames',
    async () => {
      const { url } = await server();
      const room = await createRoom(url);
      const c = track(await Client.open(url));
      c.send('not json');
      c.send({
        t: 'hello',
        v: 1,
        role: 'student',
        code: 'lower!',
        nickname: 'a',
        token: 'x'.repeat(20),
        since: 0,
      });
      c.send({
        t: 'hello',
        v: 2,
        role: 'student',
        code: room.code,
        nickname: 'a',
        token: 'x'.repeat(20),
        since: 0,
      });
      await c.until((x) => x.errors('bad-message').length === 3, 'three refusals');
      expect(c.errors('bad-message')[2]?.message).toMatch(/protocol 1: reload/);
      const t = track(await teacher(url, room));
      t.send({ t: 'moment', hash: 'https://elsewhere.example/' });
      t.send({ t: 'moment', hash: MOMENT(1), extra: true });
      t.send({
        t: 'ask',
        question: { prompt: 'Q', choices: ['x', 'y'], seconds: 30, answer: 2, revealHash: null },
      });
      await t.until((x) => x.errors('bad-message').length === 3);
      expect(t.errors('bad-message')[2]?.message).toBe('the answer must be one of the 2 choices');
      t.send({ t: 'moment', hash: `#/step/global-plain?s=${'0'.repeat(MAX_MESSAGE_BYTES)}` });
      await t.next('error', (m) => m.code === 'too-large');
      // The socket stays open for the next, sound message.
      t.send({ t: 'moment', hash: MOMENT(1) });
      await t.until((x) => x.eventNumbers().length === 1);
      expect(t.eventNumbers()).toEqual([1]);
      const huge = track(await Client.open(url));
      huge.send('x'.repeat(2 * MAX_MESSAGE_BYTES + 1));
      expect(await huge.closed()).toBe(1009);
    },
  );

  it.skipIf(backend.skip)('slows a flooding socket down, then cuts it off', async () => {
    // The clock stands still, so the bucket never refills: exactly 40 messages get through.
    const { url } = await server({ now: () => 1_800_000_000_000 });
    const c = track(await Client.open(url));
    for (let i = 0; i < 100; i++) c.send({ t: 'answer', question: 1, choice: 0 });
    await c.until((x) => x.errors().length === 41, '40 answers and one slow-down');
    expect(c.errors('not-allowed')).toHaveLength(40);
    expect(c.errors('slow-down')).toHaveLength(1);
    expect(c.closeCode).toBe(null);
    // 60 dropped so far; 140 more make 200 dropped, and the socket goes.
    for (let i = 0; i < 140; i++) c.send({ t: 'answer', question: 1, choice: 0 });
    expect(await c.closed()).toBe(1008);
    expect(c.errors('bye')).toHaveLength(1);
    expect(c.errors('slow-down')).toHaveLength(1);
  });

  it.skipIf(backend.skip)('shows names to the teacher only; students see a count', async () => {
    const { url } = await server();
    const room = await createRoom(url);
    const t = track(await teacher(url, room));
    const a = track(await student(url, room, 'ada'));
    const b = await student(url, room, 'bob');
    await t.next('roster', (m) => m.students.length === 2 && m.students.every((s) => s.online));
    await a.next('present', (m) => m.students === 2);
    await b.close();
    await t.next(
      'roster',
      (m) =>
        JSON.stringify(m.students) ===
        JSON.stringify([
          { nickname: 'ada', online: true },
          { nickname: 'bob', online: false },
        ]),
    );
    await a.next('present', (m) => m.students === 1);
    for (const m of a.messages) expect(JSON.stringify(m)).not.toContain('bob');
    expect(a.all('roster')).toEqual([]);
  });

  it.skipIf(backend.skip)(
    "takes a dead process's students offline when its heartbeat stops",
    async () => {
      const { url, s } = await server({ heartbeatMs: 100 });
      const room = await createRoom(url);
      const t = track(await teacher(url, room));
      track(await student(url, room, 'ada'));
      await t.next('roster', (m) => m.students[0]?.online === true);
      // As if ada's socket were held by another process, killed without closing it.
      await s.db.query("INSERT INTO processes (id, seen) VALUES ('killed', 0)");
      await s.db.query("UPDATE connections SET process = 'killed'");
      await t.next('roster', (m) => m.students[0]?.online === false);
      expect(await s.db.query("SELECT id FROM processes WHERE id = 'killed'")).toEqual([]);
    },
  );

  it.skipIf(backend.skip)(
    'tallies answers exactly, keeps the answer hidden, and reveals the counts',
    async () => {
      let clock = 1_800_000_000_000;
      const { url } = await server({ now: () => clock });
      const room = await createRoom(url);
      const t = track(await teacher(url, room));
      const names = ['ada', 'bob', 'cy', 'dee', 'eve'];
      const students = await Promise.all(names.map((n) => student(url, room, n)));
      for (const s of students) track(s);
      t.send({
        t: 'ask',
        question: {
          prompt: 'What does sum() return?',
          choices: ['2', '3', '4'],
          seconds: 30,
          answer: 1,
          revealHash: MOMENT(5),
        },
      });
      for (const s of students) await s.until((x) => x.eventNumbers().length === 1);
      const ask = students[0]?.all('event')[0];
      expect(ask?.e).toEqual({
        kind: 'ask',
        prompt: 'What does sum() return?',
        choices: ['2', '3', '4'],
        seconds: 30,
        closesAt: clock + 30_000,
      });
      const picks = [0, 1, 1, 2, 1];
      picks.forEach((p, i) => students[i]?.send({ t: 'answer', question: 1, choice: p }));
      for (const [i, s] of students.entries())
        expect(await s.next('answered')).toEqual({ t: 'answered', question: 1, choice: picks[i] });
      // ada changes her mind while the question is open: her answer replaces the first.
      students[0]?.send({ t: 'answer', question: 1, choice: 2 });
      await students[0]?.next('answered', (m) => m.choice === 2);
      await t.next('tally', (m) => m.answered === 5 && m.counts.join() === '0,3,2');
      // Not a choice of this question; not the open question.
      students[1]?.send({ t: 'answer', question: 1, choice: 5 });
      students[1]?.send({ t: 'answer', question: 7, choice: 0 });
      await students[1]?.until((x) => x.errors('no-question').length === 2);
      // Time is up: answers are refused, and the reveal counts what came in time.
      clock += 30_001;
      students[2]?.send({ t: 'answer', question: 1, choice: 0 });
      await students[2]?.next('error', (m) => m.code === 'no-question');
      t.send({ t: 'reveal' });
      for (const c of [t, ...students]) {
        const r = await c.next('event', (m) => m.n === 2);
        expect(r.e).toEqual({
          kind: 'reveal',
          question: 1,
          answer: 1,
          counts: [0, 3, 2],
          revealHash: MOMENT(5),
        });
      }
      t.send({ t: 'reveal' });
      await t.next('error', (m) => m.code === 'no-question');
      for (const s of students) expect(s.all('tally')).toEqual([]);
    },
  );

  it.skipIf(backend.skip)(
    'judges a submitted schedule with the lab, for the student and the teacher',
    async () => {
      const { url } = await server();
      const room = await createRoom(url);
      const t = track(await teacher(url, room));
      const a = track(await student(url, room, 'ada'));
      a.send({ t: 'submit', challenge: 'lose-one', schedule: '0 1 0 1 0 0 1 1' });
      expect((await a.next('judged')).verdict.kind).toBe('invalid');
      t.send({ t: 'moment', hash: '#/step/global-plain?cpus=2' });
      await a.until((x) => x.eventNumbers().length === 1);
      // global-plain's "lose-one": its lesson's own solution loses an update; one CPU after the
      // other does not.
      a.send({ t: 'submit', challenge: 'lose-one', schedule: '0 1 0 1 0 0 1 1' });
      a.send({ t: 'submit', challenge: 'lose-one', schedule: '0 0 0 0 1 1 1 1' });
      a.send({ t: 'submit', challenge: 'lose-one', schedule: '0 1 0 1' });
      a.send({ t: 'submit', challenge: 'no-such', schedule: '0' });
      await a.until((x) => x.all('judged').length === 5, 'five verdicts');
      expect(
        a
          .all('judged')
          .slice(1)
          .map((m) => m.verdict.kind),
      ).toEqual(['reached', 'missed', 'missed', 'invalid']);
      expect(a.all('judged')[3]?.verdict.summary).toMatch(/not finished/);
      expect(a.all('judged')[4]?.verdict.summary).toBe(
        'global-plain has no challenge named "no-such"',
      );
      await t.until((x) => x.all('submission').length === 5, 'five submissions');
      // In the order they were sent, as the teacher's list shows them.
      expect(t.all('submission').map((m) => m.schedule)).toEqual([
        '0 1 0 1 0 0 1 1',
        '0 1 0 1 0 0 1 1',
        '0 0 0 0 1 1 1 1',
        '0 1 0 1',
        '0',
      ]);
      expect(t.all('submission')[1]).toMatchObject({
        nickname: 'ada',
        challenge: 'lose-one',
        schedule: '0 1 0 1 0 0 1 1',
        verdict: { kind: 'reached' },
      });
    },
  );

  it.skipIf(backend.skip)('ends a room: no more answers, and pages are told', async () => {
    const { url } = await server();
    const room = await createRoom(url);
    const t = track(await teacher(url, room));
    const a = track(await student(url, room, 'ada'));
    t.send({ t: 'end' });
    await a.next('event', (m) => m.e.kind === 'end');
    a.send({ t: 'submit', challenge: 'lose-one', schedule: '0' });
    await a.next('error', (m) => m.code === 'room-ended');
    t.send({ t: 'moment', hash: MOMENT(1) });
    await t.next('error', (m) => m.code === 'room-ended');
    expect(await (await fetch(`${url}/api/rooms/${room.code}`)).json()).toEqual({
      code: room.code,
      title: 'Lecture 4',
      ended: true,
    });
  });

  it.skipIf(backend.skip)(
    'deletes a room, and all it holds, a set time after its last activity',
    async () => {
      let clock = 1_800_000_000_000;
      const { url, s } = await server({ now: () => clock, roomHours: 12 });
      const old = await createRoom(url);
      const t = await teacher(url, old);
      const a = await student(url, old, 'ada');
      a.send({ t: 'submit', challenge: 'lose-one', schedule: '0' });
      await a.next('judged');
      t.send({ t: 'moment', hash: MOMENT(1) });
      await a.until((x) => x.eventNumbers().length === 1);
      track(t);
      await a.close();
      clock += 11 * 3_600_000;
      const recent = await createRoom(url);
      expect(await s.sweep()).toBe(0);
      clock += 1 * 3_600_000 + 1;
      // Expired, though not yet swept: already gone to the pages, and the teacher's socket
      // still open there moves it no more.
      expect((await fetch(`${url}/api/rooms/${old.code}`)).status).toBe(404);
      t.send({ t: 'moment', hash: MOMENT(2) });
      await t.next('error', (m) => m.code === 'no-room');
      expect(t.eventNumbers()).toEqual([1]);
      expect(await s.sweep()).toBe(1);
      expect((await fetch(`${url}/api/rooms/${recent.code}`)).status).toBe(200);
      for (const table of ['events', 'students', 'answers', 'submissions'])
        expect(await s.db.query(`SELECT 1 FROM ${table} WHERE room = $1`, [old.code])).toEqual([]);
      const late = track(await Client.open(url));
      late.send({
        t: 'hello',
        v: 1,
        role: 'student',
        code: old.code,
        nickname: 'z',
        token: 'z'.repeat(20),
        since: 0,
      });
      await late.next('error', (m) => m.code === 'no-room');
    },
  );
});
