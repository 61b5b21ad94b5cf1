// Worker-thread bootstrap: teaches this thread's loader TypeScript (tsx), then runs the CPU.
import { register } from 'tsx/esm/api';

register();
await import('./cpuThread.ts');
