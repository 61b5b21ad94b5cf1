// The classroom's wire protocol: what a teacher's or a student's page and the classroom server
// (server/) say to each other over one WebSocket, and the three HTTP calls beside it. Both sides
// check every message against these schemas (valibot) before reading it, so a page or a server of
// another version, or anyone typing into a socket, gets a clear refusal, never a half-read move.
//
// A room's state is a numbered list of events kept in the database: a moment (a Step link), a
// question asked, a question revealed, the class ended. A page that reconnects says the last
// number it saw (`since`) and the server sends what came after, so a dropped phone or a
// restarted server loses nothing. Names, tallies and submissions go to the teacher only.

import * as v from 'valibot';

export const PROTOCOL_VERSION = 1;

/** The longest Step link a page writes (src/store/linkLimits.ts; a test holds the two equal). */
export const MAX_LINK_CHARS = 16_384;

/** No message either way is longer: a moment is a Step link, at most MAX_LINK_CHARS. */
export const MAX_MESSAGE_BYTES = MAX_LINK_CHARS + 4_096;

/** A room's code: six letters and digits a phone's keyboard types, without 0/O and 1/I/L. */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 6;
const code = v.pipe(v.string(), v.regex(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/));

/** A Step-mode moment: the hash a Step link carries (#/step/<scenario>?…). */
const stepHash = v.pipe(v.string(), v.maxLength(MAX_LINK_CHARS), v.regex(/^#\/step\/[a-z0-9-]+\?/));
const since = v.pipe(v.number(), v.integer(), v.minValue(0));
const text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max));

export const MAX_CHOICES = 8;
export const MIN_SECONDS = 5;
export const MAX_SECONDS = 600;

// ---- Client → server ----------------------------------------------------------------------

/** The first message on a socket: who this is. A teacher proves it with the room's secret. */
export const TeacherHello = v.strictObject({
  t: v.literal('hello'),
  v: v.literal(PROTOCOL_VERSION),
  role: v.literal('teacher'),
  code,
  secret: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{32,64}$/)),
  since,
});
/** A student names themself; the token (made by the page, kept in its storage) makes a
 *  reconnect the same student, so an answer is counted once. */
export const StudentHello = v.strictObject({
  t: v.literal('hello'),
  v: v.literal(PROTOCOL_VERSION),
  role: v.literal('student'),
  code,
  nickname: text(24),
  token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,64}$/)),
  since,
});
export const Hello = v.variant('role', [TeacherHello, StudentHello]);

/** A question asked of the room. `answer` is the right choice (hidden from students until the
 *  reveal), null for an opinion; `revealHash` is the moment the reveal steps to. */
export const Question = v.strictObject({
  prompt: text(300),
  choices: v.pipe(v.array(text(120)), v.minLength(2), v.maxLength(MAX_CHOICES)),
  seconds: v.pipe(v.number(), v.integer(), v.minValue(MIN_SECONDS), v.maxValue(MAX_SECONDS)),
  answer: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_CHOICES - 1))),
  revealHash: v.nullable(stepHash),
});
export type Question = v.InferOutput<typeof Question>;

/** What a teacher may send after hello. */
export const TeacherMessage = v.variant('t', [
  v.strictObject({ t: v.literal('moment'), hash: stepHash }),
  v.strictObject({ t: v.literal('ask'), question: Question }),
  v.strictObject({ t: v.literal('reveal') }),
  v.strictObject({ t: v.literal('end') }),
]);
export type TeacherMessage = v.InferOutput<typeof TeacherMessage>;

/** What a student may send after hello: an answer to the open question (by its event number),
 *  or a challenge's schedule for the scenario of the room's moment. */
export const StudentMessage = v.variant('t', [
  v.strictObject({
    t: v.literal('answer'),
    question: since,
    choice: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_CHOICES - 1)),
  }),
  v.strictObject({
    t: v.literal('submit'),
    challenge: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,64}$/)),
    schedule: v.pipe(v.string(), v.maxLength(4_096)),
  }),
]);
export type StudentMessage = v.InferOutput<typeof StudentMessage>;

// ---- Server → client ----------------------------------------------------------------------

/** One numbered event of a room, as every page sees it. An `ask` carries no answer. */
export const RoomEvent = v.variant('kind', [
  v.strictObject({ kind: v.literal('moment'), hash: stepHash }),
  v.strictObject({
    kind: v.literal('ask'),
    prompt: v.string(),
    choices: v.array(v.string()),
    seconds: v.number(),
    /** When answers stop being taken (ms since the epoch, the server's clock). */
    closesAt: v.number(),
  }),
  v.strictObject({
    kind: v.literal('reveal'),
    /** The ask's event number. */
    question: v.number(),
    answer: v.nullable(v.number()),
    counts: v.array(v.number()),
    revealHash: v.nullable(v.string()),
  }),
  v.strictObject({ kind: v.literal('end') }),
]);
export type RoomEvent = v.InferOutput<typeof RoomEvent>;

const judged = v.variant('kind', [
  v.strictObject({ kind: v.literal('reached'), summary: v.string() }),
  v.strictObject({ kind: v.literal('missed'), summary: v.string() }),
  v.strictObject({ kind: v.literal('invalid'), summary: v.string() }),
]);

export const ServerMessage = v.variant('t', [
  /** The answer to hello: the room, who you are, the last event number. */
  v.strictObject({
    t: v.literal('welcome'),
    code,
    title: v.string(),
    role: v.picklist(['teacher', 'student']),
    last: v.number(),
  }),
  /** A room's event, in order, once each (after `since`). */
  v.strictObject({ t: v.literal('event'), n: v.number(), at: v.number(), e: RoomEvent }),
  /** Teacher only: the open question's answers so far. */
  v.strictObject({
    t: v.literal('tally'),
    question: v.number(),
    counts: v.array(v.number()),
    answered: v.number(),
  }),
  /** Teacher only: who is in the room. Students get `present` alone. */
  v.strictObject({
    t: v.literal('roster'),
    students: v.array(v.strictObject({ nickname: v.string(), online: v.boolean() })),
  }),
  v.strictObject({ t: v.literal('present'), students: v.number() }),
  /** Teacher only: a student's challenge attempt, judged by the engine on the server. */
  v.strictObject({
    t: v.literal('submission'),
    nickname: v.string(),
    challenge: v.string(),
    schedule: v.string(),
    verdict: judged,
    at: v.number(),
  }),
  /** To a student: their own attempt's verdict; and their answer, as counted. */
  v.strictObject({ t: v.literal('judged'), challenge: v.string(), verdict: judged }),
  v.strictObject({ t: v.literal('answered'), question: v.number(), choice: v.number() }),
  /** A refusal: the message was not applied. `bye` errors close the socket after. */
  v.strictObject({
    t: v.literal('error'),
    code: v.picklist([
      'bad-message',
      'too-large',
      'not-allowed',
      'no-room',
      'room-ended',
      'room-full',
      'no-question',
      'slow-down',
      'bye',
    ]),
    message: v.string(),
  }),
]);
export type ServerMessage = v.InferOutput<typeof ServerMessage>;

// ---- HTTP ---------------------------------------------------------------------------------

/** POST /api/rooms {title} → 201 CreatedRoom. The secret is shown once; keep it. */
export const CreateRoom = v.strictObject({ title: v.optional(text(120)) });
export const CreatedRoom = v.strictObject({ code, secret: v.string(), expiresAt: v.number() });
/** GET /api/rooms/:code → RoomInfo, or 404 for none (or expired). */
export const RoomInfo = v.strictObject({ code, title: v.string(), ended: v.boolean() });
/** GET /api/health → Health: whether a classroom server is here, and on which database. */
export const Health = v.strictObject({
  ok: v.literal(true),
  protocol: v.number(),
  database: v.picklist(['pglite', 'postgresql']),
});

/** The socket's path on the page's own origin. */
export const SOCKET_PATH = '/api/socket';
