// A class's room as one page sees it (the teacher's projector or a student's phone): the socket to
// the classroom server, the room's numbered events applied in order once each, and what the page
// may send. The socket is behind a port (RoomSocketPort), so unit tests drive the store with a
// fake; the page gives it the browser's WebSocket (src/ui/room/). Every server message is checked
// against the protocol's schemas before it is read.
//
// A dropped socket (a phone's Wi-Fi, a restarted server) reconnects by itself, waiting 0.5 s, then
// twice as long each time up to 5 s, and says "since" the last event it applied: the server sends
// what came after, so nothing is missed and nothing is applied twice.

import * as v from 'valibot';
import { createStore } from 'zustand/vanilla';
import {
  PROTOCOL_VERSION,
  type Question,
  RoomEvent,
  ServerMessage,
  SOCKET_PATH,
  StudentMessage,
  TeacherMessage,
} from '../classroom/protocol.ts';
import { TEACHER_KEY } from './roomKeys.ts';
import type { KeyValueStorage } from './storage.ts';

/** One open socket, as the store uses it. */
export interface RoomSocket {
  send(text: string): void;
  close(): void;
}

/** What a socket tells the store: opened, a message's text, closed (for any reason). */
export interface SocketEvents {
  open(): void;
  message(text: string): void;
  close(): void;
}

/** Opens sockets: the browser's WebSocket on the page, a fake in tests. */
export type RoomSocketPort = (url: string, on: SocketEvents) => RoomSocket;

/** Who this page is in the room. */
export type RoomRole =
  | { readonly role: 'teacher'; readonly code: string; readonly secret: string }
  | {
      readonly role: 'student';
      readonly code: string;
      readonly nickname: string;
      readonly token: string;
    };

export type RoomStatus =
  /** Not in a room. */
  | 'idle'
  | 'connecting'
  | 'open'
  /** The socket dropped: trying again, with backoff. */
  | 'reconnecting'
  /** The teacher ended the class. */
  | 'ended'
  /** The server refused this page for good (no such room, a wrong secret). */
  | 'refused';

export type RoomEventOf<K extends RoomEvent['kind']> = Extract<RoomEvent, { kind: K }>;

/** The open question, as every page sees it (no answer until the reveal). */
export interface OpenQuestion extends Omit<RoomEventOf<'ask'>, 'kind'> {
  /** Its event number: answers and the reveal name it. */
  readonly n: number;
}

/** The engine's verdict on a challenge's schedule, judged on the server. */
export type Verdict = Extract<ServerMessage, { t: 'judged' }>['verdict'];

export interface Submission {
  readonly nickname: string;
  readonly challenge: string;
  readonly schedule: string;
  readonly verdict: Verdict;
  readonly at: number;
}

export interface RoomState {
  readonly status: RoomStatus;
  readonly who: RoomRole | null;
  readonly title: string;
  /** The last event number applied (0: none yet). */
  readonly last: number;
  /** The room's current Step moment (a Step link's hash), or null before the first. */
  readonly moment: string | null;
  readonly question: OpenQuestion | null;
  /** The last question revealed (kept on the stage until the next is asked). */
  readonly revealed:
    | (RoomEventOf<'reveal'> & {
        /** The reveal's own event number. */
        readonly n: number;
        readonly prompt: string;
        readonly choices: readonly string[];
      })
    | null;
  /** Teacher: the open question's answers so far. */
  readonly tally: {
    readonly question: number;
    readonly counts: readonly number[];
    readonly answered: number;
  } | null;
  /** Students present (the teacher also has `roster`). */
  readonly present: number;
  readonly roster: readonly { readonly nickname: string; readonly online: boolean }[];
  /** Teacher: students' challenge attempts, newest last. */
  readonly submissions: readonly Submission[];
  /** Student: my answer to a question, as the server counted it. */
  readonly answered: { readonly question: number; readonly choice: number } | null;
  /** Student: my last challenge attempt's verdict. */
  readonly judged: { readonly challenge: string; readonly verdict: Verdict } | null;
  /** The last refusal or failure, for the page to show; null when none. */
  readonly error: string | null;
  /** A line for the page's live region: what just happened in the room. */
  readonly announcement: string;
  /** How many times in a row the socket has failed (0 while open). */
  readonly retries: number;
  /**
   * The room's last event number when this page said hello: events up to it are catching up
   * (a reload, a reconnect), later ones happen now. A page steps to a reveal only as it happens.
   */
  readonly caughtUp: number;

  /** Enter a room (opens the socket). */
  joined(who: RoomRole): void;
  /** Teacher: the stage moved. Sent when it differs from the room's moment. */
  momentChanged(hash: string): void;
  asked(question: Question): void;
  revealRequested(): void;
  endRequested(): void;
  /** Student: choose an answer to the open question. */
  answerChosen(choice: number): void;
  submitted(challenge: string, schedule: string): void;
  /** Leave the room (closes the socket, forgets nothing stored). */
  left(): void;
}

/** The wait before reconnect attempt `n` (from 0): 0.5 s, doubling, at most 5 s. */
export function backoffMs(n: number): number {
  return Math.min(5_000, 500 * 2 ** n);
}

/** The socket's address on the page's own origin (ws: beside http:, wss: beside https:). */
export function socketUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${SOCKET_PATH}`;
}

const RECONNECTING = 'The connection to the class dropped: reconnecting…';

/** Refusals after which reconnecting cannot help. */
const FINAL = new Set(['no-room', 'room-ended', 'room-full', 'bye']);

export interface RoomStoreDeps {
  readonly open: RoomSocketPort;
  readonly url: string;
  /** Timers (the page's; tests may pass fakes). */
  readonly setTimer?: (f: () => void, ms: number) => unknown;
  readonly clearTimer?: (t: unknown) => void;
}

const idle = {
  status: 'idle' as RoomStatus,
  who: null,
  title: '',
  last: 0,
  moment: null,
  question: null,
  revealed: null,
  tally: null,
  present: 0,
  roster: [],
  submissions: [],
  answered: null,
  judged: null,
  error: null,
  announcement: '',
  retries: 0,
  caughtUp: 0,
};

export function createRoomStore(deps: RoomStoreDeps) {
  const setTimer = deps.setTimer ?? ((f: () => void, ms: number) => setTimeout(f, ms));
  const clearTimer =
    deps.clearTimer ??
    ((t: unknown) => {
      clearTimeout(t as ReturnType<typeof setTimeout>);
    });
  return createStore<RoomState>()((set, get) => {
    let socket: RoomSocket | null = null;
    let timer: unknown = null;
    /** Bumped on every new socket: a closed socket's late events are ignored. */
    let generation = 0;
    /** Teacher: the moment the stage shows, to send once the room is open again. */
    let stage: string | null = null;
    /** Questions seen, by event number: a reveal names its question. */
    const asks = new Map<number, RoomEventOf<'ask'>>();

    const send = (msg: TeacherMessage | StudentMessage): boolean => {
      if (!socket || get().status !== 'open') return false;
      socket.send(JSON.stringify(msg));
      return true;
    };

    const pushStage = () => {
      const { who, moment } = get();
      if (who?.role === 'teacher' && stage !== null && stage !== moment)
        send({ t: 'moment', hash: stage });
    };

    const apply = (n: number, e: RoomEvent) => {
      switch (e.kind) {
        case 'moment':
          set({ moment: e.hash, last: n });
          return;
        case 'ask': {
          asks.set(n, e);
          const { kind: _, ...rest } = e;
          set({
            last: n,
            question: { ...rest, n },
            revealed: null,
            tally: null,
            announcement: `Question: ${e.prompt}`,
          });
          return;
        }
        case 'reveal': {
          const ask = asks.get(e.question);
          const right = e.answer === null ? null : ask?.choices[e.answer];
          set({
            last: n,
            question: null,
            revealed: { ...e, n, prompt: ask?.prompt ?? '', choices: ask?.choices ?? [] },
            announcement:
              right === undefined || right === null
                ? 'The answers are revealed.'
                : `The answer is revealed: ${right}.`,
          });
          return;
        }
        case 'end':
          set({ last: n, status: 'ended', question: null, announcement: 'The class has ended.' });
          return;
      }
    };

    const received = (text: string) => {
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        set({ error: 'The server sent something that is not JSON; it was ignored.' });
        return;
      }
      const parsed = v.safeParse(ServerMessage, raw);
      if (!parsed.success) {
        set({
          error:
            'The server sent a message this page cannot read (another version?); it was ignored.',
        });
        return;
      }
      const m = parsed.output;
      switch (m.t) {
        case 'welcome':
          set({
            status: 'open',
            title: m.title,
            retries: 0,
            caughtUp: m.last,
            error: null,
            announcement:
              get().announcement === RECONNECTING
                ? `Back in class ${m.code}.`
                : `Joined class ${m.code}.`,
          });
          pushStage();
          return;
        case 'event':
          // Once each, in order: a resumed socket may repeat what was applied before.
          if (m.n <= get().last) return;
          apply(m.n, m.e);
          if (m.e.kind === 'moment' || m.e.kind === 'ask') pushStage();
          return;
        case 'tally':
          set({ tally: { question: m.question, counts: m.counts, answered: m.answered } });
          return;
        case 'roster':
          set({ roster: m.students, present: m.students.filter((s) => s.online).length });
          return;
        case 'present':
          set({ present: m.students });
          return;
        case 'submission': {
          const { t: _, ...sub } = m;
          set({
            submissions: [...get().submissions, sub],
            announcement: `${m.nickname} submitted a schedule for ${m.challenge}: ${m.verdict.kind}.`,
          });
          return;
        }
        case 'judged':
          set({
            judged: { challenge: m.challenge, verdict: m.verdict },
            announcement: `Your schedule: ${m.verdict.summary}`,
          });
          return;
        case 'answered':
          set({
            answered: { question: m.question, choice: m.choice },
            announcement: 'Answer sent.',
          });
          return;
        case 'error':
          set({ error: m.message, announcement: m.message });
          if (FINAL.has(m.code) || (m.code === 'not-allowed' && get().status !== 'open')) {
            set({ status: m.code === 'room-ended' ? 'ended' : 'refused' });
            stop();
          }
          return;
      }
    };

    const stop = () => {
      generation++;
      if (timer !== null) clearTimer(timer);
      timer = null;
      const s = socket;
      socket = null;
      s?.close();
    };

    const connect = () => {
      const who = get().who;
      if (!who) return;
      const mine = ++generation;
      const hello =
        who.role === 'teacher'
          ? {
              t: 'hello',
              v: PROTOCOL_VERSION,
              role: 'teacher',
              code: who.code,
              secret: who.secret,
              since: get().last,
            }
          : {
              t: 'hello',
              v: PROTOCOL_VERSION,
              role: 'student',
              code: who.code,
              nickname: who.nickname,
              token: who.token,
              since: get().last,
            };
      socket = deps.open(deps.url, {
        open: () => {
          if (mine === generation) socket?.send(JSON.stringify(hello));
        },
        message: (text) => {
          if (mine === generation) received(text);
        },
        close: () => {
          if (mine !== generation) return;
          socket = null;
          const { status, retries } = get();
          if (status === 'ended' || status === 'refused' || status === 'idle') return;
          set({ status: 'reconnecting', retries: retries + 1, announcement: RECONNECTING });
          timer = setTimer(() => {
            timer = null;
            if (mine === generation && get().status === 'reconnecting') connect();
          }, backoffMs(retries));
        },
      });
    };

    return {
      ...idle,
      joined: (who) => {
        stop();
        asks.clear();
        stage = null;
        set({ ...idle, who, status: 'connecting' });
        connect();
      },
      momentChanged: (hash) => {
        stage = hash;
        pushStage();
      },
      asked: (question) => {
        if (!send({ t: 'ask', question }))
          set({ error: 'Not connected: the question was not asked.' });
      },
      revealRequested: () => {
        send({ t: 'reveal' });
      },
      endRequested: () => {
        send({ t: 'end' });
      },
      answerChosen: (choice) => {
        const q = get().question;
        if (!q) return;
        if (!send({ t: 'answer', question: q.n, choice }))
          set({ error: 'Not connected: your answer will need sending again.' });
      },
      submitted: (challenge, schedule) => {
        if (!send({ t: 'submit', challenge, schedule }))
          set({ error: 'Not connected: the schedule was not sent.' });
      },
      left: () => {
        stop();
        set({ ...idle });
      },
    };
  });
}

export type RoomStore = ReturnType<typeof createRoomStore>;

// ---- What the browser keeps --------------------------------------------------------------

const TOKEN_KEY = 'percpu-lab:class-token';
const NICKNAME_KEY = 'percpu-lab:class-nickname';

export interface KeptTeacher {
  readonly code: string;
  readonly secret: string;
  readonly expiresAt: number;
}

const Kept = v.strictObject({
  code: v.string(),
  secret: v.string(),
  expiresAt: v.number(),
});

/** The class this browser teaches, if it has not expired (a reload resumes it). */
export function keptTeacher(storage: KeyValueStorage, now: number): KeptTeacher | null {
  try {
    const text = storage.getItem(TEACHER_KEY);
    if (text === null) return null;
    const r = v.safeParse(Kept, JSON.parse(text));
    if (!r.success || r.output.expiresAt <= now) {
      storage.removeItem(TEACHER_KEY);
      return null;
    }
    return r.output;
  } catch {
    return null;
  }
}

export function keepTeacher(storage: KeyValueStorage, kept: KeptTeacher | null): void {
  try {
    if (kept) storage.setItem(TEACHER_KEY, JSON.stringify(kept));
    else storage.removeItem(TEACHER_KEY);
  } catch {
    // Storage blocked: the class runs, a reload will not resume it.
  }
}

/** This browser's student token, made once (24 URL-safe characters from `random`). */
export function studentToken(storage: KeyValueStorage, random: (n: number) => Uint8Array): string {
  try {
    const kept = storage.getItem(TOKEN_KEY);
    if (kept !== null && /^[A-Za-z0-9_-]{16,64}$/.test(kept)) return kept;
  } catch {
    // Blocked storage: a fresh token; a reload then joins as someone new.
  }
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const token = [...random(24)].map((b) => alphabet[b & 63]).join('');
  try {
    storage.setItem(TOKEN_KEY, token);
  } catch {
    // As above.
  }
  return token;
}

export function keptNickname(storage: KeyValueStorage): string {
  try {
    return storage.getItem(NICKNAME_KEY) ?? '';
  } catch {
    return '';
  }
}

export function keepNickname(storage: KeyValueStorage, nickname: string): void {
  try {
    storage.setItem(NICKNAME_KEY, nickname);
  } catch {
    // As above.
  }
}
