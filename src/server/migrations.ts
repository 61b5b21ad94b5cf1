// The classroom's schema as numbered migrations, applied at start in one transaction under an
// advisory lock, so two processes starting at once on one PostgreSQL do not both apply one.
// A migration is never edited once released: a change is a new one at the end.
//
// What is stored is the room's data and nothing else: no address, no user agent. A room's
// rows all hang off it (ON DELETE CASCADE), so deleting an expired room deletes its events,
// students, answers and submissions with it. Times are ms since the epoch (int8).

import type { Db } from './db.ts';

/** Statements one at a time: PGlite's parameterised query runs a single statement. */
export const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE rooms (
      code text PRIMARY KEY,
      secret_hash text NOT NULL,
      title text NOT NULL,
      created int8 NOT NULL,
      last_activity int8 NOT NULL,
      ended int8,
      last_n integer NOT NULL DEFAULT 0,
      open_question integer,
      closes_at int8
    )`,
    `CREATE INDEX rooms_last_activity ON rooms (last_activity)`,
    // body is what every page sees; secret is an ask's answer and reveal moment, never sent.
    `CREATE TABLE events (
      room text NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
      n integer NOT NULL,
      at int8 NOT NULL,
      body jsonb NOT NULL,
      secret jsonb,
      PRIMARY KEY (room, n)
    )`,
    `CREATE TABLE students (
      id bigserial PRIMARY KEY,
      room text NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
      token_hash text NOT NULL,
      nickname text NOT NULL,
      joined int8 NOT NULL,
      UNIQUE (room, token_hash)
    )`,
    `CREATE TABLE answers (
      room text NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
      question integer NOT NULL,
      student int8 NOT NULL REFERENCES students (id) ON DELETE CASCADE,
      choice integer NOT NULL,
      at int8 NOT NULL,
      PRIMARY KEY (room, question, student)
    )`,
    `CREATE TABLE submissions (
      id bigserial PRIMARY KEY,
      room text NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
      student int8 NOT NULL REFERENCES students (id) ON DELETE CASCADE,
      challenge text NOT NULL,
      schedule text NOT NULL,
      verdict jsonb NOT NULL,
      at int8 NOT NULL
    )`,
    // Who is online, shared by every process: a process's rows go when it closes, or, if it
    // died, when the others see its heartbeat stop (processes.seen).
    `CREATE TABLE processes (id text PRIMARY KEY, seen int8 NOT NULL)`,
    `CREATE TABLE connections (
      id bigserial PRIMARY KEY,
      process text NOT NULL REFERENCES processes (id) ON DELETE CASCADE,
      room text NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
      student int8 NOT NULL REFERENCES students (id) ON DELETE CASCADE
    )`,
    `CREATE INDEX connections_room ON connections (room)`,
  ],
  // The roster asks, per student, for their connections: without this a class of a thousand
  // joining made a million comparisons per roster.
  [
    `CREATE INDEX connections_student ON connections (student)`,
    `CREATE INDEX students_room ON students (room, joined)`,
  ],
];

/** An arbitrary constant: the advisory lock's key for the classroom's migrations. */
const LOCK_KEY = 4_412_000_044;

/** Applies the migrations not yet applied; returns how many it applied. */
export async function migrate(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS classroom_migrations (n integer PRIMARY KEY, applied int8 NOT NULL)',
    );
    const done = new Set(
      (await tx.query<{ n: number }>('SELECT n FROM classroom_migrations')).map((r) => r.n),
    );
    let applied = 0;
    for (const [i, statements] of MIGRATIONS.entries()) {
      const n = i + 1;
      if (done.has(n)) continue;
      for (const sql of statements) await tx.query(sql);
      await tx.query('INSERT INTO classroom_migrations (n, applied) VALUES ($1, $2)', [
        n,
        Date.now(),
      ]);
      applied++;
    }
    return applied;
  });
}
