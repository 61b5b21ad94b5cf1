// What the bundle's engine, build/cli/lab.cjs, gives its start (start.ts): the command line, and
// the runs that teach V8's code cache which functions a command needs (train.ts).
//
// CommonJS, not a module, because only a script can be handed a code cache in Node 20
// (vm.Script's cachedData; a module's compile takes none), and the cache is what spares a start
// from compiling the engine again: bin/buildLab.mjs has the figures.

export { runLab } from '../process.ts';
export { train } from './train.ts';
