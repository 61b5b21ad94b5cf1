// What the axiomatic worker exposes: the page's axiomatic session, one per worker (its logic and
// tests are in src/axiomatic/pageSession.ts).

import { createAxiomaticApi } from '../axiomatic/pageSession.ts';

export { createAxiomaticApi };
export type { AxiomaticAnswer, AxiomaticRequest, MemoryView } from '../axiomatic/pageSession.ts';
export type AxiomaticApi = ReturnType<typeof createAxiomaticApi>;
