// `npm run classroom`: the classroom server as a command. Reads its settings from the
// environment (docs/serving.md lists them), builds the app first if dist/ is missing, and
// prints one line, "listening on http://host:port", once it takes connections (tests that
// start it as a child process wait for that line).

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { MAX_STUDENTS, startServer } from './app.ts';

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`${name} must be a number, not "${raw}"`);
    process.exit(2);
  }
  return n;
}

const root = resolve(import.meta.dirname, '../..');
const apiOnly = process.env.CLASSROOM_API_ONLY === '1' || process.argv.includes('--api-only');
const appDir = apiOnly ? null : resolve(root, 'dist');
if (appDir && !existsSync(resolve(appDir, 'index.html'))) {
  console.log('dist/ is missing: building the app first (npm run build)');
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(
      'the build failed: the classroom server needs the built app (or CLASSROOM_API_ONLY=1)',
    );
    process.exit(1);
  }
}

const host = process.env.HOST ?? '0.0.0.0';
const server = await startServer({
  port: envNumber('PORT', 8080),
  host,
  dataDir: resolve(process.env.CLASSROOM_DATA ?? resolve(root, '.classroom')),
  databaseUrl: process.env.DATABASE_URL || undefined,
  appDir,
  roomHours: envNumber('CLASSROOM_ROOM_HOURS', 12),
  maxStudents: envNumber('CLASSROOM_MAX_STUDENTS', MAX_STUDENTS),
}).catch((e: unknown) => {
  console.error(
    `the classroom server could not start: ${e instanceof Error ? e.message : String(e)}`,
  );
  process.exit(1);
});

const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
// The line alone, so a test can take the URL as the rest of it.
console.log(`listening on http://${shown}:${server.port}`);
console.log(`database: ${server.db.kind}${appDir ? `; serving ${appDir}` : '; the API alone'}`);

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    void server.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  });
