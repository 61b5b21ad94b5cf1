// The classroom server: one Fastify process that serves the built app with the headers the
// static hosts send (deploy/headers.ts), the rooms' HTTP calls and the rooms' WebSocket
// (src/classroom/protocol.ts), over PGlite or PostgreSQL (db.ts). startServer is what the
// command (main.ts), the tests and the benchmark run; everything it needs is an option, so a
// test runs a server on its own port and data directory.

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify from 'fastify';
import * as v from 'valibot';
import type { WebSocket } from '@fastify/websocket';
import { cspFor, ISOLATION } from '../../deploy/headers.ts';
import {
  CreateRoom,
  MAX_MESSAGE_BYTES,
  PROTOCOL_VERSION,
  SOCKET_PATH,
} from '../classroom/protocol.ts';
import {
  type FloodLimits,
  FLOOD,
  handleConnection,
  type Liveness,
  LIVENESS,
} from './connection.ts';
import { type Db, openDb } from './db.ts';
import { Hub } from './hub.ts';
import { migrate } from './migrations.ts';
import * as rooms from './rooms.ts';
import { TokenBucket } from './tokenBucket.ts';

export interface ServerOptions {
  readonly port?: number;
  readonly host?: string;
  /** PGlite's directory (used when there is no databaseUrl). */
  readonly dataDir: string;
  /** PostgreSQL's URL: rooms shared with every process on it. */
  readonly databaseUrl?: string;
  /** The built app to serve (dist/), or null for the API alone. */
  readonly appDir: string | null;
  /** Hours after its last activity that a room is deleted. */
  readonly roomHours?: number;
  /** The most students one room takes (MAX_STUDENTS by default). */
  readonly maxStudents?: number;
  /** How often expired rooms are swept (ms). */
  readonly sweepMs?: number;
  /** Rooms a client address may create: `burst` at once, `perHour` kept up. */
  readonly createLimit?: { readonly burst: number; readonly perHour: number };
  readonly flood?: FloodLimits;
  /** How often this process says it is alive in the database (ms). */
  readonly heartbeatMs?: number;
  /** The hello deadline and the ping period. */
  readonly liveness?: Liveness;
  readonly now?: () => number;
  /** Where errors go (stderr by default). */
  readonly log?: (e: unknown) => void;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly db: Db;
  /** Deletes the rooms idle too long; returns how many. */
  sweep(): Promise<number>;
  /** How many sockets this process holds. */
  sockets(): number;
  close(): Promise<void>;
}

/**
 * The most students a room takes unless told: five times the largest class the benchmark holds
 * to its aims (1,000), so no lecture meets it, while one room cannot fill a server's sockets.
 */
export const MAX_STUDENTS = 5_000;

/** A process's heartbeat (ms): a process silent for four of them is taken for dead. */
const HEARTBEAT_MS = 30_000;

/**
 * Marks this process alive, and forgets the processes silent for four heartbeats (killed, or
 * their machine gone): their connections go with them, and their rooms' rosters are pushed.
 */
async function heartbeat(db: Db, processId: string, now: number, periodMs: number): Promise<void> {
  await db.query('UPDATE processes SET seen = $2 WHERE id = $1', [processId, now]);
  await db.query(
    `WITH dead AS (DELETE FROM processes WHERE seen < $1 RETURNING id)
     SELECT pg_notify($2, 'p:' || room)
     FROM (SELECT DISTINCT c.room FROM connections c JOIN dead ON c.process = dead.id) r`,
    [now - 4 * periodMs, rooms.CHANNEL],
  );
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const now = opts.now ?? Date.now;
  const log =
    opts.log ??
    ((e: unknown) => {
      console.error(e);
    });
  const roomMs = (opts.roomHours ?? 12) * 3_600_000;
  const activeSince = () => now() - roomMs;
  const expired = (lastActivity: number) => lastActivity < activeSince();

  const db = await openDb({ url: opts.databaseUrl, dir: opts.dataDir });
  await migrate(db);

  // Who is online is shared through the database: this process's row holds its connections.
  // On PGlite this process is the only one, so any older rows are a previous run's.
  const processId = randomBytes(12).toString('base64url');
  if (db.kind === 'pglite') await db.query('DELETE FROM processes');
  await db.query('INSERT INTO processes (id, seen) VALUES ($1, $2)', [processId, now()]);
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  const beat = () => heartbeat(db, processId, now(), heartbeatMs);

  const hub = new Hub(db, log);
  await db.listen(rooms.CHANNEL, (payload) => {
    hub.heard(payload);
  });

  const sweep = () => rooms.deleteIdleRooms(db, now() - roomMs);
  await sweep();
  const timers = [
    setInterval(
      () => {
        void sweep().catch(log);
      },
      opts.sweepMs ?? 5 * 60_000,
    ),
    setInterval(() => {
      void beat().catch(log);
    }, heartbeatMs),
  ];
  for (const t of timers) t.unref();

  const app = Fastify({ logger: false, bodyLimit: 4096 });

  // Every response carries the isolation pair and its path's policy, as on the static hosts.
  app.addHook('onSend', async (req, reply) => {
    for (const [k, val] of Object.entries(ISOLATION)) reply.header(k, val);
    const csp = cspFor(new URL(req.url, 'http://localhost').pathname);
    if (csp) reply.header('Content-Security-Policy', csp);
  });

  // Frames over twice the message cap are cut by ws itself (close 1009); between the two, the
  // socket is told `too-large` and stays open.
  await app.register(fastifyWebsocket, { options: { maxPayload: 2 * MAX_MESSAGE_BYTES } });

  const createBuckets = new Map<string, TokenBucket>();
  const limit = opts.createLimit ?? { burst: 10, perHour: 60 };

  app.get('/api/health', () => ({
    ok: true as const,
    protocol: PROTOCOL_VERSION,
    database: db.kind,
  }));

  app.post('/api/rooms', async (req, reply) => {
    const t = now();
    let bucket = createBuckets.get(req.ip);
    if (!bucket)
      createBuckets.set(req.ip, (bucket = new TokenBucket(limit.perHour / 3600, limit.burst, t)));
    if (!bucket.take(t))
      return reply
        .code(429)
        .send({ error: 'too many rooms from this address: wait a few minutes and try again' });
    const body = v.safeParse(CreateRoom, req.body ?? {});
    if (!body.success) return reply.code(400).send({ error: v.summarize(body.issues) });
    const title = body.output.title ?? 'A class';
    const { code, secret } = await rooms.createRoom(db, title, t);
    return reply.code(201).send({ code, secret, expiresAt: t + roomMs });
  });

  app.get<{ Params: { code: string } }>('/api/rooms/:code', async (req, reply) => {
    const room = /^[A-Z0-9]{6}$/.test(req.params.code)
      ? await rooms.findRoom(db, req.params.code)
      : null;
    if (!room || expired(room.last_activity))
      return reply.code(404).send({ error: `there is no room ${req.params.code}` });
    return { code: room.code, title: room.title, ended: room.ended !== null };
  });

  const open = new Map<WebSocket, Promise<void>>();
  app.get(SOCKET_PATH, { websocket: true }, (socket) => {
    const done = handleConnection(socket, {
      db,
      hub,
      processId,
      now,
      flood: opts.flood ?? FLOOD,
      liveness: opts.liveness ?? LIVENESS,
      expired,
      activeSince,
      maxStudents: opts.maxStudents ?? MAX_STUDENTS,
      log,
    });
    open.set(socket, done);
    void done.then(() => open.delete(socket));
  });

  if (opts.appDir !== null) {
    if (!existsSync(opts.appDir)) throw new Error(`no built app at ${opts.appDir}`);
    await app.register(fastifyStatic, { root: opts.appDir, index: 'index.html' });
  }

  // Forget idle clients' buckets now and then: only the busy ones need remembering.
  timers.push(
    setInterval(() => {
      const t = now();
      for (const [ip, b] of createBuckets) if (b.full(t)) createBuckets.delete(ip);
    }, 60_000),
  );
  timers.at(-1)?.unref();

  const address = await app.listen({ port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;

  return {
    url: address,
    port,
    db,
    sweep,
    sockets: () => hub.size,
    async close() {
      for (const t of timers) clearInterval(t);
      for (const socket of open.keys()) socket.close(1001, 'the server is stopping');
      // A page answers the close at once; one that does not (gone from the network) is not
      // waited for past two seconds.
      const cut = setTimeout(() => {
        for (const socket of open.keys()) socket.terminate();
      }, 2_000);
      await app.close();
      await Promise.all(open.values());
      clearTimeout(cut);
      // Let pushes already running finish before the database goes.
      while (hub.busy) await new Promise((r) => setTimeout(r, 10));
      await db.query('DELETE FROM processes WHERE id = $1', [processId]).catch(log);
      await db.close();
    },
  };
}
