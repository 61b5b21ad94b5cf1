// percpu-lab's command line: `lab <command> ...` (bin/lab.mjs runs this file's bundle). Runs the
// same pure engine as the app; the commands and their exit statuses are in lab.ts.

import { lab } from './lab.ts';

process.exitCode = await lab(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
