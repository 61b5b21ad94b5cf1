// percpu-lab's command line: `lab <command> ...` (bin/lab.mjs runs this file's bundle). Runs the
// same pure engine as the app; the commands and their exit statuses are in lab.ts.

import { lab } from './lab.ts';

// `lab check DIR | head`: the reader has gone, so there is no one left to answer; stop quietly, as
// a command killed by SIGPIPE does, rather than with a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await lab(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
