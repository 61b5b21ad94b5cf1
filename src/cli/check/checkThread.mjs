// Worker-thread bootstrap: teaches this thread's loader TypeScript (tsx), then checks files.
import { register } from 'tsx/esm/api';

register();
await import('./checkThread.ts');
