// The hub pushes a room's submissions to its teacher in the order it heard of them, even when
// the database answers the reads for them in another order (a pool of PostgreSQL connections
// can: a later, quicker read finishes first). The database here is a stand-in whose reads
// finish in the reverse of the order they were asked, so a hub that pushed each as its read
// finished would send them backwards.

import { describe, expect, it } from 'vitest';
import type { WebSocket } from '@fastify/websocket';
import type { ServerMessage } from '../classroom/protocol.ts';
import type { Db, Queryable } from './db.ts';
import { Hub } from './hub.ts';

/** A database whose reads finish last-asked first, once `release` is called. */
function backwardsDb(): { db: Db; release: () => void } {
  const waiting: (() => void)[] = [];
  const read = (params: readonly unknown[] | undefined) =>
    new Promise<Record<string, unknown>[]>((resolve) => {
      const id = Number(params?.[0]);
      waiting.push(() => {
        resolve([
          {
            nickname: 'ada',
            challenge: 'lose-one',
            schedule: `schedule ${String(id)}`,
            verdict: { kind: 'missed', summary: '' },
            at: id,
          },
        ]);
      });
    });
  const query = ((_sql: string, params?: readonly unknown[]) => read(params)) as Queryable['query'];
  const db: Db = {
    kind: 'postgresql',
    query,
    transaction: (fn) => fn({ query }),
    listen: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  return {
    db,
    release: () => {
      while (waiting.length > 0) waiting.pop()?.();
    },
  };
}

/** A teacher's socket that keeps what it is sent. */
function teacherSocket(): { socket: WebSocket; sent: ServerMessage[] } {
  const sent: ServerMessage[] = [];
  const socket = {
    OPEN: 1,
    readyState: 1,
    send: (data: string) => sent.push(JSON.parse(data) as ServerMessage),
  } as unknown as WebSocket;
  return { socket, sent };
}

describe('the hub', () => {
  it("pushes a room's submissions in the order it heard of them", async () => {
    const { db, release } = backwardsDb();
    const errors: unknown[] = [];
    const hub = new Hub(db, (e) => errors.push(e));
    const { socket, sent } = teacherSocket();
    hub.add({ socket, room: 'ABCDEF', role: 'teacher', student: null, lastSent: 0 });
    for (const id of [11, 12, 13]) hub.heard(`s:ABCDEF:${String(id)}`);
    // Each push asks for its row only once the one before it was sent: release until all are.
    for (let i = 0; i < 20 && sent.length < 3; i++) {
      release();
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(errors).toEqual([]);
    expect(sent.map((m) => (m.t === 'submission' ? m.schedule : m.t))).toEqual([
      'schedule 11',
      'schedule 12',
      'schedule 13',
    ]);
    expect(hub.busy).toBe(false);
  });
});
