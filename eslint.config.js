// ESLint flat config. Type-aware rules use typescript-eslint's projectService, which finds each
// file's project through the references in tsconfig.json.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The layer rule (the README's folder map): the pure core runs unchanged in Node, workers and the main
// thread, so it imports nothing from the UI side. Each message names where the code belongs.
const pureCore =
  'The pure core (src/machine, src/lang, src/scenarios, src/explore, src/live, src/lessons)';
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
    {
      group: ['**/ui', '**/ui/**'],
      message: `${pureCore} must not import from src/ui: the UI imports the core, never the reverse.`,
    },
    {
      group: ['**/charts', '**/charts/**'],
      message: `${pureCore} must not import from src/charts: charts read core data, never the reverse.`,
    },
    {
      group: ['**/store', '**/store/**'],
      message: `${pureCore} must not import from src/store: stores wrap the core, never the reverse.`,
    },
    {
      group: ['**/workers', '**/workers/**'],
      message: `${pureCore} must not import from src/workers: workers run the core, never the reverse.`,
    },
    {
      group: ['**/cli', '**/cli/**'],
      message: `${pureCore} must not import from src/cli: the CLI is a Node front end over the core.`,
    },
  ],
};

// Stores are built without React: React components read them through hooks.
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
    {
      group: ['**/ui', '**/ui/**'],
      message: 'src/store must not import from src/ui: screens read stores, never the reverse.',
    },
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
  ],
};

// Workers and their bridges run the core for the screens; they never reach up into a store.
const workerImports = {
  patterns: [
    {
      group: ['**/store', '**/store/**'],
      message:
        'src/workers must not import from src/store: a store is given its runner (a bridge), never the reverse.',
    },
    {
      group: ['**/ui', '**/ui/**'],
      message: 'src/workers must not import from src/ui.',
    },
  ],
};

export default defineConfig([
  globalIgnores(['dist', 'node_modules', 'playwright-report', 'test-results', 'coverage']),

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

  {
    files: [
      'src/machine/**',
      'src/lang/**',
      'src/axiomatic/**',
      'src/scenarios/**',
      'src/explore/**',
      'src/live/**',
      'src/lessons/**',
    ],
    rules: { 'no-restricted-imports': ['error', pureCoreImports] },
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
]);
