// ESLint flat config. Type-aware rules use typescript-eslint's projectService, which finds each
// file's project through the references in tsconfig.json.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The layer rules (the README's "Imports only point down"). Each folder under src/ may import only
// the folders below it; every rule's message names where the code belongs instead. ESLint keeps
// one `no-restricted-imports` setting per file, so each folder's block lists all of its rules.

/** A rule against importing folder `to` (a relative path through it, from any depth). */
const folder = (to, message) => ({ group: [`**/${to}`, `**/${to}/**`], message });
// src/server by relative path only: a glob on `server` would also catch 'react-dom/server'.
const serverFolder = (message) => ({ regex: '^\\.{1,2}/(.*/)?server(/.*)?$', message });

// The pure core, bottom to top: each layer may import the ones before it, never after.
// explore and live are siblings (neither imports the other); lessons sits on both; classroom (the
// room's protocol and questions, shared by the classroom server and the page) on lessons.
const ORDER = 'machine ← lang ← scenarios ← axiomatic ← {explore, live} ← lessons ← classroom';
const coreAbove = {
  machine: ['lang', 'scenarios', 'axiomatic', 'explore', 'live', 'lessons', 'classroom'],
  lang: ['scenarios', 'axiomatic', 'explore', 'live', 'lessons', 'classroom'],
  scenarios: ['axiomatic', 'explore', 'live', 'lessons', 'classroom'],
  axiomatic: ['explore', 'live', 'lessons', 'classroom'],
  explore: ['live', 'lessons', 'classroom'],
  live: ['explore', 'lessons', 'classroom'],
  lessons: ['classroom'],
  classroom: [],
};
const coreOrder = (from, to) =>
  folder(
    to,
    `src/${from} must not import src/${to}: the core's order is ${ORDER}. Put what both need in src/${from} or a layer below it, or have src/${to} pass it in.`,
  );

// The pure core runs unchanged in Node, workers and the main thread, so it imports nothing from
// the UI side. Each message names where the code belongs.
const pureCore = `The pure core (src/${Object.keys(coreAbove).join(', src/')})`;
const pureCoreImports = {
  paths: [
    {
      name: 'react',
      message: `${pureCore} must not import React: put UI code in src/ui and pass data down as props.`,
    },
    {
      name: 'react-dom',
      message: `${pureCore} must not import react-dom: rendering belongs in src/main.tsx and src/ui.`,
    },
    {
      name: 'd3',
      message: `${pureCore} must not import d3: scales and shapes belong in src/charts.`,
    },
    {
      name: 'comlink',
      message: `${pureCore} must not import comlink: worker entries and bridges belong in src/workers; expose a plain API object from the core instead.`,
    },
    {
      name: 'zustand',
      message: `${pureCore} must not import zustand: stores belong in src/store; keep the core's state in plain values.`,
    },
  ],
  patterns: [
    {
      group: ['react/*', 'react-dom/*'],
      message: `${pureCore} must not import React: put UI code in src/ui and pass data down as props.`,
    },
    {
      regex: '^d3-',
      message: `${pureCore} must not import d3 modules: scales and shapes belong in src/charts.`,
    },
    {
      group: ['zustand/*'],
      message: `${pureCore} must not import zustand: stores belong in src/store; keep the core's state in plain values.`,
    },
    folder(
      'ui',
      `${pureCore} must not import from src/ui: the UI imports the core, never the reverse.`,
    ),
    folder(
      'charts',
      `${pureCore} must not import from src/charts: charts read core data, never the reverse.`,
    ),
    folder(
      'store',
      `${pureCore} must not import from src/store: stores wrap the core, never the reverse.`,
    ),
    folder(
      'workers',
      `${pureCore} must not import from src/workers: workers run the core, never the reverse.`,
    ),
    folder(
      'cli',
      `${pureCore} must not import from src/cli: the CLI is a Node front end over the core.`,
    ),
    serverFolder(
      `${pureCore} must not import from src/server: the classroom server runs the core, never the reverse.`,
    ),
    folder(
      'deploy',
      `${pureCore} must not import from deploy/: the build imports the core, never the reverse.`,
    ),
  ],
};
// A layer's tests may reach up (a test of the language explores its programs); its code may not.
const TESTS = ['**/*.test.ts'];
const coreLayer = (name) => [
  {
    files: [`src/${name}/**`],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: pureCoreImports.paths,
          patterns: [
            ...pureCoreImports.patterns,
            ...coreAbove[name].map((to) => coreOrder(name, to)),
          ],
        },
      ],
    },
  },
  {
    files: TESTS.map((t) => `src/${name}/${t}`),
    rules: { 'no-restricted-imports': ['error', pureCoreImports] },
  },
];

// Charts read the core's data and lay it out; they are drawn by screens, never the reverse.
const chartsImports = {
  patterns: [
    folder(
      'store',
      'src/charts must not import from src/store: a screen reads the store and passes the chart plain data.',
    ),
    folder(
      'ui',
      'src/charts must not import from src/ui: screens import charts, never the reverse.',
    ),
    folder(
      'workers',
      'src/charts must not import from src/workers: charts draw data a screen hands them.',
    ),
    folder('cli', 'src/charts must not import from src/cli: the CLI is a Node front end.'),
    folder(
      'deploy',
      'src/charts must not import from deploy/: the build imports charts, never the reverse.',
    ),
  ],
};

// Stores are built without React: React components read them through hooks. A store reaches its
// workers through a port it is given (a bridge implements it), never by importing them.
const storeImports = {
  paths: [
    {
      name: 'react',
      message:
        'src/store must not import React: stores are built with createStore from zustand/vanilla; hooks belong in src/ui.',
    },
    {
      name: 'react-dom',
      message: 'src/store must not import react-dom: rendering belongs in src/main.tsx and src/ui.',
    },
    {
      name: 'zustand',
      message:
        "src/store must not import 'zustand' (its React hooks): use createStore from 'zustand/vanilla'.",
    },
  ],
  patterns: [
    folder('ui', 'src/store must not import from src/ui: screens read stores, never the reverse.'),
    folder(
      'workers',
      'src/store must not import from src/workers: declare the port the store needs (with types from the core) and let src/ui hand it a bridge.',
    ),
    folder(
      'charts',
      'src/store must not import from src/charts: a screen draws what the store holds.',
    ),
    folder('cli', 'src/store must not import from src/cli: the CLI is a Node front end.'),
  ],
};

// Screens talk to workers through the one bridge of each kind (src/workers/*Bridge.ts), never to
// comlink, a worker entry or a worker's API module.
const uiImports = {
  paths: [
    {
      name: 'comlink',
      message: 'src/ui must not import comlink: only src/workers/*Bridge.ts talks to workers.',
    },
  ],
  patterns: [
    {
      group: ['**/workers/*.worker*', '**/workers/*Api*'],
      message:
        'src/ui must not import worker entries or worker APIs: go through src/workers/*Bridge.ts.',
    },
    folder(
      'cli',
      'src/ui must not import from src/cli: the CLI is a Node front end; share through the core.',
    ),
    serverFolder(
      'src/ui must not import from src/server: the page talks to the classroom server over the wire (src/classroom/protocol.ts).',
    ),
    folder(
      'deploy',
      'src/ui must not import from deploy/: the build serves the page; share pure data through src/charts or the core.',
    ),
  ],
};

// Workers and their bridges run the core for the screens; they never reach up into a store.
const workerImports = {
  patterns: [
    folder(
      'store',
      'src/workers must not import from src/store: a store is given its runner (a bridge), never the reverse.',
    ),
    folder('ui', 'src/workers must not import from src/ui.'),
    folder('charts', 'src/workers must not import from src/charts: workers compute, screens draw.'),
    folder(
      'cli',
      'src/workers must not import from src/cli: Node worker threads live there, browser workers here; share through the core.',
    ),
  ],
};

// The command line runs the core in Node; the browser's layers are not for it.
const cliImports = {
  patterns: ['ui', 'store', 'workers', 'charts'].map((to) =>
    folder(
      to,
      `src/cli must not import from src/${to}: the CLI is a Node front end over the core; share through the core.`,
    ),
  ),
};

// The classroom server runs the core in Node and serves the built page; it never imports the
// page's layers (the wire protocol in src/classroom is what the two share). It may import
// deploy/headers.ts: the headers every host sends are written once there.
const serverImports = {
  patterns: ['ui', 'store', 'workers', 'charts', 'cli'].map((to) =>
    folder(
      to,
      `src/server must not import from src/${to}: the classroom server is a Node front end over the core; share through the core (the protocol is src/classroom).`,
    ),
  ),
};

// The build (Vite plugins, host configs) may compute from the core and the charts, never the UI.
const deployImports = {
  patterns: [
    folder(
      'ui',
      'deploy/ must not import from src/ui: put pure data both need in src/charts or the core (as src/charts/cards.ts is).',
    ),
    folder('store', 'deploy/ must not import from src/store: the build computes from the core.'),
  ],
};

export default defineConfig([
  // build/: the bundle `lab` runs (bin/buildLab.mjs), made from the sources linted here.
  globalIgnores(['dist', 'build', 'node_modules', 'playwright-report', 'test-results', 'coverage']),

  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // strict-type-checked forbids numbers in template literals; they print exactly as expected,
      // and the lab formats many counts and CPU numbers into messages.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `const { a, ...rest } = x` leaves out a on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },

  // Plain JS (this file, the worker-thread bootstrap): no tsconfig covers it, so no type-aware rules.
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },

  {
    files: ['src/**/*.tsx', 'src/ui/**/*.ts', 'src/charts/**/*.ts', 'src/store/**/*.ts'],
    extends: [reactHooks.configs.flat.recommended],
  },

  ...Object.keys(coreAbove).flatMap(coreLayer),

  {
    files: ['src/charts/**'],
    rules: { 'no-restricted-imports': ['error', chartsImports] },
  },

  {
    files: ['src/store/**'],
    rules: { 'no-restricted-imports': ['error', storeImports] },
  },

  {
    files: ['src/ui/**'],
    rules: { 'no-restricted-imports': ['error', uiImports] },
  },

  {
    files: ['src/workers/**'],
    rules: { 'no-restricted-imports': ['error', workerImports] },
  },

  {
    files: ['src/cli/**'],
    rules: { 'no-restricted-imports': ['error', cliImports] },
  },

  {
    files: ['src/server/**'],
    rules: { 'no-restricted-imports': ['error', serverImports] },
  },

  {
    files: ['deploy/**'],
    rules: { 'no-restricted-imports': ['error', deployImports] },
  },
]);
