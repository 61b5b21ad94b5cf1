// One small interface over the classroom's two databases, so every query and migration is the
// same SQL on both: PGlite (Postgres compiled to WebAssembly, a directory on disk, nothing to
// install) by default, and PostgreSQL through `pg` when DATABASE_URL names one, which is what
// lets several server processes share rooms (LISTEN/NOTIFY carries each new event to all).

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type Row = Record<string, unknown>;

/** What a query runs on: the database itself, or one transaction of it. */
export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgresql';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Calls `fn` with each notification's payload on `channel` (from any process). */
  listen(channel: string, fn: (payload: string) => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * PGlite in a directory (created if missing). One process only: two PGlites writing one
 * directory would corrupt it, so the directory holds a lock file naming its process, and a
 * second server refuses to start while that process lives.
 */
export async function openPglite(dir: string): Promise<Db> {
  const unlock = lockDirectory(dir);
  // int8 as a number, as from pg below.
  const db = await PGlite.create(dir, { parsers: { 20: (s: string) => Number(s) } }).catch(
    (e: unknown) => {
      unlock();
      throw e;
    },
  );
  return {
    kind: 'pglite',
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      return (await db.query<T>(sql, params as unknown[])).rows;
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return db.transaction((tx) =>
        fn({
          async query<U extends Row>(sql: string, params: readonly unknown[] = []) {
            return (await tx.query<U>(sql, params as unknown[])).rows;
          },
        }),
      );
    },
    async listen(channel, fn) {
      await db.listen(channel, fn);
    },
    async close() {
      await db.close();
      unlock();
    },
  };
}

/** Takes `dir`'s lock file (a stale one, of a process gone, is taken over); returns its release. */
function lockDirectory(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'classroom.lock');
  const mine = `${String(process.pid)} ${String(Math.random())}`;
  for (;;) {
    try {
      writeFileSync(file, mine, { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let holder = '';
      try {
        holder = readFileSync(file, 'utf8');
      } catch {
        continue; // released meanwhile
      }
      const pid = Number(holder.split(' ')[0]);
      if (alive(pid))
        throw new Error(
          `another classroom server (process ${String(pid)}) is using ${dir}: PGlite's directory is one process's; give each its own CLASSROOM_DATA, or share rooms through PostgreSQL (DATABASE_URL)`,
        );
      rmSync(file, { force: true });
    }
  }
  return () => {
    try {
      if (readFileSync(file, 'utf8') === mine) rmSync(file);
    } catch {
      // Already gone: nothing to release.
    }
  };
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// int8 (bigint) comes back from pg as a string by default; every int8 here is a time in ms or a
// count, well within a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (s) => Number(s));

/** PostgreSQL at `url`: a pool for queries and one client held for LISTEN. */
export async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  const handlers = new Map<string, ((payload: string) => void)[]>();
  listener.on('notification', (m) => {
    for (const fn of handlers.get(m.channel) ?? []) fn(m.payload ?? '');
  });
  return {
    kind: 'postgresql',
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      return (await pool.query<T>(sql, params as unknown[])).rows;
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn({
          async query<U extends Row>(sql: string, params: readonly unknown[] = []) {
            return (await client.query<U>(sql, params as unknown[])).rows;
          },
        });
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK');
        throw e;
      } finally {
        client.release();
      }
    },
    async listen(channel, fn) {
      if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
      const list = handlers.get(channel);
      if (list) list.push(fn);
      else {
        handlers.set(channel, [fn]);
        await listener.query(`LISTEN ${channel}`);
      }
    },
    async close() {
      await listener.end();
      await pool.end();
    },
  };
}

/** The database the environment names: PostgreSQL at `url` if given, else PGlite in `dir`. */
export function openDb(opts: { readonly url?: string; readonly dir: string }): Promise<Db> {
  return opts.url ? openPostgres(opts.url) : openPglite(opts.dir);
}
