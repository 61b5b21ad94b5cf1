// A room's data in the database: every read and write the server makes, as SQL both databases
// run. The database is the truth: a room's state (its numbered events, the open question, its
// students and answers) lives here, so a restarted server, or another process on the same
// PostgreSQL, carries on from it. Each write that other pages must hear of sends a NOTIFY on
// the `classroom` channel in its own transaction (delivered at commit, to every process).

import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  CODE_ALPHABET,
  CODE_LENGTH,
  type Question,
  type RoomEvent,
} from '../classroom/protocol.ts';
import type { Db, Queryable } from './db.ts';

export const CHANNEL = 'classroom';

/** What a notification says changed: events, answers (tallies), who is present, a submission. */
export type Change = 'e' | 'a' | 'p' | 's';

export function notify(q: Queryable, change: Change, code: string, extra = ''): Promise<unknown> {
  return q.query('SELECT pg_notify($1, $2)', [CHANNEL, `${change}:${code}${extra && `:${extra}`}`]);
}

export function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

function newCode(): string {
  let s = '';
  for (let i = 0; i < CODE_LENGTH; i++) s += CODE_ALPHABET.charAt(randomInt(CODE_ALPHABET.length));
  return s;
}

export interface RoomRow {
  code: string;
  secret_hash: string;
  title: string;
  created: number;
  last_activity: number;
  ended: number | null;
  last_n: number;
  open_question: number | null;
  closes_at: number | null;
}

/** Creates a room; the secret is returned once and only its hash is kept. */
export async function createRoom(
  db: Db,
  title: string,
  now: number,
): Promise<{ code: string; secret: string }> {
  const secret = randomBytes(32).toString('base64url');
  for (;;) {
    const code = newCode();
    const rows = await db.query(
      `INSERT INTO rooms (code, secret_hash, title, created, last_activity)
       VALUES ($1, $2, $3, $4, $4) ON CONFLICT (code) DO NOTHING RETURNING code`,
      [code, sha256(secret), title, now],
    );
    if (rows.length === 1) return { code, secret };
  }
}

export async function findRoom(q: Queryable, code: string): Promise<RoomRow | null> {
  const rows = await q.query<RoomRow & Record<string, unknown>>(
    'SELECT * FROM rooms WHERE code = $1',
    [code],
  );
  return rows[0] ?? null;
}

/** Whether `secret` is the room's teacher secret (compared in constant time). */
export function secretMatches(room: RoomRow, secret: string): boolean {
  const a = Buffer.from(room.secret_hash, 'hex');
  const b = Buffer.from(sha256(secret), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Appends the room's next event, numbered under the room row's lock (so two processes never
 * take one number), and notifies. Returns its number. One statement: a moment needs no
 * transaction of its own, and a class waits on it.
 */
export async function appendEvent(
  tx: Queryable,
  code: string,
  body: RoomEvent,
  now: number,
  secret: unknown = null,
): Promise<number> {
  const n = await appendIfLive(tx, code, body, now, 0, secret);
  if (n === null) throw new Error(`no room ${code}`);
  return n;
}

/**
 * appendEvent if the room is live (not ended, active since `activeSince`), else null: a
 * teacher's moment checks and appends in one statement, the step a class waits on.
 */
export async function appendIfLive(
  tx: Queryable,
  code: string,
  body: RoomEvent,
  now: number,
  activeSince: number,
  secret: unknown = null,
): Promise<number | null> {
  const [row] = await tx.query<{ n: number }>(
    `WITH r AS (
       UPDATE rooms SET last_n = last_n + 1, last_activity = $2
       WHERE code = $1 AND ended IS NULL AND last_activity >= $6
       RETURNING code, last_n
     ), e AS (
       INSERT INTO events (room, n, at, body, secret) SELECT code, last_n, $2, $3, $4 FROM r
       RETURNING n
     )
     SELECT n, pg_notify($5, 'e:' || $1) FROM e`,
    [
      code,
      now,
      JSON.stringify(body),
      secret === null ? null : JSON.stringify(secret),
      CHANNEL,
      activeSince,
    ],
  );
  return row?.n ?? null;
}

export interface StoredEvent {
  n: number;
  at: number;
  body: RoomEvent;
}

export async function eventsSince(
  q: Queryable,
  code: string,
  since: number,
): Promise<StoredEvent[]> {
  return q.query<StoredEvent & Record<string, unknown>>(
    'SELECT n, at, body FROM events WHERE room = $1 AND n > $2 ORDER BY n',
    [code, since],
  );
}

/** Asks a question: an ask event (without the answer), and the question open until closesAt. */
export async function ask(db: Db, code: string, question: Question, now: number): Promise<number> {
  const closesAt = now + question.seconds * 1000;
  return db.transaction(async (tx) => {
    const n = await appendEvent(
      tx,
      code,
      {
        kind: 'ask',
        prompt: question.prompt,
        choices: question.choices,
        seconds: question.seconds,
        closesAt,
      },
      now,
      { answer: question.answer, revealHash: question.revealHash },
    );
    await tx.query('UPDATE rooms SET open_question = $2, closes_at = $3 WHERE code = $1', [
      code,
      n,
      closesAt,
    ]);
    return n;
  });
}

/** The counts of each choice for the question asked as event `question`. */
export async function tally(
  q: Queryable,
  code: string,
  question: number,
): Promise<{ counts: number[]; answered: number }> {
  const [ev] = await q.query<{ body: RoomEvent }>(
    'SELECT body FROM events WHERE room = $1 AND n = $2',
    [code, question],
  );
  const choices = ev?.body.kind === 'ask' ? ev.body.choices.length : 0;
  const counts = new Array<number>(choices).fill(0);
  const rows = await q.query<{ choice: number; c: number }>(
    'SELECT choice, count(*)::int4 AS c FROM answers WHERE room = $1 AND question = $2 GROUP BY choice',
    [code, question],
  );
  let answered = 0;
  for (const r of rows) {
    if (r.choice < choices) counts[r.choice] = r.c;
    answered += r.c;
  }
  return { counts, answered };
}

/**
 * Counts a student's answer to the open question (replacing their earlier one). False when
 * that question is not the open one, or its time is up, or the choice is not one of its own.
 *
 * One statement, the class answering at once being the server's busiest moment: it reads the
 * open question with the room row share-locked, so a reveal (which locks it for update) waits
 * for the answers already being counted, and every answer after it finds the question closed.
 * The room's activity is not written: the ask was, and a question is open ten minutes at most.
 */
export async function answer(
  db: Db,
  code: string,
  student: number,
  question: number,
  choice: number,
  now: number,
): Promise<boolean> {
  const rows = await db.query(
    `WITH open AS (
       SELECT r.code FROM rooms r JOIN events e ON e.room = r.code AND e.n = r.open_question
       WHERE r.code = $1 AND r.open_question = $2 AND r.closes_at > $5 AND r.ended IS NULL
         AND $4 < jsonb_array_length(e.body->'choices')
       FOR SHARE OF r
     ), counted AS (
       INSERT INTO answers (room, question, student, choice, at)
       SELECT code, $2, $3, $4, $5 FROM open
       ON CONFLICT (room, question, student) DO UPDATE SET choice = $4, at = $5
       RETURNING room
     )
     SELECT pg_notify($6, 'a:' || room) FROM counted`,
    [code, question, student, choice, now, CHANNEL],
  );
  return rows.length === 1;
}

/** Marks the room active (at most one write a minute: a class answering at once is one). */
export async function touch(q: Queryable, code: string, now: number): Promise<void> {
  await q.query(
    'UPDATE rooms SET last_activity = $2::int8 WHERE code = $1 AND last_activity < $2::int8 - 60000',
    [code, now],
  );
}

/** Closes the last question asked and appends its reveal; null when none was asked. */
export async function reveal(db: Db, code: string, now: number): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [room] = await tx.query<{ open_question: number | null }>(
      'SELECT open_question FROM rooms WHERE code = $1 FOR UPDATE',
      [code],
    );
    const question = room?.open_question ?? null;
    if (question === null) return null;
    const [ev] = await tx.query<{ secret: { answer: number | null; revealHash: string | null } }>(
      'SELECT secret FROM events WHERE room = $1 AND n = $2',
      [code, question],
    );
    await tx.query('UPDATE rooms SET open_question = NULL, closes_at = NULL WHERE code = $1', [
      code,
    ]);
    const { counts } = await tally(tx, code, question);
    return appendEvent(
      tx,
      code,
      {
        kind: 'reveal',
        question,
        answer: ev?.secret.answer ?? null,
        counts,
        revealHash: ev?.secret.revealHash ?? null,
      },
      now,
    );
  });
}

export async function end(db: Db, code: string, now: number): Promise<number> {
  return db.transaction(async (tx) => {
    const n = await appendEvent(tx, code, { kind: 'end' }, now);
    await tx.query(
      'UPDATE rooms SET ended = $2, open_question = NULL, closes_at = NULL WHERE code = $1',
      [code, now],
    );
    return n;
  });
}

/**
 * The student with this token in the room (made, or renamed, on each hello), marked online on
 * this process: their row's id and their connection's (one statement: a class joins at once).
 * A new student is taken only while the room has fewer than `maxStudents`; one it knows always
 * comes back. Null: the room is full. (Hellos at the same instant each count the students
 * before them, so a full room may take one or two more: the cap bounds a room, not exactly.)
 */
export async function joinStudent(
  db: Db,
  code: string,
  token: string,
  nickname: string,
  now: number,
  processId: string,
  maxStudents: number,
): Promise<{ student: number; connection: number } | null> {
  const [row] = await db.query<{ student: number; connection: number }>(
    `WITH s AS (
       INSERT INTO students (room, token_hash, nickname, joined)
       SELECT $1, $2, $3, $4
       WHERE EXISTS (SELECT 1 FROM students WHERE room = $1 AND token_hash = $2)
          OR (SELECT count(*) FROM students WHERE room = $1) < $7
       ON CONFLICT (room, token_hash) DO UPDATE SET nickname = $3 RETURNING id
     ), c AS (
       INSERT INTO connections (process, room, student) SELECT $5, $1, id FROM s RETURNING id, student
     )
     SELECT c.student, c.id AS connection, pg_notify($6, 'p:' || $1) FROM c`,
    [code, sha256(token), nickname, now, processId, CHANNEL, maxStudents],
  );
  return row ? { student: row.student, connection: row.connection } : null;
}

/** Every student of the room, in the order they joined, and whether any process has a socket of theirs. */
export async function roster(
  q: Queryable,
  code: string,
): Promise<{ nickname: string; online: boolean }[]> {
  return q.query<{ nickname: string; online: boolean }>(
    `SELECT s.nickname, count(c.id) > 0 AS online
     FROM students s LEFT JOIN connections c ON c.student = s.id
     WHERE s.room = $1 GROUP BY s.id ORDER BY s.joined, s.id`,
    [code],
  );
}

export async function presentCount(q: Queryable, code: string): Promise<number> {
  const [row] = await q.query<{ c: number }>(
    'SELECT count(DISTINCT student)::int4 AS c FROM connections WHERE room = $1',
    [code],
  );
  return row?.c ?? 0;
}

/** The hash of the room's current moment: its last moment, or a reveal's moment after it. */
export async function currentHash(q: Queryable, code: string): Promise<string | null> {
  const rows = await q.query<{ body: RoomEvent }>(
    `SELECT body FROM events WHERE room = $1
       AND (body->>'kind' = 'moment' OR (body->>'kind' = 'reveal' AND body->>'revealHash' IS NOT NULL))
     ORDER BY n DESC LIMIT 1`,
    [code],
  );
  const b = rows[0]?.body;
  if (b?.kind === 'moment') return b.hash;
  if (b?.kind === 'reveal') return b.revealHash;
  return null;
}

/** Deletes the rooms idle since before `before` (their rows go with them); returns how many. */
export async function deleteIdleRooms(db: Db, before: number): Promise<number> {
  const rows = await db.query('DELETE FROM rooms WHERE last_activity < $1 RETURNING code', [
    before,
  ]);
  return rows.length;
}
