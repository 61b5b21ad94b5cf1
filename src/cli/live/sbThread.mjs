// Worker-thread bootstrap for the SB litmus test: teaches this thread's loader TypeScript (tsx),
// then runs the thread (sbThread.ts).
import { register } from 'tsx/esm/api';

register();
await import('./sbThread.ts');
