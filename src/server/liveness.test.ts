// What the server does about sockets that hold a connection and nothing else, and about two
// servers on one PGlite directory. PGlite only: none of this depends on the database.

import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SOCKET_PATH } from '../classroom/protocol.ts';
import { startServer } from './app.ts';
import { Client, createRoom, pgliteDir, teacher } from './testing.ts';

describe('the classroom server and idle sockets', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const f of cleanups.splice(0).reverse()) await f();
  });

  async function server(liveness: { helloMs: number; pingMs: number }) {
    const data = await pgliteDir();
    cleanups.push(data.remove);
    const s = await startServer({ dataDir: data.dir, appDir: null, liveness });
    cleanups.push(() => s.close());
    return { s, url: `http://127.0.0.1:${s.port}`, dir: data.dir };
  }

  it('closes a socket that says no hello in time', async () => {
    const { url } = await server({ helloMs: 300, pingMs: 60_000 });
    const c = await Client.open(url);
    expect(await c.closed()).toBe(1008);
    expect(c.errors('bad-message').map((m) => m.message)).toEqual([
      'no hello: this socket is closed',
    ]);
  });

  it('cuts a peer that stops answering pings, and the roster shows it offline', async () => {
    const { url, s } = await server({ helloMs: 60_000, pingMs: 200 });
    const room = await createRoom(url);
    const t = await teacher(url, room);
    cleanups.push(() => t.close());
    // A phone gone from the network: its socket is open but nothing answers.
    const ws = new WebSocket(url.replace('http', 'ws') + SOCKET_PATH, { autoPong: false });
    await new Promise((r) => ws.once('open', r));
    ws.send(
      JSON.stringify({
        t: 'hello',
        v: 1,
        role: 'student',
        code: room.code,
        nickname: 'gone',
        token: 'g'.repeat(20),
        since: 0,
      }),
    );
    await t.next('roster', (m) => m.students[0]?.online === true);
    const code = await new Promise<number>((r) => ws.once('close', r));
    expect(code).toBe(1006);
    await t.next('roster', (m) => m.students[0]?.online === false);
    expect(s.sockets()).toBe(1);
  });

  it('refuses a second server on the same PGlite directory, naming the way out', async () => {
    const { dir } = await server({ helloMs: 60_000, pingMs: 60_000 });
    await expect(startServer({ dataDir: dir, appDir: null })).rejects.toThrow(
      /another classroom server \(process \d+\) is using .*DATABASE_URL/,
    );
  });
});
