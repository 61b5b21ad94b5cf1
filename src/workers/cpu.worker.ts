// A live CPU worker: it only exposes the API object (cpuApi.ts holds the logic).
import { expose } from 'comlink';
import { cpuApi } from './cpuApi.ts';

expose(cpuApi);
