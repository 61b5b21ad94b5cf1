// The axiomatic worker: it only exposes the API object (axiomaticApi.ts holds the logic).
import { expose } from 'comlink';
import { createAxiomaticApi } from './axiomaticApi.ts';

expose(createAxiomaticApi());
