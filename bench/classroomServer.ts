// The classroom server as the benchmark runs it: a child process of bench/classroom.ts, so the
// students' sockets (in the parent) and the server do not share one event loop. It sends its
// URL when it listens and its memory when asked, over the IPC channel fork() opens.

import { startServer } from '../src/server/app.ts';

const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir: process.env.CLASSROOM_DATA ?? '',
  databaseUrl: process.env.DATABASE_URL || undefined,
  appDir: null,
  // The benchmark makes a room per class size, and may be run again at once.
  createLimit: { burst: 1_000, perHour: 1_000 },
});

process.send?.({ url: `http://127.0.0.1:${server.port}`, database: server.db.kind });
process.on('message', (m: unknown) => {
  if (m === 'memory') {
    global.gc?.();
    process.send?.({ memory: process.memoryUsage() });
  } else if (m === 'stop') {
    void server.close().then(() => process.exit(0));
  }
});
