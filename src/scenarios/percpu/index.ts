// What the percpu_counter entries share, in one namespace (`import * as percpu`): their roles,
// parameters and presets, and the program text every design's entry is written in.

export * from './setup.ts';
export * from './text.ts';
