// One socket's side of the protocol (src/classroom/protocol.ts): the hello that says who it is,
// then the teacher's or the student's messages, each checked before anything is applied.
// Messages are handled one at a time in the order they came, so a teacher's moves are applied
// in order. Only a hello with the room's secret makes a teacher: anything a teacher may send,
// from a student or from a socket that has not said hello, is refused with `not-allowed`.
//
// Flooding: each socket has a token bucket (20 messages a second, 40 at once). A message over
// it is dropped and the first drop of a run says `slow-down`; a socket that keeps on (200
// dropped within 10 s) is sent `bye` and closed with 1008 (policy violation).
//
// A socket that says no hello within 15 s is closed (1008): it holds a connection and nothing
// else. Every 30 s the server pings each socket; one that has not answered the last ping (a
// phone that left the network without closing) is cut, so the roster shows it offline.

import * as v from 'valibot';
import type { WebSocket } from '@fastify/websocket';
import {
  Hello,
  MAX_MESSAGE_BYTES,
  PROTOCOL_VERSION,
  type ServerMessage,
  StudentMessage,
  TeacherMessage,
} from '../classroom/protocol.ts';
import type { Db } from './db.ts';
import { type Conn, type Hub, send } from './hub.ts';
import { judge } from './judge.ts';
import * as rooms from './rooms.ts';
import { TokenBucket } from './tokenBucket.ts';

export interface FloodLimits {
  /** Messages a second a socket may keep up. */
  readonly rate: number;
  /** Messages a socket may send at once. */
  readonly burst: number;
  /** Dropped messages within `windowMs` that close the socket. */
  readonly cutoff: number;
  readonly windowMs: number;
}

export const FLOOD: FloodLimits = { rate: 20, burst: 40, cutoff: 200, windowMs: 10_000 };

export interface Liveness {
  /** How long a socket may take to say hello (ms). */
  readonly helloMs: number;
  /** How often each socket is pinged (ms); one silent for a whole period is cut. */
  readonly pingMs: number;
}

export const LIVENESS: Liveness = { helloMs: 15_000, pingMs: 30_000 };

export interface ConnectionDeps {
  readonly db: Db;
  readonly hub: Hub;
  readonly processId: string;
  readonly now: () => number;
  readonly flood: FloodLimits;
  readonly liveness: Liveness;
  /** Whether a room idle since `lastActivity` has expired (it may not be swept yet). */
  readonly expired: (lastActivity: number) => boolean;
  /** The last activity a room must have had to be live now. */
  readonly activeSince: () => number;
  /** The most students a room takes (one it knows always comes back). */
  readonly maxStudents: number;
  readonly log: (e: unknown) => void;
}

type ErrorCode = Extract<ServerMessage, { t: 'error' }>['code'];

function refuse(socket: WebSocket, code: ErrorCode, message: string): void {
  send(socket, { t: 'error', code, message });
}

/**
 * Handles one socket from its opening to its close. Resolves once the socket has closed and
 * its last message and its goodbye (its presence row) are done with the database.
 */
export function handleConnection(socket: WebSocket, deps: ConnectionDeps): Promise<void> {
  const { db, hub, now } = deps;
  const bucket = new TokenBucket(deps.flood.rate, deps.flood.burst, now());
  let warned = false;
  let drops: number[] = [];
  let conn: Conn | null = null;
  let connectionRow: number | null = null;
  let closed = false;
  let chain: Promise<void> = Promise.resolve();

  socket.on('message', (data, isBinary) => {
    if (closed) return;
    const t = now();
    if (!bucket.take(t)) {
      drops = drops.filter((d) => d > t - deps.flood.windowMs);
      drops.push(t);
      if (drops.length >= deps.flood.cutoff) {
        refuse(socket, 'bye', 'too many messages: this socket is closed');
        closed = true;
        socket.close(1008, 'flooding');
        return;
      }
      if (!warned) refuse(socket, 'slow-down', 'too many messages: some were dropped');
      warned = true;
      return;
    }
    warned = false;
    const bytes = Array.isArray(data) ? data.reduce((s, b) => s + b.length, 0) : data.byteLength;
    if (bytes > MAX_MESSAGE_BYTES) {
      refuse(socket, 'too-large', `a message is at most ${MAX_MESSAGE_BYTES} bytes`);
      return;
    }
    if (isBinary) {
      refuse(socket, 'bad-message', 'messages are JSON text');
      return;
    }
    const text = Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : Buffer.from(data as Buffer).toString('utf8');
    chain = chain.then(() =>
      handle(text).catch((e: unknown) => {
        deps.log(e);
        refuse(socket, 'bad-message', 'the server could not apply this message');
      }),
    );
  });

  const helloTimer = setTimeout(() => {
    if (conn || closed) return;
    refuse(socket, 'bad-message', 'no hello: this socket is closed');
    closed = true;
    socket.close(1008, 'no hello');
  }, deps.liveness.helloMs);
  let answered = true;
  socket.on('pong', () => {
    answered = true;
  });
  const pinger = setInterval(() => {
    if (!answered) {
      socket.terminate();
      return;
    }
    answered = false;
    socket.ping();
  }, deps.liveness.pingMs);

  let finished: () => void = () => undefined;
  const done = new Promise<void>((r) => (finished = r));
  socket.on('close', () => {
    closed = true;
    clearTimeout(helloTimer);
    clearInterval(pinger);
    chain = chain
      .then(async () => {
        if (!conn) return;
        hub.remove(conn);
        if (connectionRow !== null) {
          await db.transaction(async (tx) => {
            await tx.query('DELETE FROM connections WHERE id = $1', [connectionRow]);
            await rooms.notify(tx, 'p', conn?.room ?? '');
          });
        }
      })
      .catch(deps.log)
      .finally(finished);
  });

  async function handle(text: string): Promise<void> {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      refuse(socket, 'bad-message', 'a message is one JSON object');
      return;
    }
    if (!conn) {
      const hello = v.safeParse(Hello, value);
      if (hello.success) {
        await helloed(hello.output);
        return;
      }
      if (v.is(TeacherMessage, value) || v.is(StudentMessage, value)) {
        refuse(socket, 'not-allowed', 'say hello first: who are you?');
        return;
      }
      const version = (value as { v?: unknown } | null)?.v;
      refuse(
        socket,
        'bad-message',
        version !== undefined && version !== PROTOCOL_VERSION
          ? `this server speaks protocol ${PROTOCOL_VERSION}: reload the page`
          : `expected hello: ${v.summarize(hello.issues)}`,
      );
      return;
    }
    if (conn.role === 'teacher') {
      const m = v.safeParse(TeacherMessage, value);
      if (m.success) await teacher(conn, m.output);
      else if (v.is(StudentMessage, value))
        refuse(socket, 'not-allowed', 'a teacher does not answer');
      else refuse(socket, 'bad-message', v.summarize(m.issues));
      return;
    }
    const m = v.safeParse(StudentMessage, value);
    if (m.success) await student(conn, m.output);
    else if (v.is(TeacherMessage, value) || v.is(Hello, value))
      refuse(socket, 'not-allowed', 'only the teacher moves the room');
    else refuse(socket, 'bad-message', v.summarize(m.issues));
  }

  async function helloed(hello: v.InferOutput<typeof Hello>): Promise<void> {
    const room = await rooms.findRoom(db, hello.code);
    if (!room || deps.expired(room.last_activity)) {
      refuse(socket, 'no-room', `there is no room ${hello.code} (it may have expired)`);
      socket.close(1000, 'no room');
      return;
    }
    // A page that says it saw more than the room holds (a code reused after expiry) is taken
    // to have seen it all: it gets the events that come next, numbered after welcome's `last`,
    // never a gap it would wait on for ever.
    const since = Math.min(hello.since, room.last_n);
    if (hello.role === 'teacher') {
      if (!rooms.secretMatches(room, hello.secret)) {
        refuse(socket, 'not-allowed', "this is not the room's teacher secret");
        return;
      }
      conn = { socket, room: room.code, role: 'teacher', student: null, lastSent: since };
    } else {
      const joined = await rooms.joinStudent(
        db,
        room.code,
        hello.token,
        hello.nickname,
        now(),
        deps.processId,
        deps.maxStudents,
      );
      if (joined === null) {
        refuse(
          socket,
          'room-full',
          `this class has its ${String(deps.maxStudents)} students: ask the teacher`,
        );
        socket.close(1000, 'room full');
        return;
      }
      connectionRow = joined.connection;
      conn = {
        socket,
        room: room.code,
        role: 'student',
        student: joined.student,
        lastSent: since,
      };
    }
    if (closed) return;
    send(socket, {
      t: 'welcome',
      code: room.code,
      title: room.title,
      role: conn.role,
      last: room.last_n,
    });
    hub.add(conn);
    hub.pushEvents(room.code);
    // The join's own notification may come before this socket was added: push presence anyway.
    hub.heard(`p:${room.code}`);
    if (conn.role === 'teacher') {
      // The teacher sees the roster at once, and the open question's tally if one is open.
      await hub.pushPresence(room.code);
      hub.heard(`a:${room.code}`);
    }
  }

  /** The room, if it is still there and not ended; else says why not. */
  async function liveRoom(code: string): Promise<rooms.RoomRow | null> {
    const room = await rooms.findRoom(db, code);
    if (!room || deps.expired(room.last_activity)) {
      refuse(socket, 'no-room', `the room ${code} has expired`);
      return null;
    }
    if (room.ended !== null) {
      refuse(socket, 'room-ended', 'the class has ended');
      return null;
    }
    return room;
  }

  async function teacher(c: Conn, m: TeacherMessage): Promise<void> {
    const t = now();
    if (m.t === 'moment') {
      // Checked and appended in one statement; only a refusal asks the room why.
      const moment = { kind: 'moment', hash: m.hash } as const;
      if ((await rooms.appendIfLive(db, c.room, moment, t, deps.activeSince())) === null)
        await liveRoom(c.room);
      return;
    }
    if (!(await liveRoom(c.room))) return;
    switch (m.t) {
      case 'ask':
        // The schema caps the answer at the most choices a question may have; this question's
        // own count is known only here.
        if (m.question.answer !== null && m.question.answer >= m.question.choices.length) {
          refuse(
            socket,
            'bad-message',
            `the answer must be one of the ${String(m.question.choices.length)} choices`,
          );
          return;
        }
        await rooms.ask(db, c.room, m.question, t);
        return;
      case 'reveal':
        if ((await rooms.reveal(db, c.room, t)) === null)
          refuse(socket, 'no-question', 'no question has been asked since the last reveal');
        return;
      case 'end':
        await rooms.end(db, c.room, t);
        return;
    }
  }

  async function student(c: Conn, m: StudentMessage): Promise<void> {
    if (c.student === null) return;
    const t = now();
    if (m.t === 'answer') {
      // Counted first, asked why not only when not: the common case is one statement.
      if (await rooms.answer(db, c.room, c.student, m.question, m.choice, t))
        send(socket, { t: 'answered', question: m.question, choice: m.choice });
      else if (await liveRoom(c.room))
        refuse(socket, 'no-question', 'that question is not open (or not one of its choices)');
      return;
    }
    if (!(await liveRoom(c.room))) return;
    const hash = await rooms.currentHash(db, c.room);
    const verdict = judge(hash, m.challenge, m.schedule);
    const studentId = c.student;
    await db.transaction(async (tx) => {
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO submissions (room, student, challenge, schedule, verdict, at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [c.room, studentId, m.challenge, m.schedule, JSON.stringify(verdict), t],
      );
      await rooms.touch(tx, c.room, t);
      await rooms.notify(tx, 's', c.room, String(row?.id));
    });
    send(socket, { t: 'judged', challenge: m.challenge, verdict });
  }

  return done;
}
