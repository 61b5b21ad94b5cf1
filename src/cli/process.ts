// `lab` in this process: its arguments, its standard streams and its exit status. What both ways
// of starting it run: the sources through tsx (main.ts) and the bundle (bundle/start.ts).

import { lab } from './lab.ts';

/** Runs `lab argv` on this process's streams; resolves to the exit status. */
export function runLab(argv: readonly string[]): Promise<number> {
  // `lab check DIR | head`: the reader has gone, so there is no one left to answer; stop quietly,
  // as a command killed by SIGPIPE does, rather than with a stack trace.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });
  return lab(argv, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}
