// Two classroom server processes on one PostgreSQL share their rooms: a teacher on one and a
// student on the other, as behind a load balancer. Runs when CLASSROOM_TEST_DATABASE_URL (or
// DATABASE_URL) names a PostgreSQL; says it was skipped when not.

import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRoom, student, teacher, TEST_DATABASE_URL, tempSchema } from './testing.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** `npm run classroom`'s process (API only), resolved with its URL once it says it listens. */
function startProcess(databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      CLASSROOM_API_ONLY: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((res, rej) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (m?.[1]) res({ url: m[1], child });
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      rej(new Error(`the server exited (${String(code)}): ${err}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((res) => {
    if (child.exitCode !== null) {
      res();
      return;
    }
    child.on('exit', () => {
      res();
    });
    child.kill('SIGTERM');
  });
}

describe(
  TEST_DATABASE_URL
    ? 'two server processes on one PostgreSQL'
    : 'two server processes on one PostgreSQL (skipped: set CLASSROOM_TEST_DATABASE_URL or DATABASE_URL to run it)',
  () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const f of cleanups.splice(0).reverse()) await f();
    });

    it.skipIf(!TEST_DATABASE_URL)(
      'share a room: moments, answers, names and submissions cross between them',
      async () => {
        const schema = await tempSchema(TEST_DATABASE_URL);
        cleanups.push(schema.drop);
        // Started at once: the migrations' advisory lock lets one apply them.
        const [a, b] = await Promise.all([startProcess(schema.url), startProcess(schema.url)]);
        cleanups.push(
          () => stop(a.child),
          () => stop(b.child),
        );
        expect(a.url).not.toBe(b.url);

        const room = await createRoom(a.url);
        const t = await teacher(a.url, room);
        const s = await student(b.url, room, 'ada');
        cleanups.push(
          () => t.close(),
          () => s.close(),
        );
        await t.next('roster', (m) => m.students.length === 1 && m.students[0]?.online === true);

        t.send({ t: 'moment', hash: '#/step/global-plain?cpus=2' });
        t.send({
          t: 'ask',
          question: {
            prompt: 'Lost?',
            choices: ['yes', 'no'],
            seconds: 60,
            answer: 0,
            revealHash: null,
          },
        });
        await s.until((x) => x.eventNumbers().length === 2, 'both events on the other process');
        expect(s.all('event').map((m) => m.e.kind)).toEqual(['moment', 'ask']);

        s.send({ t: 'answer', question: 2, choice: 0 });
        await t.next('tally', (m) => m.answered === 1 && m.counts.join() === '1,0');
        s.send({ t: 'submit', challenge: 'lose-one', schedule: '0 1 0 1 0 0 1 1' });
        const sub = await t.next('submission');
        expect(sub).toMatchObject({
          nickname: 'ada',
          challenge: 'lose-one',
          verdict: { kind: 'reached' },
        });

        t.send({ t: 'reveal' });
        const r = await s.next('event', (m) => m.e.kind === 'reveal');
        expect(r.e).toEqual({
          kind: 'reveal',
          question: 2,
          answer: 0,
          counts: [1, 0],
          revealHash: null,
        });

        // The student's process stops: the other sees them leave.
        await stop(b.child);
        await t.next('roster', (m) => m.students[0]?.online === false);
      },
    );
  },
);
