// What the classroom server's tests share: a socket client that keeps every message it gets, a
// room made over HTTP, and a PostgreSQL schema of a test's own (so a test that sweeps expired
// rooms, or counts them, sees its own rooms and no other test's). Tests only.

import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import * as v from 'valibot';
import WebSocket from 'ws';
import { PROTOCOL_VERSION, ServerMessage, SOCKET_PATH } from '../classroom/protocol.ts';
import { openPglite } from './db.ts';
import { migrate, MIGRATIONS } from './migrations.ts';

/** Every message a test client got that the protocol's schema refuses (tests expect none). */
export const protocolViolations: string[] = [];

/** The PostgreSQL the tests use, if any (CI's .ci/run sets it). */
export const TEST_DATABASE_URL =
  process.env.CLASSROOM_TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? '';

// In CI the PostgreSQL runs are not optional: .ci/run starts a PostgreSQL and names it, and a run
// that lost it must fail, not pass with the PostgreSQL tests left out.
if (process.env.CI && !TEST_DATABASE_URL)
  throw new Error(
    'CI is set but CLASSROOM_TEST_DATABASE_URL (or DATABASE_URL) is not: the classroom tests run on PostgreSQL too (.ci/run starts one)',
  );

export class Client {
  readonly messages: ServerMessage[] = [];
  private readonly waiters = new Set<() => void>();
  /** The close code, once closed. */
  closeCode: number | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const m: unknown = JSON.parse(data.toString('utf8'));
      const checked = v.safeParse(ServerMessage, m);
      if (!checked.success)
        protocolViolations.push(`${JSON.stringify(m)}: ${v.summarize(checked.issues)}`);
      this.messages.push(m as ServerMessage);
      this.wake();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
    ws.on('error', () => undefined);
  }

  private wake(): void {
    for (const w of this.waiters) w();
  }

  static async open(baseUrl: string): Promise<Client> {
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + SOCKET_PATH);
    const c = new Client(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        resolve();
      });
      ws.once('error', reject);
    });
    return c;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Waits until `ok` holds of what the client has (5 s at most, then throws, saying what came). */
  async until(ok: (c: Client) => boolean, what = 'a message'): Promise<void> {
    if (ok(this)) return;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!ok(this)) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`waited for ${what}; got ${JSON.stringify(this.messages).slice(-1500)}`));
      }, 5_000);
      this.waiters.add(check);
    });
  }

  /** The first message of kind `t` matching `where`, waiting for it. */
  async next<T extends ServerMessage['t']>(
    t: T,
    where: (m: Extract<ServerMessage, { t: T }>) => boolean = () => true,
  ): Promise<Extract<ServerMessage, { t: T }>> {
    const find = () => this.all(t).find(where);
    await this.until(() => find() !== undefined, `a "${t}" message`);
    return find() as Extract<ServerMessage, { t: T }>;
  }

  all<T extends ServerMessage['t']>(t: T): Extract<ServerMessage, { t: T }>[] {
    return this.messages.filter((m): m is Extract<ServerMessage, { t: T }> => m.t === t);
  }

  /** The event numbers received, in the order received. */
  eventNumbers(): number[] {
    return this.all('event').map((m) => m.n);
  }

  errors(code?: string): Extract<ServerMessage, { t: 'error' }>[] {
    return this.all('error').filter((m) => code === undefined || m.code === code);
  }

  async closed(): Promise<number> {
    await this.until((c) => c.closeCode !== null, 'the socket to close');
    return this.closeCode ?? 0;
  }

  async close(): Promise<void> {
    if (this.closeCode !== null) return;
    this.ws.close();
    await this.closed();
  }
}

export interface TestRoom {
  readonly code: string;
  readonly secret: string;
  readonly expiresAt: number;
}

export async function createRoom(baseUrl: string, title = 'Lecture 4'): Promise<TestRoom> {
  const r = await fetch(`${baseUrl}/api/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  if (r.status !== 201) throw new Error(`POST /api/rooms: ${r.status} ${await r.text()}`);
  return (await r.json()) as TestRoom;
}

export async function teacher(baseUrl: string, room: TestRoom, since = 0): Promise<Client> {
  const c = await Client.open(baseUrl);
  c.send({
    t: 'hello',
    v: PROTOCOL_VERSION,
    role: 'teacher',
    code: room.code,
    secret: room.secret,
    since,
  });
  await c.next('welcome');
  return c;
}

/** A student's token from their name, so a test's student is the same student on reconnect. */
export function tokenOf(nickname: string): string {
  return `token-${nickname}-0123456789`.replace(/[^A-Za-z0-9_-]/g, '_');
}

export async function student(
  baseUrl: string,
  room: TestRoom,
  nickname: string,
  since = 0,
): Promise<Client> {
  const c = await Client.open(baseUrl);
  c.send({
    t: 'hello',
    v: PROTOCOL_VERSION,
    role: 'student',
    code: room.code,
    nickname,
    token: tokenOf(nickname),
    since,
  });
  await c.next('welcome');
  return c;
}

export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'classroom-test-'));
  return {
    dir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let template: Promise<string> | null = null;

/**
 * A temporary PGlite directory, migrated and empty, for one test. Made by copying a template:
 * a new PGlite directory costs an initdb (2 s on an idle machine, over 10 s on a busy one), a
 * copy a fifth of that. The template is kept in the system's temporary folder under a hash of
 * the migrations, so every run and every worker shares one and a changed schema makes another
 * (a test worker is ended without an exit event, so a template per worker would be left over).
 */
export async function pgliteDir(): Promise<{ dir: string; remove: () => void }> {
  template ??= (async () => {
    const hash = createHash('sha256').update(JSON.stringify(MIGRATIONS)).digest('hex');
    const dir = join(tmpdir(), `classroom-template-${hash.slice(0, 16)}`);
    if (existsSync(join(dir, 'PG_VERSION'))) return dir;
    // Made aside and renamed into place: two workers making it at once both succeed.
    const making = mkdtempSync(join(tmpdir(), 'classroom-template-making-'));
    const db = await openPglite(making);
    await migrate(db);
    await db.close();
    try {
      renameSync(making, dir);
    } catch {
      rmSync(making, { recursive: true, force: true });
    }
    return dir;
  })();
  const from = await template;
  const t = tempDir();
  cpSync(from, t.dir, { recursive: true });
  return t;
}

/** A fresh schema on the test PostgreSQL, and a URL whose connections use it. */
export async function tempSchema(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `classroom_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${name}`);
  await admin.end();
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${name}`);
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA ${name} CASCADE`);
      await c.end();
    },
  };
}
