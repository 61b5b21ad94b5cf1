#!/usr/bin/env node
// `lab`, the command line (package.json's bin; `npm run lab --` runs it too). It runs the bundle in
// build/cli/ (bin/buildLab.mjs), which npm's prepare step builds and which this rebuilds first,
// saying so, when a source is newer: a start costs a node process and a bundle's load, not tsx's
// compile of the TypeScript. `LAB_TSX=1` runs the sources through tsx instead (`npm run lab:dev`),
// for a change tried without a build.

import { pathToFileURL } from 'node:url';

if (process.env.LAB_TSX === '1') {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
} else {
  const { BUNDLE_DIR, ensureLab } = await import('./buildLab.mjs');
  await ensureLab();
  await import(pathToFileURL(`${BUNDLE_DIR}/main.mjs`).href);
}
