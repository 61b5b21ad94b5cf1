// Worker-thread bootstrap: teaches this thread's loader TypeScript (tsx), then runs the shard.
import { register } from 'tsx/esm/api';

register();
await import('./shardThread.ts');
