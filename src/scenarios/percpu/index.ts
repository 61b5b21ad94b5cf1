// What the percpu_counter entries share, in one namespace (`import * as percpu`): their roles,
// parameters and presets, the program text every design's entry is written in, and the C
// functions several designs share.

export * from './functions.ts';
export * from './setup.ts';
export * from './text.ts';
