// This process's sockets, by room, and what reaches them. Every change a page must hear of is a
// NOTIFY from the database (rooms.ts), heard by every process on it, this one included: each
// process then reads the change from the database and pushes it to its own sockets of that
// room. So a teacher on one process moves the students on another, and a restarted process
// has nothing to rebuild but its sockets.
//
// Events reach each socket in order and once: a socket remembers the last event number it was
// sent, and a room's event push reads every event after the smallest of its sockets' numbers
// and sends each socket those after its own. A hello's `since` is where a socket starts.

import type { WebSocket } from '@fastify/websocket';
import type { ServerMessage } from '../classroom/protocol.ts';
import { Coalescer } from './coalesce.ts';
import type { Db } from './db.ts';
import { type Change, eventsSince, findRoom, presentCount, roster, tally } from './rooms.ts';

export interface Conn {
  readonly socket: WebSocket;
  readonly room: string;
  readonly role: 'teacher' | 'student';
  /** The student's row (null for the teacher). */
  readonly student: number | null;
  /** The last event number this socket was sent. */
  lastSent: number;
}

export function send(socket: WebSocket, msg: ServerMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
}

export class Hub {
  private readonly rooms = new Map<string, Set<Conn>>();
  private readonly jobs: Coalescer;
  /** Presence is pushed at most every 200 ms: a class joining at once gets a few rosters. */
  private readonly presence: Coalescer;
  /**
   * Per room, the submissions being pushed, one after another in the order they were heard
   * (their commits' order): each push reads its row first, and reads that ran side by side
   * reached the teacher in whatever order they finished.
   */
  private readonly submissions = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly log: (e: unknown) => void,
  ) {
    this.jobs = new Coalescer(log);
    this.presence = new Coalescer(log, 200);
  }

  add(conn: Conn): void {
    let set = this.rooms.get(conn.room);
    if (!set) this.rooms.set(conn.room, (set = new Set()));
    set.add(conn);
  }

  remove(conn: Conn): void {
    const set = this.rooms.get(conn.room);
    set?.delete(conn);
    if (set?.size === 0) this.rooms.delete(conn.room);
  }

  /** How many sockets this process holds. */
  get size(): number {
    let n = 0;
    for (const s of this.rooms.values()) n += s.size;
    return n;
  }

  get busy(): boolean {
    return this.jobs.busy || this.presence.busy || this.submissions.size > 0;
  }

  /** A notification's payload: `<change>:<code>[:<extra>]`. */
  heard(payload: string): void {
    const [change, code, extra] = payload.split(':') as [Change, string, string | undefined];
    if (!code || !this.rooms.has(code)) return;
    switch (change) {
      case 'e':
        this.pushEvents(code);
        return;
      case 'a':
        this.jobs.run(`a:${code}`, () => this.pushTally(code));
        return;
      case 'p':
        this.presence.run(code, () => this.pushPresence(code));
        return;
      case 's':
        if (extra) this.afterSubmissions(code, () => this.pushSubmission(code, +extra));
        return;
    }
  }

  /** Runs `push` after the room's submissions heard before it have been pushed. */
  private afterSubmissions(code: string, push: () => Promise<void>): void {
    const next = (this.submissions.get(code) ?? Promise.resolve()).then(push).catch(this.log);
    this.submissions.set(code, next);
    void next.then(() => {
      if (this.submissions.get(code) === next) this.submissions.delete(code);
    });
  }

  /** Sends every socket of the room the events after its last one. */
  pushEvents(code: string): void {
    this.jobs.run(`e:${code}`, async () => {
      const conns = [...(this.rooms.get(code) ?? [])];
      if (conns.length === 0) return;
      const from = Math.min(...conns.map((c) => c.lastSent));
      const events = await eventsSince(this.db, code, from);
      for (const c of conns) {
        for (const ev of events) {
          if (ev.n <= c.lastSent) continue;
          send(c.socket, { t: 'event', n: ev.n, at: ev.at, e: ev.body });
          c.lastSent = ev.n;
        }
      }
    });
  }

  private teachers(code: string): Conn[] {
    return [...(this.rooms.get(code) ?? [])].filter((c) => c.role === 'teacher');
  }

  private async pushTally(code: string): Promise<void> {
    const teachers = this.teachers(code);
    if (teachers.length === 0) return;
    const room = await findRoom(this.db, code);
    if (room?.open_question == null) return;
    const t = await tally(this.db, code, room.open_question);
    for (const c of teachers) send(c.socket, { t: 'tally', question: room.open_question, ...t });
  }

  async pushPresence(code: string): Promise<void> {
    const conns = [...(this.rooms.get(code) ?? [])];
    const teachers = conns.filter((c) => c.role === 'teacher');
    const students = conns.filter((c) => c.role === 'student');
    if (teachers.length > 0) {
      const list = await roster(this.db, code);
      for (const c of teachers) send(c.socket, { t: 'roster', students: list });
    }
    if (students.length > 0) {
      const n = await presentCount(this.db, code);
      for (const c of students) send(c.socket, { t: 'present', students: n });
    }
  }

  private async pushSubmission(code: string, id: number): Promise<void> {
    const teachers = this.teachers(code);
    if (teachers.length === 0) return;
    const [row] = await this.db.query<{
      nickname: string;
      challenge: string;
      schedule: string;
      verdict: Extract<ServerMessage, { t: 'judged' }>['verdict'];
      at: number;
    }>(
      `SELECT st.nickname, su.challenge, su.schedule, su.verdict, su.at
       FROM submissions su JOIN students st ON st.id = su.student WHERE su.id = $1 AND su.room = $2`,
      [id, code],
    );
    if (!row) return;
    for (const c of teachers)
      send(c.socket, {
        t: 'submission',
        nickname: row.nickname,
        challenge: row.challenge,
        schedule: row.schedule,
        verdict: row.verdict,
        at: row.at,
      });
  }
}
