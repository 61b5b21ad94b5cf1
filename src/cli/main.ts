// percpu-lab's command line from its sources: `npm run lab:dev` (bin/lab.mjs with LAB_TSX=1) runs
// this file through tsx. `lab` itself runs the bundle (bundle/start.ts), which runs the same
// `runLab`. The commands and their exit statuses are in lab.ts.

import { runLab } from './process.ts';

process.exitCode = await runLab(process.argv.slice(2));
