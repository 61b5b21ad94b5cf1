// npm run bench:classroom [-- --students 50,200,1000] [--steps 30] [--database-url URL] [--json]
//
// The classroom server under a class: it starts the server (API only, in a child process, on
// PGlite in a temporary directory, or on PostgreSQL with --database-url), then for each class
// size N opens one teacher and N students on loopback and measures
//   join      from the first student's socket to the last one's welcome (then a second's pause,
//             so the last rosters of the joining are out before the steps are timed);
//   step      a teacher's moment to the last student's receipt, over --steps moments (median,
//             p95, p99);
//   answers   every student answers a question: from the first answer sent to the teacher's
//             tally that counts them all, as answers per second;
//   memory    the server's RSS and heap after the class (after a GC);
//   errors    every error message, socket error or unexpected close (must be 0).
// A thousand students hold 2,000 sockets on this machine (both ends): `ulimit -n` must allow
// it (a shell's default 1,024 does not: run `ulimit -n 8192` first).

import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { PROTOCOL_VERSION, type ServerMessage, SOCKET_PATH } from '../src/classroom/protocol.ts';

interface Sock {
  readonly ws: WebSocket;
  /** Called with each message (the benchmark's current wait). */
  on: (m: ServerMessage, at: number) => void;
}

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      students: { type: 'string', default: '50,200,1000' },
      steps: { type: 'string', default: '30' },
      'database-url': { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const sizes = values.students.split(',').map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`--students takes sizes like 50,200, not ${s}`);
    return n;
  });
  const steps = Number(values.steps);
  if (!Number.isInteger(steps) || steps < 1) throw new Error(`--steps takes a positive integer`);

  // PGlite's directory, for this run only (unused on PostgreSQL).
  const dir = mkdtempSync(join(tmpdir(), 'classroom-bench-'));
  process.on('exit', () => {
    rmSync(dir, { recursive: true, force: true });
  });
  const child = fork(new URL('./classroomServer.ts', import.meta.url), {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, CLASSROOM_DATA: dir, DATABASE_URL: values['database-url'] ?? '' },
  });
  const ask = <T>(m: string): Promise<T> =>
    new Promise((res) => {
      child.once('message', (r) => {
        res(r as T);
      });
      child.send(m);
    });
  const { url, database } = await new Promise<{ url: string; database: string }>((res, rej) => {
    child.once('message', (m) => {
      res(m as { url: string; database: string });
    });
    child.once('exit', (code) => {
      rej(new Error(`the server exited (${String(code)})`));
    });
  });

  let errors = 0;
  const errorKinds = new Map<string, number>();
  const countError = (what: string) => {
    errors++;
    errorKinds.set(what, (errorKinds.get(what) ?? 0) + 1);
  };
  const open = (): Promise<Sock> =>
    new Promise((res, rej) => {
      const ws = new WebSocket(url.replace('http', 'ws') + SOCKET_PATH);
      const sock: Sock = { ws, on: () => undefined };
      let closing = false;
      ws.on('message', (d: Buffer) => {
        const at = performance.now();
        const m = JSON.parse(d.toString('utf8')) as ServerMessage;
        if (m.t === 'error') countError(`error ${m.code}`);
        sock.on(m, at);
      });
      ws.on('error', (e) => {
        countError(`socket ${e.message}`);
        rej(e);
      });
      ws.on('close', () => {
        if (!closing) countError('closed by the server');
      });
      (ws as WebSocket & { markClosing?: () => void }).markClosing = () => (closing = true);
      ws.once('open', () => {
        res(sock);
      });
    });
  const closeAll = (socks: readonly Sock[]) =>
    Promise.all(
      socks.map(
        (s) =>
          new Promise<void>((res) => {
            (s.ws as WebSocket & { markClosing?: () => void }).markClosing?.();
            s.ws.once('close', () => {
              res();
            });
            s.ws.close();
          }),
      ),
    );

  const rows = [];
  for (const n of sizes) {
    const before = errors;
    const created = (await (
      await fetch(`${url}/api/rooms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: `bench ${n}` }),
      })
    ).json()) as { code: string; secret: string };
    const teacher = await open();
    await new Promise<void>((res) => {
      teacher.on = (m) => {
        if (m.t === 'welcome') res();
      };
      teacher.ws.send(
        JSON.stringify({
          t: 'hello',
          v: PROTOCOL_VERSION,
          role: 'teacher',
          code: created.code,
          secret: created.secret,
          since: 0,
        }),
      );
    });

    // Join: every student connects and says hello at once.
    const joinStart = performance.now();
    let welcomed = 0;
    let joinEnd = 0;
    const allWelcomed = new Promise<void>((res) => {
      const done = (at: number) => {
        welcomed++;
        if (welcomed === n) {
          joinEnd = at;
          res();
        }
      };
      void Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const s = await open();
          s.on = (m, at) => {
            if (m.t === 'welcome') done(at);
          };
          s.ws.send(
            JSON.stringify({
              t: 'hello',
              v: PROTOCOL_VERSION,
              role: 'student',
              code: created.code,
              nickname: `student ${i}`,
              token: `bench-token-${String(i).padStart(6, '0')}`,
              since: 0,
            }),
          );
          return s;
        }),
      ).then((socks) => {
        students.push(...socks);
      });
    });
    const students: Sock[] = [];
    await allWelcomed;
    while (students.length < n) await new Promise((r) => setTimeout(r, 5));
    // The class has joined; the last rosters and counts go out before the steps are timed.
    await new Promise((r) => setTimeout(r, 1_000));

    // Steps: one moment at a time, timed to the last student's receipt.
    const delays: number[] = [];
    let lastN = 0;
    const waitAll = (want: (m: ServerMessage) => boolean): Promise<number> =>
      new Promise((res) => {
        let got = 0;
        let last = 0;
        for (const s of students)
          s.on = (m, at) => {
            if (!want(m)) return;
            got++;
            last = Math.max(last, at);
            if (got === n) res(last);
          };
      });
    for (let i = 0; i < steps; i++) {
      const nth = ++lastN;
      const all = waitAll((m) => m.t === 'event' && m.n === nth);
      const t0 = performance.now();
      teacher.ws.send(JSON.stringify({ t: 'moment', hash: `#/step/global-plain?cpus=2&at=${i}` }));
      delays.push((await all) - t0);
    }

    // Answers: a question, then every student answers it at once.
    const question = ++lastN;
    const asked = waitAll((m) => m.t === 'event' && m.n === question);
    teacher.ws.send(
      JSON.stringify({
        t: 'ask',
        question: {
          prompt: 'Which?',
          choices: ['a', 'b', 'c', 'd'],
          seconds: 600,
          answer: 0,
          revealHash: null,
        },
      }),
    );
    await asked;
    const counted = new Promise<number>((res) => {
      teacher.on = (m, at) => {
        if (m.t === 'tally' && m.question === question && m.answered === n) res(at);
      };
    });
    for (const s of students) s.on = () => undefined;
    const a0 = performance.now();
    students.forEach((s, i) => {
      s.ws.send(JSON.stringify({ t: 'answer', question, choice: i % 4 }));
    });
    const answerMs = (await counted) - a0;

    const { memory } = await ask<{ memory: NodeJS.MemoryUsage }>('memory');
    await closeAll([teacher, ...students]);
    rows.push({
      students: n,
      joinMs: joinEnd - joinStart,
      stepMedianMs: quantile(delays, 0.5),
      stepP95Ms: quantile(delays, 0.95),
      stepP99Ms: quantile(delays, 0.99),
      answersPerSecond: n / (answerMs / 1000),
      rssMB: memory.rss / 2 ** 20,
      heapMB: memory.heapUsed / 2 ** 20,
      errors: errors - before,
    });
  }
  await new Promise((res) => {
    child.once('exit', res);
    child.send('stop');
  });
  rmSync(dir, { recursive: true, force: true });

  if (values.json) {
    console.log(JSON.stringify({ database, steps, rows }, null, 2));
  } else {
    console.log(
      `The classroom server on ${database}: one teacher and N students on loopback, ${steps} steps`,
    );
    console.log('');
    console.log(
      '| students | join (ms) | step median (ms) | step p95 (ms) | step p99 (ms) | answers/s | RSS (MB) | heap (MB) | errors |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    const f = (x: number) => x.toFixed(x < 10 ? 1 : 0);
    for (const r of rows)
      console.log(
        `| ${r.students} | ${f(r.joinMs)} | ${f(r.stepMedianMs)} | ${f(r.stepP95Ms)} | ${f(r.stepP99Ms)} | ${f(r.answersPerSecond)} | ${f(r.rssMB)} | ${f(r.heapMB)} | ${r.errors} |`,
      );
  }
  if (errors > 0) {
    console.error(`errors: ${[...errorKinds].map(([k, c]) => `${c} × ${k}`).join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
