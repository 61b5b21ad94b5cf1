// The explore worker: it only exposes the API object (exploreApi.ts holds the logic).
import { expose } from 'comlink';
import { exploreApi } from './exploreApi.ts';

expose(exploreApi);
