// What an SB litmus worker exposes: prepare (instantiate the module on the shared memory) and
// run (one call into WebAssembly, busy until it ends). The logic is src/live/litmus/sb.ts.

import { sbWorkerApi } from '../live/litmus/sb.ts';

export const sbApi = sbWorkerApi(() => performance.now());

export type SbApi = typeof sbApi;
