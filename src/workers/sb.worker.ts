// An SB litmus worker: it only exposes the API object (sbApi.ts holds the logic).
import { expose } from 'comlink';
import { sbApi } from './sbApi.ts';

expose(sbApi);
