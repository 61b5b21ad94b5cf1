// What the percpu_counter entries share, in one namespace (`import * as percpu`): their roles and
// parameters, their programs, the observables and invariants every variant is judged by, and the
// C their listings share.

export * from './setup.ts';
export * from './programs.ts';
export * from './observables.ts';
export * from './invariants.ts';
export * from './listing.ts';
